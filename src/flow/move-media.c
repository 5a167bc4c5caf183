/* move-media.c - which boot medium a move's target is, from the resolved device (its transport),
 * never from the spelling of its name. */
#include <stddef.h>

#include "common/util.h"
#include "flow/move.h"

static const struct {
	enum probe_transport tran;
	const char *media, *words;
} media_table[] = {
	{ PROBE_TRAN_MMC, "sd,usb", "the SD card or eMMC" },
	{ PROBE_TRAN_NVME, "nvme,sd", "NVMe" },
	{ PROBE_TRAN_USB, "usb,sd", "USB mass storage" },
};

static int media_index(const struct blkdev *target)
{
	const struct blkdev *d;
	size_t i;

	if (!target)
		return -1;
	d = probe_blkdev_whole((struct blkdev *)target);
	for (i = 0; i < ARRAY_SIZE(media_table); i++)
		if (media_table[i].tran == d->transport)
			return (int)i;
	return -1;
}

const char *flow_move_media(const struct blkdev *target)
{
	int i = media_index(target);

	return i < 0 ? NULL : media_table[i].media;
}

const char *flow_move_media_words(const struct blkdev *target)
{
	int i = media_index(target);

	return i < 0 ? NULL : media_table[i].words;
}
