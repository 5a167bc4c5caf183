/* t-rewrite.c - clone's rewrites of root= (cmdline.txt, extlinux.conf) and fstab names:
 * every spelling of a source partition becomes the target's id, every other byte stays,
 * names of nothing stay. */
#include "clone/clone.h"
#include "t.h"

static struct clone_plan plan;

static void plan_init(bool disk)
{
	struct clone_part *p1 = &plan.parts[0], *p2 = &plan.parts[1];

	clone_plan_release(&plan);
	memset(&plan, 0, sizeof(plan));
	plan.n_parts = 2;
	plan.root = 1;
	plan.boot = 0;
	if (disk)
		strcpy(plan.src_disk, "mmcblk0");
	p1->partno = 1;
	strcpy(p1->fstype, "vfat");
	strcpy(p1->partuuid, "0badc0de-01");
	strcpy(p1->uuid, "ABCD-1234");
	strcpy(p1->label, "bootfs");
	strcpy(p1->t_partuuid, "5eed0001-01");
	strcpy(p1->t_uuid, "1111-2222");
	p2->partno = 2;
	strcpy(p2->fstype, "ext4");
	strcpy(p2->partuuid, "0badc0de-02");
	strcpy(p2->uuid, "22222222-3333-4444-8555-666666666666");
	strcpy(p2->label, "rootfs");
	strcpy(p2->t_partuuid, "5eed0001-02");
	strcpy(p2->t_uuid, "99999999-8888-4777-8666-555555555555");
	if (disk) {
		strcpy(p1->name, "mmcblk0p1");
		strcpy(p2->name, "mmcblk0p2");
	}
}

/* text rewritten as cmdline (or fstab) must be want (NULL: unchanged) */
static void expect(bool cmdline, const char *text, const char *want)
{
	char *out = NULL;
	size_t len = 0;
	int ret;

	ret = clone_rewrite_text(&plan, cmdline ? "cmdline.txt" : "/etc/fstab", cmdline, text,
				 strlen(text), &out, &len);
	T_EQ_INT(ret, 0);
	if (!want) {
		T_CHECK(out == NULL);
		if (out)
			fprintf(stderr, "  unexpected: %s\n", out);
	} else {
		T_EQ_STR(out, want);
		T_EQ_INT(len, strlen(want));
	}
	free(out);
}

/* extlinux.conf text rewritten must be want (NULL: unchanged) */
static void expect_ext(const char *text, const char *want)
{
	char *out = NULL;
	size_t len = 0;

	T_EQ_INT(clone_rewrite_text(&plan, "/boot/extlinux/extlinux.conf", CLONE_TEXT_EXTLINUX,
				    text, strlen(text), &out, &len), 0);
	if (!want) {
		T_CHECK(out == NULL);
	} else {
		T_EQ_STR(out, want);
		T_EQ_INT(len, strlen(want));
	}
	free(out);
}

