/* fuzz-fatlayout.c - a FAT boot sector and its first FAT from a hostile partition
 * (clone/fat-layout.c): the first 8 bytes are the partition's size (little-endian), the next
 * 512 the boot sector, the rest the FAT (zero past the input). No crash; every region and
 * every run of used clusters lies inside the partition, runs in order and apart. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clone/clone-int.h"

#define FAT_FUZZ_MAX (4U << 20) /* a larger FAT is copied whole: not read */

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct clone_fatinfo fi;
	uint64_t part = 0, off, len, end, last = 0;
	uint32_t next = 0;
	unsigned char *fat;
	int ret;

	if (size < 8 + 512)
		return 0;
	for (int i = 7; i >= 0; i--)
		part = part << 8 | data[i];
	ret = clone_fat_layout(data + 8, 512, part, &fi);
	check(!ret || ret == -EINVAL);
	if (ret)
		return 0;
	check(fi.bits == 12 || fi.bits == 16 || fi.bits == 32);
	check(fi.cluster_bytes && fi.cluster_bytes <= CLONE_FAT_CLUSTER_MAX);
	check(fi.fat_off && fi.fat_off + fi.fat_bytes <= fi.data_off);
	end = fi.data_off + (uint64_t)fi.clusters * fi.cluster_bytes;
	check(end <= part);
	/* the FAT holds an entry for every cluster counted */
	check(((uint64_t)fi.clusters + 2) * fi.bits <= fi.fat_bytes * 8);
	if (fi.fat_bytes > FAT_FUZZ_MAX)
		return 0;
	fat = calloc(1, fi.fat_bytes);
	if (!fat)
		return 0;
	memcpy(fat, data + 520, size - 520 < fi.fat_bytes ? size - 520 : fi.fat_bytes);
	/* a FAT shorter than the layout's is not read */
	check(!fi.fat_bytes || !clone_fat_next_run(&fi, fat, fi.fat_bytes - 1, &next, &off, &len));
	next = 0;
	while (clone_fat_next_run(&fi, fat, fi.fat_bytes, &next, &off, &len)) {
		check(len && off >= fi.data_off && off + len <= end);
		check(off > last || last == 0);
		check((off - fi.data_off) % fi.cluster_bytes == 0 && len % fi.cluster_bytes == 0);
		last = off + len;
	}
	free(fat);
	return 0;
}
