/* move.h - the move journey: from one disk to a faster one, each step by the domain that does
 * it (bench, clone, boot check, tryboot or boot order, store), on resolved objects; no printing. */
#ifndef SBCDISK_FLOW_MOVE_H
#define SBCDISK_FLOW_MOVE_H

#include <stdbool.h>

#include "probe/probe.h"

/*
 * The Raspberry Pi boot media that try target first, as `boot order` takes them: "sd,usb"
 * for an SD card or eMMC (the firmware's SD mode reads both), "nvme,sd" for NVMe,
 * "usb,sd" for a USB drive; NULL when the target is none of these (a loop device, an image
 * file, device-mapper ...): no boot order tries it. target is the resolved disk (a
 * partition counts as its whole disk); NULL gives NULL.
 */
const char *flow_move_media(const struct blkdev *target);

/* The medium flow_move_media() puts first, in words ("the SD card or eMMC", "NVMe",
 * "USB mass storage"); NULL when it gives NULL. */
const char *flow_move_media_words(const struct blkdev *target);

#endif
