/* capacity-pattern.c - the sector pattern of the capacity check (`verify`): each 512-byte
 * sector names its offset and the run's seed, so a sector found elsewhere shows where the
 * device wrapped. */
#include <string.h>

#include "bench/capacity.h"
#include "common/util.h"

#define PATTERN_MAGIC 0x5942434453494d56ull /* "VMISDCBY" */
#define PATTERN_HEADER_WORDS 4

static inline uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void sector_fill(uint64_t *w, uint64_t offset, uint64_t seed)
{
	uint64_t s = seed ^ (offset * 0xd1342543de82ef95ull);
	unsigned i;

	w[0] = PATTERN_MAGIC;
	w[1] = seed;
	w[2] = offset;
	w[3] = ~offset ^ seed;
	for (i = PATTERN_HEADER_WORDS; i < CAPACITY_SECTOR / 8; i++)
		w[i] = splitmix64(&s);
}

void capacity_pattern_fill(void *buf, size_t len, uint64_t offset, uint64_t seed)
{
	uint64_t w[CAPACITY_SECTOR / 8];
	char *p = buf;
	size_t i;

	for (i = 0; i + CAPACITY_SECTOR <= len; i += CAPACITY_SECTOR) {
		sector_fill(w, offset + i, seed);
		memcpy(p + i, w, CAPACITY_SECTOR);
	}
}

enum capacity_state capacity_sector_check(const void *sec, uint64_t offset, uint64_t seed,
					  uint64_t *held)
{
	uint64_t want[CAPACITY_SECTOR / 8], hdr[PATTERN_HEADER_WORDS];

	sector_fill(want, offset, seed);
	if (!memcmp(sec, want, CAPACITY_SECTOR))
		return CAPACITY_OK;
	memcpy(hdr, sec, sizeof(hdr));
	if (hdr[0] != PATTERN_MAGIC || hdr[1] != seed || hdr[3] != (~hdr[2] ^ seed))
		return CAPACITY_CORRUPTED;
	if (hdr[2] == offset)
		return CAPACITY_CHANGED;
	if (hdr[2] % CAPACITY_SECTOR)
		return CAPACITY_CORRUPTED;
	sector_fill(want, hdr[2], seed);
	if (memcmp(sec, want, CAPACITY_SECTOR))
		return CAPACITY_CORRUPTED;
	*held = hdr[2];
	return CAPACITY_OVERWRITTEN;
}
