/* t-pattern.c - the capacity check's sector pattern: what each kind of damage reads back as. */
#include <string.h>

#include "bench/capacity.h"
#include "t.h"

#define SEED 0x0123456789abcdefull

int main(void)
{
	static char buf[4 * CAPACITY_SECTOR], other[CAPACITY_SECTOR];
	uint64_t held = 77;

	capacity_pattern_fill(buf, sizeof(buf), 8192, SEED);
	T_EQ_INT(capacity_sector_check(buf, 8192, SEED, &held), CAPACITY_OK);
	T_EQ_INT(capacity_sector_check(buf + 3 * CAPACITY_SECTOR, 8192 + 3 * CAPACITY_SECTOR,
				       SEED, &held), CAPACITY_OK);
	/* sectors differ from each other: no two offsets share a pattern */
	T_CHECK(memcmp(buf, buf + CAPACITY_SECTOR, CAPACITY_SECTOR) != 0);
	/* a wrap: the sector written for 8192 read at 8192 + 1 GiB */
	T_EQ_INT(capacity_sector_check(buf, 8192 + (1ull << 30), SEED, &held),
		 CAPACITY_OVERWRITTEN);
	T_EQ_INT(held, 8192);
	/* the same sector under another seed (an earlier run): not ours */
	T_EQ_INT(capacity_sector_check(buf, 8192, SEED + 1, &held), CAPACITY_CORRUPTED);
	/* zeros */
	memset(other, 0, sizeof(other));
	T_EQ_INT(capacity_sector_check(other, 0, SEED, &held), CAPACITY_CORRUPTED);
	/* one bit flipped in the body: our header, the body changed */
	memcpy(other, buf, sizeof(other));
	other[300] ^= 4;
	T_EQ_INT(capacity_sector_check(other, 8192, SEED, &held), CAPACITY_CHANGED);
	/* a flipped bit read at another offset: damaged, not a clean wrap */
	T_EQ_INT(capacity_sector_check(other, 4096, SEED, &held), CAPACITY_CORRUPTED);
	/* a flipped bit in the header's offset */
	memcpy(other, buf, sizeof(other));
	other[16] ^= 1;
	T_EQ_INT(capacity_sector_check(other, 8192, SEED, &held), CAPACITY_CORRUPTED);
	return t_done();
}
