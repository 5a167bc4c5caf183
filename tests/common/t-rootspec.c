/* t-rootspec.c - root= and fstab names: every spelling, and the partition each names. */
#include <errno.h>

#include "common/rootspec.h"
#include "t.h"

static void test_parse(void)
{
	struct rootspec rs;

	T_EQ_INT(rootspec_parse("PARTUUID=d2a8e92e-02", 20, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_PARTUUID);
	T_EQ_STR(rs.value, "d2a8e92e-02");
	T_CHECK(!rs.has_partnroff);

	T_EQ_INT(rootspec_parse("PARTUUID=0a1b2c3d-01/PARTNROFF=1", 32, &rs), 0);
	T_CHECK(rs.has_partnroff);
	T_EQ_INT(rs.partnroff, 1);
	T_EQ_STR(rs.value, "0a1b2c3d-01");
	T_EQ_INT(rootspec_parse("PARTUUID=0a1b2c3d-01/PARTNROFF=", 31, &rs), -EINVAL);
	T_EQ_INT(rootspec_parse("PARTUUID=0a1b2c3d-01/FOO=1", 26, &rs), -EINVAL);
	T_EQ_INT(rootspec_parse("PARTUUID=", 9, &rs), -EINVAL);
	T_EQ_INT(rootspec_parse("", 0, &rs), -EINVAL);

	T_EQ_INT(rootspec_parse("UUID=\"3f1e-0c2a\"", 16, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_UUID);
	T_EQ_STR(rs.value, "3f1e-0c2a");
	T_EQ_INT(rootspec_parse("LABEL=rootfs", 12, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_LABEL);
	T_EQ_INT(rootspec_parse("PARTLABEL=root", 14, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_PARTLABEL);
	T_EQ_INT(rootspec_parse("/dev/disk/by-partuuid/6c586e13-02", 33, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_PARTUUID);
	T_EQ_STR(rs.value, "6c586e13-02");
	T_EQ_INT(rootspec_parse("/dev/disk/by-uuid/abcd", 22, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_UUID);

	T_EQ_INT(rootspec_parse("/dev/mmcblk0p2", 14, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_DEVNAME);
	T_EQ_STR(rs.value, "mmcblk0p2");
	T_EQ_INT(rootspec_parse("/dev/nvme0n1p2", 14, &rs), 0);
	T_EQ_STR(rs.value, "nvme0n1p2");
	T_EQ_INT(rootspec_parse("179:2", 5, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_DEVNUM);
	T_EQ_INT(rs.major, 179);
	T_EQ_INT(rs.minor, 2);
	T_EQ_INT(rootspec_parse("b302", 4, &rs), 0); /* the kernel's hex form of 179:2 */
	T_EQ_INT(rs.kind, ROOTSPEC_DEVNUM);
	T_EQ_INT(rs.major, 179);
	T_EQ_INT(rs.minor, 2);
	/* a bare name is no device name to the kernel (early_lookup_bdev()) */
	T_EQ_INT(rootspec_parse("mmcblk0p2", 9, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_OTHER);
	T_EQ_INT(rootspec_parse("/dev/nfs/x", 10, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_OTHER);
	T_EQ_INT(rootspec_parse("tmpfs", 5, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_OTHER);
	/* a Jetson's fstab mounts "/dev/root": whatever root= names, no device of its own */
	T_EQ_INT(rootspec_parse("/dev/root", 9, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_OTHER);
	T_EQ_INT(rootspec_parse("/dev/rootfs", 11, &rs), 0);
	T_EQ_INT(rs.kind, ROOTSPEC_DEVNAME);
	T_EQ_STR(rootspec_kind_name(ROOTSPEC_PARTUUID), "PARTUUID");
}

static void test_match(void)
{
	struct rootspec_part p = { .name = "sda2", .partuuid = "6c586e13-02",
				   .uuid = "93a3ff4b-5b5a-4d1e-8f6e-0f0a3c1b2d4e", .label = "rootfs",
				   .major = 8, .minor = 2 };
	struct rootspec rs;

	rootspec_parse("PARTUUID=6C586E13-02", 20, &rs);
	T_CHECK(rootspec_matches(&rs, &p));
	rootspec_parse("PARTUUID=6c586e13-01", 20, &rs);
	T_CHECK(!rootspec_matches(&rs, &p));
	rootspec_parse("PARTUUID=6c586e13-02/PARTNROFF=0", 32, &rs);
	T_CHECK(!rootspec_matches(&rs, &p));
	rootspec_parse("UUID=93A3FF4B-5B5A-4D1E-8F6E-0F0A3C1B2D4E", 41, &rs);
	T_CHECK(rootspec_matches(&rs, &p));
	rootspec_parse("LABEL=ROOTFS", 12, &rs);
	T_CHECK(!rootspec_matches(&rs, &p)); /* labels are exact */
	rootspec_parse("LABEL=rootfs", 12, &rs);
	T_CHECK(rootspec_matches(&rs, &p));
	rootspec_parse("/dev/sda2", 9, &rs);
	T_CHECK(rootspec_matches(&rs, &p));
	rootspec_parse("8:2", 3, &rs);
	T_CHECK(rootspec_matches(&rs, &p));
	rootspec_parse("PARTLABEL=x", 11, &rs);
	T_CHECK(!rootspec_matches(&rs, &p)); /* unknown field never matches */
}

static void test_cmdline(void)
{
	const char *c = "console=serial0,115200 root=/dev/mmcblk0p2 rootfstype=ext4 "
			"root=\"PARTUUID=d2a8e92e-02\" rootwait\n";
	size_t off, len;

	T_EQ_INT(rootspec_cmdline_root(c, strlen(c), &off, &len), 0);
	T_CHECK(len == 20 && memcmp(c + off, "PARTUUID=d2a8e92e-02", len) == 0);
	c = "console=tty1 rootwait";
	T_EQ_INT(rootspec_cmdline_root(c, strlen(c), &off, &len), -ENOENT);
	c = "rootfstype=ext4 noroot=1 root=";
	T_EQ_INT(rootspec_cmdline_root(c, strlen(c), &off, &len), 0);
	T_EQ_INT(len, 0);
	/* the firmware passes the first line only: a root= on line 2 is not the kernel's */
	c = "root=/dev/mmcblk0p2 rootwait\nroot=/dev/sda2\n";
	T_EQ_INT(rootspec_cmdline_root(c, strlen(c), &off, &len), 0);
	T_CHECK(len == 14 && memcmp(c + off, "/dev/mmcblk0p2", len) == 0);
	c = "console=tty1\nroot=/dev/sda2\n";
	T_EQ_INT(rootspec_cmdline_root(c, strlen(c), &off, &len), -ENOENT);
	/* after "--" the words are init's */
	c = "root=/dev/sda2 -- root=/dev/sdb2";
	T_EQ_INT(rootspec_cmdline_root(c, strlen(c), &off, &len), 0);
	T_CHECK(len == 9 && memcmp(c + off, "/dev/sda2", len) == 0);
}

static void test_fstab(void)
{
	const char *f = "# comment\n"
			"proc            /proc           proc    defaults          0       0\n"
			"\n"
			"PARTUUID=d2a8e92e-01  /boot/firmware  vfat    defaults  0  2\n"
			"  LABEL=my\\040disk /mnt/my\\040disk ext4 noatime 0 2\r\n"
			"broken\n"
			"/dev/nvme0n1p2 /";
	struct fstab_entry e;
	size_t pos = 0;

	T_EQ_INT(rootspec_fstab_next(f, strlen(f), &pos, &e), 0);
	T_EQ_STR(e.spec, "proc");
	T_EQ_STR(e.dir, "/proc");
	T_EQ_INT(rootspec_fstab_next(f, strlen(f), &pos, &e), 0);
	T_EQ_STR(e.spec, "PARTUUID=d2a8e92e-01");
	T_CHECK(memcmp(f + e.spec_off, "PARTUUID=d2a8e92e-01", e.spec_len) == 0);
	T_EQ_STR(e.type, "vfat");
	T_EQ_INT(e.passno, 2);
	T_EQ_INT(rootspec_fstab_next(f, strlen(f), &pos, &e), 0);
	T_EQ_STR(e.spec, "LABEL=my disk");
	T_EQ_STR(e.dir, "/mnt/my disk");
	T_EQ_INT(e.spec_len, 16);
	T_EQ_INT(rootspec_fstab_next(f, strlen(f), &pos, &e), -EINVAL);
	T_EQ_INT(rootspec_fstab_next(f, strlen(f), &pos, &e), 0);
	T_EQ_STR(e.spec, "/dev/nvme0n1p2");
	T_EQ_STR(e.dir, "/");
	T_EQ_STR(e.type, "");
	T_EQ_INT(rootspec_fstab_next(f, strlen(f), &pos, &e), -ENOENT);
}

int main(void)
{
	test_parse();
	test_match();
	test_cmdline();
	test_fstab();
	return t_done();
}
