/* fuzz-usbids.c - usb.ids lookup on any bytes: no crash, no hang, names are clean UTF-8.
 * The first four bytes are the VID:PID looked up. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe/probe.h"
#include "common/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char vendor[128], product[128];
	uint16_t vid, pid;
	FILE *f;

	if (size < 5 || size > (1 << 20))
		return 0;
	vid = (uint16_t)(data[0] << 8 | data[1]);
	pid = (uint16_t)(data[2] << 8 | data[3]);
	f = fmemopen((void *)(data + 4), size - 4, "r");
	if (!f)
		return 0;
	probe_usbids_lookup(f, vid, pid, vendor, sizeof(vendor), product, sizeof(product));
	fclose(f);
	if (!str_is_clean_utf8(vendor) || !str_is_clean_utf8(product))
		abort();
	return 0;
}
