/* t-pattern.c - verify's sector pattern: what each kind of damage reads back as. */
#include <string.h>

#include "bench/verify.h"
#include "t.h"

#define SEED 0x0123456789abcdefull

int main(void)
{
	static char buf[4 * VERIFY_SECTOR], other[VERIFY_SECTOR];
	uint64_t held = 77;

	verify_pattern_fill(buf, sizeof(buf), 8192, SEED);
	T_EQ_INT(verify_sector_check(buf, 8192, SEED, &held), VERIFY_OK);
	T_EQ_INT(verify_sector_check(buf + 3 * VERIFY_SECTOR, 8192 + 3 * VERIFY_SECTOR, SEED,
				     &held), VERIFY_OK);
	/* sectors differ from each other: no two offsets share a pattern */
	T_CHECK(memcmp(buf, buf + VERIFY_SECTOR, VERIFY_SECTOR) != 0);
	/* a wrap: the sector written for 8192 read at 8192 + 1 GiB */
	T_EQ_INT(verify_sector_check(buf, 8192 + (1ull << 30), SEED, &held), VERIFY_OVERWRITTEN);
	T_EQ_INT(held, 8192);
	/* the same sector under another seed (an earlier run): not ours */
	T_EQ_INT(verify_sector_check(buf, 8192, SEED + 1, &held), VERIFY_CORRUPTED);
	/* zeros */
	memset(other, 0, sizeof(other));
	T_EQ_INT(verify_sector_check(other, 0, SEED, &held), VERIFY_CORRUPTED);
	/* one bit flipped in the body: our header, the body changed */
	memcpy(other, buf, sizeof(other));
	other[300] ^= 4;
	T_EQ_INT(verify_sector_check(other, 8192, SEED, &held), VERIFY_CHANGED);
	/* a flipped bit read at another offset: damaged, not a clean wrap */
	T_EQ_INT(verify_sector_check(other, 4096, SEED, &held), VERIFY_CORRUPTED);
	/* a flipped bit in the header's offset */
	memcpy(other, buf, sizeof(other));
	other[16] ^= 1;
	T_EQ_INT(verify_sector_check(other, 8192, SEED, &held), VERIFY_CORRUPTED);
	return t_done();
}
