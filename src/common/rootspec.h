/* rootspec.h - how boot files name a file system, and which partition that is: the
 * kernel's root= (init/do_mounts.c: PARTUUID=[/PARTNROFF=], PARTLABEL=, /dev/NAME, NAME,
 * MAJ:MIN, a hex device number) and the first field of /etc/fstab (util-linux's tags
 * UUID=, LABEL=, PARTUUID=, PARTLABEL=, a device path, /dev/disk/by-{uuid,label,partuuid,
 * partlabel}/ID). clone rewrites these names; boot and doctor resolve them. */
#ifndef SBCDISK_COMMON_ROOTSPEC_H
#define SBCDISK_COMMON_ROOTSPEC_H

#include <stdbool.h>
#include <stddef.h>

enum rootspec_kind {
	ROOTSPEC_PARTUUID,  /* PARTUUID=, /dev/disk/by-partuuid/ */
	ROOTSPEC_UUID,	    /* UUID= (fstab and an initramfs; not the kernel's own root=) */
	ROOTSPEC_LABEL,	    /* LABEL= */
	ROOTSPEC_PARTLABEL, /* PARTLABEL= */
	ROOTSPEC_DEVNAME,   /* /dev/mmcblk0p2, mmcblk0p2, nvme0n1p2 */
	ROOTSPEC_DEVNUM,    /* 179:2, or the kernel's hex form b302 */
	ROOTSPEC_OTHER,	    /* understood as none of these: /dev/nfs, none, tmpfs, proc ... */
};

struct rootspec {
	enum rootspec_kind kind;
	char value[128];    /* the id as written (tags' quotes gone), the name without /dev/ */
	bool has_partnroff; /* PARTUUID=X/PARTNROFF=N: the partition N after X's */
	int partnroff;
	unsigned major, minor; /* ROOTSPEC_DEVNUM */
};

/* One partition as the resolver sees it: any field may be NULL or "" when unknown. */
struct rootspec_part {
	const char *name; /* kernel name: sda2, nvme0n1p2, mmcblk0p2, loop0 */
	const char *partuuid, *uuid, *label, *partlabel;
	unsigned major, minor; /* 0:0 when unknown */
};

/* Parse s[0..len): 0; -EINVAL when empty; -ENAMETOOLONG when the value does not fit. A
 * spec that is none of the known forms is ROOTSPEC_OTHER with its text in value. */
int rootspec_parse(const char *s, size_t len, struct rootspec *rs);

/* The spec's kind as written in a boot file: "PARTUUID", "UUID", "LABEL", "PARTLABEL",
 * "device", "device number", "other". */
const char *rootspec_kind_name(enum rootspec_kind kind);

/* Does the spec name this partition? UUIDs and PARTUUIDs compare without regard to case
 * (the kernel's devt_from_partuuid() uses strncasecmp; blkid gives lower case); labels
 * exactly. A PARTNROFF spec never matches here: its partition depends on its neighbours
 * (the caller resolves X first and adds the offset). */
bool rootspec_matches(const struct rootspec *rs, const struct rootspec_part *p);

/* The root= that the kernel takes from a command line (the last one: root_dev_setup()
 * copies each over the one before; only the first line, before any "--"): its value
 * [*voff, *voff + *vlen) in text, without the quotes of root="...". 0; -ENOENT when there
 * is none. */
int rootspec_cmdline_root(const char *text, size_t len, size_t *voff, size_t *vlen);

/* One entry of an fstab text, as util-linux's parser reads it. */
struct fstab_entry {
	size_t line_off, line_len; /* the whole line, without its newline */
	size_t spec_off, spec_len; /* the first field, as written (for rewriting in place) */
	char spec[256];		   /* the first field, octal escapes (\040) undone */
	char dir[256];		   /* the mount point, unescaped */
	char type[32];
	char opts[256];
	int passno; /* the sixth field, 0 when absent */
};

/*
 * The next entry of an fstab at or after *pos; comments and blank lines are skipped and
 * *pos moves past the entry's line. 0; -ENOENT at the end; -EINVAL for a line with fewer
 * than two fields (*pos still moves past it, so a caller can report it and go on).
 */
int rootspec_fstab_next(const char *text, size_t len, size_t *pos, struct fstab_entry *e);

#endif
