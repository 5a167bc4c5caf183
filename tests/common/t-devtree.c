/* t-devtree.c - the device-tree readers on property files encoded as the kernel exports them
 * (/proc/device-tree): NUL-terminated string lists and big-endian 32-bit cells. */
#include "common/sysroot.h"
#include "common/util.h"
#include "t.h"
#include "t-tree.h"

int main(void)
{
	struct sysroot *sr = NULL;
	uint32_t cells[4];
	uint64_t u64;
	uint32_t u32;
	size_t n;
	char s[32];

	t_tree_new("t-devtree");
	/* a Raspberry Pi 4's model and compatible (strings lists as dtc writes them) */
	t_tree_put_n("dt/model", "Raspberry Pi 4 Model B Rev 1.4\0", 31);
	t_tree_put_n("dt/compatible", "raspberrypi,4-model-b\0brcm,bcm2711\0", 35);
	t_tree_put_n("dt/noterm", "abc", 3);
	t_tree_put_n("dt/empty", "", 0);
	t_tree_put_n("dt/emptystr", "\0", 1);
	/* #address-cells = <2>, a reg = <0x0 0xfe340000 0x0 0x100>, a 64-bit value */
	t_tree_put_n("dt/address-cells", "\x00\x00\x00\x02", 4);
	t_tree_put_n("dt/reg", "\x00\x00\x00\x00\xfe\x34\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00",
		     16);
	t_tree_put_n("dt/u64", "\x00\x00\x00\x01\x80\x00\x00\x00", 8);
	t_tree_put_n("dt/short", "\x00\x01\x02", 3);
	t_tree_mkdirs("dt/dir");
	T_EQ_INT(sysroot_open(t_root, &sr), 0);
	if (!sr)
		return t_done();

	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/model", s, sizeof(s)), 0);
	T_EQ_STR(s, "Raspberry Pi 4 Model B Rev 1.4");
	/* a list gives its first string, never the strings run together */
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/compatible", s, sizeof(s)), 0);
	T_EQ_STR(s, "raspberrypi,4-model-b");
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/noterm", s, sizeof(s)), 0);
	T_EQ_STR(s, "abc");
	/* does not fit: an error and an empty string, never a cut-off value */
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/model", s, 30), -E2BIG);
	T_EQ_STR(s, "");
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/model", s, 31), 0);
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/empty", s, sizeof(s)), -ENODATA);
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/emptystr", s, sizeof(s)), -ENODATA);
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/missing", s, sizeof(s)), -ENOENT);
	T_EQ_INT(sysroot_read_dt_string(sr, "/dt/dir", s, sizeof(s)), -EISDIR);

	T_EQ_INT(sysroot_read_dt_u32(sr, "/dt/address-cells", &u32), 0);
	T_EQ_INT(u32, 2);
	T_EQ_INT(sysroot_read_dt_cells(sr, "/dt/reg", cells, 4, &n), 0);
	T_EQ_INT(n, 4);
	T_EQ_INT(cells[0], 0);
	T_EQ_INT(cells[1], 0xfe340000u);
	T_EQ_INT(cells[3], 0x100);
	T_EQ_INT(sysroot_read_dt_cells(sr, "/dt/reg", cells, 3, &n), -E2BIG);
	T_EQ_INT(n, 0);
	T_EQ_INT(sysroot_read_dt_u64(sr, "/dt/u64", &u64), 0);
	T_EQ_INT(u64, 0x180000000ull);
	/* lengths are checked: 3 bytes are no cell, 16 bytes no single value */
	T_EQ_INT(sysroot_read_dt_u32(sr, "/dt/short", &u32), -EINVAL);
	T_EQ_INT(sysroot_read_dt_cells(sr, "/dt/short", cells, 4, &n), -EINVAL);
	T_EQ_INT(sysroot_read_dt_u32(sr, "/dt/reg", &u32), -EINVAL);
	T_EQ_INT(sysroot_read_dt_u64(sr, "/dt/address-cells", &u64), -EINVAL);
	T_EQ_INT(sysroot_read_dt_u32(sr, "/dt/empty", &u32), -EINVAL);

	sysroot_free(sr);
	t_tree_remove();
	return t_done();
}
