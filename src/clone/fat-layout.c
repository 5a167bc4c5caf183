// SPDX-License-Identifier: GPL-2.0-or-later
/* fat-layout.c - where a FAT12/16/32 file system keeps what it uses, from its boot sector and
 * its first FAT (buffers: the fuzz target calls these): every field bounded by the partition. */
#include <errno.h>
#include <string.h>

#include "clone/clone-int.h"
#include "common/banned.h"

static unsigned le16(const unsigned char *b)
{
	return b[0] | (unsigned)b[1] << 8;
}

static uint32_t le32(const unsigned char *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static bool power_of_two(unsigned v)
{
	return v && !(v & (v - 1));
}

int clone_fat_layout(const unsigned char *bs, size_t len, uint64_t part_size,
		     struct clone_fatinfo *fi)
{
	unsigned bps, spc, rsvd, nfats, root_ent;
	uint64_t total, fatsz, meta, data_sectors, clusters, entries;

	memset(fi, 0, sizeof(*fi));
	if (len < 512 || bs[510] != 0x55 || bs[511] != 0xaa)
		return -EINVAL;
	bps = le16(bs + 11);
	spc = bs[13];
	rsvd = le16(bs + 14);
	nfats = bs[16];
	root_ent = le16(bs + 17);
	total = le16(bs + 19) ? le16(bs + 19) : le32(bs + 32);
	fatsz = le16(bs + 22) ? le16(bs + 22) : le32(bs + 36);
	if (bps < 512 || bps > 4096 || !power_of_two(bps) || !power_of_two(spc) ||
	    (uint64_t)bps * spc > CLONE_FAT_CLUSTER_MAX || !rsvd || !nfats || nfats > 4 ||
	    !fatsz || !total)
		return -EINVAL;
	if (total > part_size / bps) /* a file system larger than its partition */
		return -EINVAL;
	meta = rsvd + nfats * fatsz + ((uint64_t)root_ent * 32 + bps - 1) / bps;
	if (meta >= total)
		return -EINVAL;
	data_sectors = total - meta;
	clusters = data_sectors / spc;
	/* as Linux reads it: FAT32 when the 16-bit FAT size is zero (mkfs.vfat -F 32 makes
	 * one of fewer than 65525 clusters too), else FAT12 up to 4084 clusters */
	fi->bits = !le16(bs + 22) ? 32 : clusters < 4085 ? 12 : 16;
	if ((fi->bits == 32) != (root_ent == 0))
		return -EINVAL;
	/* the clusters that the FAT has entries for: no more are in use */
	entries = fatsz * bps * 8 / fi->bits;
	if (entries < 3)
		return -EINVAL;
	if (clusters > entries - 2)
		clusters = entries - 2;
	if (clusters > 0x0ffffff5)
		clusters = 0x0ffffff5;
	fi->bps = bps;
	fi->cluster_bytes = (uint64_t)bps * spc;
	fi->fat_off = (uint64_t)rsvd * bps;
	fi->fat_bytes = fatsz * bps;
	fi->data_off = meta * bps;
	fi->clusters = (uint32_t)clusters;
	return 0;
}

/* The entry of cluster i (2 <= i < clusters + 2: inside the FAT, as layout bounded it). */
static uint32_t fat_entry(const struct clone_fatinfo *fi, const unsigned char *fat, uint32_t i)
{
	uint32_t v;

	switch (fi->bits) {
	case 12:
		v = le16(fat + i + i / 2);
		return i & 1 ? v >> 4 : v & 0xfff;
	case 16:
		return le16(fat + (size_t)i * 2);
	default:
		return le32(fat + (size_t)i * 4) & 0x0fffffff;
	}
}

static bool cluster_used(const struct clone_fatinfo *fi, const unsigned char *fat, uint32_t i)
{
	uint32_t v = fat_entry(fi, fat, i);
	uint32_t bad = fi->bits == 12 ? 0xff7 : fi->bits == 16 ? 0xfff7 : 0x0ffffff7;

	return v && v != bad;
}

bool clone_fat_next_run(const struct clone_fatinfo *fi, const unsigned char *fat,
			size_t fat_len, uint32_t *next, uint64_t *off, uint64_t *len)
{
	uint32_t end = fi->clusters + 2, i = *next < 2 ? 2 : *next, first;

	if (fat_len < fi->fat_bytes)
		return false;
	while (i < end && !cluster_used(fi, fat, i))
		i++;
	if (i >= end) {
		*next = end;
		return false;
	}
	first = i;
	while (i < end && cluster_used(fi, fat, i))
		i++;
	*next = i;
	*off = fi->data_off + (uint64_t)(first - 2) * fi->cluster_bytes;
	*len = (uint64_t)(i - first) * fi->cluster_bytes;
	return true;
}