int main(void)
{
	plan_init(true);
	/* cmdline.txt: root= in its forms; the quirks and every other byte stay */
	expect(true, "console=serial0,115200 root=PARTUUID=0badc0de-02 rootfstype=ext4 "
		     "usb-storage.quirks=152d:0578:u rootwait\n",
	       "console=serial0,115200 root=PARTUUID=5eed0001-02 rootfstype=ext4 "
	       "usb-storage.quirks=152d:0578:u rootwait\n");
	T_EQ_INT(plan.n_rewrites, 1);
	T_EQ_STR(plan.rewrites[0].before, "root=PARTUUID=0badc0de-02");
	T_EQ_STR(plan.rewrites[0].after, "root=PARTUUID=5eed0001-02");
	expect(true, "root=PARTUUID=0BADC0DE-02 quiet", "root=PARTUUID=5eed0001-02 quiet");
	expect(true, "root=/dev/mmcblk0p2 rw", "root=PARTUUID=5eed0001-02 rw");
	expect(true, "root=mmcblk0p2", "root=PARTUUID=5eed0001-02");
	expect(true, "root=UUID=22222222-3333-4444-8555-666666666666 ro",
	       "root=UUID=99999999-8888-4777-8666-555555555555 ro");
	expect(true, "root=LABEL=rootfs", "root=PARTUUID=5eed0001-02");
	/* the kernel takes the last root=: only that one is rewritten */
	expect(true, "root=/dev/sda2 root=PARTUUID=0badc0de-02\r\n",
	       "root=/dev/sda2 root=PARTUUID=5eed0001-02\r\n");
	/* a root= naming nothing of the source: left alone, with a warning */
	plan.n_warnings = 0;
	expect(true, "root=/dev/nfs nfsroot=10.0.0.1:/srv", NULL);
	T_EQ_INT(plan.n_warnings, 1);
	T_CHECK(strstr(plan.warnings[0], "root=/dev/nfs names no partition") != NULL);
	expect(true, "root=PARTUUID=0badc0de-02/PARTNROFF=1", NULL);
	expect(true, "quiet splash", NULL);
	/* already the target's: nothing to do */
	expect(true, "root=PARTUUID=5eed0001-02", NULL);

	/* fstab: every spelling of a source partition, comments and other entries kept */
	plan.n_rewrites = 0;
	expect(false,
	       "proc /proc proc defaults 0 0\n"
	       "PARTUUID=0badc0de-01  /boot/firmware  vfat  defaults  0  2\n"
	       "# PARTUUID=0badc0de-02 / ext4 in a comment stays\n"
	       "UUID=22222222-3333-4444-8555-666666666666\t/\text4\tnoatime\t0\t1\r\n"
	       "LABEL=rootfs /mnt/again ext4 defaults 0 0\n"
	       "/dev/mmcblk0p1 /boot vfat ro 0 0\n"
	       "/dev/disk/by-partuuid/0badc0de-02 /x ext4 defaults 0 0\n"
	       "/dev/disk/by-uuid/ABCD-1234 /y vfat defaults 0 0\n"
	       "UUID=ABCD-1234 /z vfat defaults 0 0\n"
	       "tmpfs /tmp tmpfs defaults 0 0\n"
	       "PARTUUID=deadbeef-01 /elsewhere ext4 defaults 0 0",
	       "proc /proc proc defaults 0 0\n"
	       "PARTUUID=5eed0001-01  /boot/firmware  vfat  defaults  0  2\n"
	       "# PARTUUID=0badc0de-02 / ext4 in a comment stays\n"
	       "UUID=99999999-8888-4777-8666-555555555555\t/\text4\tnoatime\t0\t1\r\n"
	       "UUID=99999999-8888-4777-8666-555555555555 /mnt/again ext4 defaults 0 0\n"
	       "PARTUUID=5eed0001-01 /boot vfat ro 0 0\n"
	       "/dev/disk/by-partuuid/5eed0001-02 /x ext4 defaults 0 0\n"
	       "/dev/disk/by-uuid/1111-2222 /y vfat defaults 0 0\n"
	       "UUID=1111-2222 /z vfat defaults 0 0\n"
	       "tmpfs /tmp tmpfs defaults 0 0\n"
	       "PARTUUID=deadbeef-01 /elsewhere ext4 defaults 0 0");
	T_EQ_INT(plan.n_rewrites, 7);
	T_EQ_INT(plan.rewrites[0].line, 2);
	T_EQ_STR(plan.rewrites[0].before,
		 "PARTUUID=0badc0de-01  /boot/firmware  vfat  defaults  0  2");
	expect(false, "# nothing\n\nproc /proc proc defaults 0 0\n", NULL);

	/* an image has no kernel names: the disk name its system gives its root (root=, else
	 * fstab's /) is its disk, and a device name on that disk the partition of its number */
	plan_init(false);
	expect(true, "root=/dev/nvme0n1p2 rootwait", "root=PARTUUID=5eed0001-02 rootwait");
	T_EQ_STR(plan.src_own_disk, "nvme0n1");
	expect(true, "root=/dev/sda2", NULL); /* another disk, once the root's is known */
	plan_init(false);
	expect(true, "root=/dev/sda2", "root=PARTUUID=5eed0001-02");
	plan_init(false);
	expect(true, "root=mmcblk1p2", "root=PARTUUID=5eed0001-02");
	plan_init(false);
	expect(true, "root=/dev/sda7", NULL);
	plan_init(false);
	expect(true, "root=/dev/nvme0n1", NULL);
	plan_init(false);
	expect(false, "/dev/mmcblk0p2 / ext4 defaults 0 1\n"
		      "/dev/mmcblk0p1 /boot/firmware vfat defaults 0 2\n"
		      "/dev/sda2 /mnt/usb ext4 defaults 0 2\n",
	       "PARTUUID=5eed0001-02 / ext4 defaults 0 1\n"
	       "PARTUUID=5eed0001-01 /boot/firmware vfat defaults 0 2\n"
	       "/dev/sda2 /mnt/usb ext4 defaults 0 2\n");
	/* the root by PARTUUID: /dev/sda2 is a USB disk of that system, not the image's p2 */
	plan_init(false);
	expect(true, "root=PARTUUID=0badc0de-02 rootwait", "root=PARTUUID=5eed0001-02 rootwait");
	expect(false, "PARTUUID=0badc0de-02 / ext4 defaults 0 1\n"
		      "/dev/sda2 /mnt/usb ext4 defaults 0 2\n",
	       "PARTUUID=5eed0001-02 / ext4 defaults 0 1\n"
	       "/dev/sda2 /mnt/usb ext4 defaults 0 2\n");
	/* a loop device over the same card: the same rule (loop7p2 is not its system's name) */
	plan_init(false);
	strcpy(plan.src_disk, "loop7");
	strcpy(plan.parts[0].name, "loop7p1");
	strcpy(plan.parts[1].name, "loop7p2");
	expect(true, "root=/dev/mmcblk0p2 rootwait", "root=PARTUUID=5eed0001-02 rootwait");
	expect(false, "/dev/mmcblk0p1 /boot vfat defaults 0 2\n/dev/loop7p2 /x ext4 defaults 0 0\n",
	       "PARTUUID=5eed0001-01 /boot vfat defaults 0 2\n"
	       "PARTUUID=5eed0001-02 /x ext4 defaults 0 0\n");

	/* cmdline.txt of two lines: the firmware reads the first; the second stays, with a
	 * warning */
	plan_init(true);
	expect(true, "root=PARTUUID=0badc0de-02 rootwait\nroot=/dev/mmcblk0p2 quiet\n",
	       "root=PARTUUID=5eed0001-02 rootwait\nroot=/dev/mmcblk0p2 quiet\n");
	T_EQ_INT(plan.n_rewrites, 1);
	T_EQ_INT(plan.rewrites[0].line, 1);
	T_EQ_INT(plan.n_warnings, 1);
	T_CHECK(strstr(plan.warnings[0], "more than one line") != NULL);
	plan_init(true);
	expect(true, "quiet splash\nroot=PARTUUID=0badc0de-02\n", NULL);
	T_EQ_INT(plan.n_warnings, 2);
	T_CHECK(strstr(plan.warnings[1], "has no root=") != NULL);
	plan_init(true);
	expect(true, "root=PARTUUID=0badc0de-02\n\n \n", "root=PARTUUID=5eed0001-02\n\n \n");
	T_EQ_INT(plan.n_warnings, 0);
	/* a disk's names are exact: another disk's partition 2 is not ours */
	plan_init(true);
	expect(true, "root=/dev/sda2", NULL);

	/* an NVMe source: nvme0n1p1 and nvme0n1p2 in root= and fstab */
	plan_init(true);
	strcpy(plan.src_disk, "nvme0n1");
	strcpy(plan.parts[0].name, "nvme0n1p1");
	strcpy(plan.parts[1].name, "nvme0n1p2");
	expect(true, "root=/dev/nvme0n1p2 rootwait", "root=PARTUUID=5eed0001-02 rootwait");
	expect(true, "root=nvme0n1p2", "root=PARTUUID=5eed0001-02");
	expect(true, "root=/dev/mmcblk0p2", NULL);
	expect(false, "/dev/nvme0n1p1 /boot/firmware vfat defaults 0 2\n"
		      "/dev/nvme0n1p2 / ext4 defaults 0 1\n",
	       "PARTUUID=5eed0001-01 /boot/firmware vfat defaults 0 2\n"
	       "PARTUUID=5eed0001-02 / ext4 defaults 0 1\n");
	/* a Jetson's fstab names the root as /dev/root: it follows root=, left alone */
	expect(false, "/dev/root / ext4 defaults 0 1\n", NULL);

	/* extlinux.conf: the root= of every APPEND line of every LABEL, every other byte kept */
	plan_init(true);
	expect_ext("TIMEOUT 30\nDEFAULT primary\n\nMENU TITLE L4T boot options\n\n"
		   "LABEL primary\n      MENU LABEL primary kernel\n      LINUX /boot/Image\n"
		   "      APPEND ${cbootargs} root=/dev/mmcblk0p2 rw rootwait rootfstype=ext4 "
		   "usb-storage.quirks=152d:0578:u console=ttyTCU0,115200\n\n"
		   "# APPEND root=/dev/mmcblk0p2 in a comment stays\n"
		   "label backup\n\tlinux /boot/Image.bak\n\tappend\troot=PARTUUID=0badc0de-02 "
		   "ro\r\n"
		   "LABEL nfs\n  APPEND root=/dev/nfs nfsroot=10.0.0.1:/srv ip=dhcp\n"
		   "LABEL recovery\n  APPEND console=ttyS0\n",
		   "TIMEOUT 30\nDEFAULT primary\n\nMENU TITLE L4T boot options\n\n"
		   "LABEL primary\n      MENU LABEL primary kernel\n      LINUX /boot/Image\n"
		   "      APPEND ${cbootargs} root=PARTUUID=5eed0001-02 rw rootwait rootfstype=ext4 "
		   "usb-storage.quirks=152d:0578:u console=ttyTCU0,115200\n\n"
		   "# APPEND root=/dev/mmcblk0p2 in a comment stays\n"
		   "label backup\n\tlinux /boot/Image.bak\n\tappend\troot=PARTUUID=5eed0001-02 "
		   "ro\r\n"
		   "LABEL nfs\n  APPEND root=/dev/nfs nfsroot=10.0.0.1:/srv ip=dhcp\n"
		   "LABEL recovery\n  APPEND console=ttyS0\n");
	T_EQ_INT(plan.n_rewrites, 2);
	T_EQ_STR(plan.rewrites[0].file, "/boot/extlinux/extlinux.conf");
	T_EQ_INT(plan.rewrites[0].line, 9);
	T_EQ_STR(plan.rewrites[0].before, "root=/dev/mmcblk0p2");
	T_EQ_STR(plan.rewrites[0].after, "root=PARTUUID=5eed0001-02");
	T_EQ_INT(plan.rewrites[1].line, 14);
	/* the nfs root is named, and left alone with a warning; no root= at all: no warning */
	T_EQ_INT(plan.n_warnings, 1);
	T_CHECK(strstr(plan.warnings[0], "root=/dev/nfs names no partition") != NULL);
	expect_ext("DEFAULT a\nLABEL a\nAPPEND quiet\n", NULL);
	T_EQ_INT(plan.n_warnings, 1);
	expect_ext("", NULL);
	clone_plan_release(&plan);
	return t_done();
}
