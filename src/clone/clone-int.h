/* clone-int.h - what the files of clone/ share: running the file system tools, loop devices
 * over a partition's bytes, ext2/3/4 through libext2fs, files on FAT through mtools. */
#ifndef SBCDISK_CLONE_INT_H
#define SBCDISK_CLONE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>

#include "clone/clone.h"
#include "common/sbuf.h"

/* Size of a block device (BLKGETSIZE64) or a regular file. 0 or -1 with errno. */
int clone_fd_size(int fd, struct stat *st, uint64_t *size);

/* Run argv (PATH searched) with stdin from /dev/null; its stdout (and its stderr too when
 * with_stderr, else that goes to /dev/null) into out when not NULL, up to out's cap. Its
 * exit status in *status (-1 when killed). 0; -ENOENT when the program is missing; -errno. */
int clone_run(const char *const argv[], struct sbuf *out, bool with_stderr, int *status);
/* clone_run() with what that child alone gets (common/spawn.h). */
struct spawn_extra;
int clone_run_ex(const char *const argv[], const struct spawn_extra *x, struct sbuf *out,
		 bool with_stderr, int *status);
/* Every program the plan's partitions need is on PATH: 0; else -ENOENT, why naming the
 * program and its package. */
int clone_tools_check(const struct clone_plan *p, char *why, size_t whycap);
/* The last non-empty line of a tool's output, for a one-line message. */
void clone_run_last_line(const struct sbuf *out, char *buf, size_t cap);
/* clone_run() of a file system tool whose exit status up to ok_max is success: 0; -ENOENT
 * missing, -EIO failed (why: what, its status and its last line), -errno not run. */
int clone_run_tool(const char *what, const char *const argv[], int ok_max, char *why,
		   size_t whycap);

/* A loop device over [off, off + size) of path: its node in name ("/dev/loop7") and an open
 * descriptor in *fd. It goes away when *fd is closed (and nothing else holds it). */
struct clone_loop {
	int fd;
	char name[64];
};
int clone_loop_attach(const char *path, uint64_t off, uint64_t size, bool readonly,
		      struct clone_loop *lo);
void clone_loop_detach(struct clone_loop *lo);
/* Can a loop device be had (/dev/loop-control there and answering)? 0 or -errno. */
int clone_loop_usable(void);

/* Partition cp of the target (or the source) as a device: its kernel partition device when
 * there is one (t_dev, s_dev; fd -1, nothing to detach), else a loop device over its bytes. */
int clone_part_attach(const struct clone_plan *p, const struct clone_part *cp, bool target,
		      bool readonly, struct clone_loop *lo);
/* The target disk's partitions as the kernel's devices before its table is written (BLKPG,
 * the old ones taken away first): each t_dev set, p->t_kparts. -EOPNOTSUPP for an image,
 * -EINVAL for a disk that has no partitions (then loop devices serve), or -errno. */
int clone_kparts_add(struct clone_plan *p, int dfd);
/* Once the table is written: the kernel re-reads it (BLKRRPART) or is given its partitions
 * (BLKPG), and each node is there; 0, or -errno with why. --whole: BLKRRPART only. */
int clone_kparts_reread(struct clone_plan *p, int dfd, char *why, size_t whycap);
/* 100 ms asleep: between the tries of a wait for the kernel (kparts.c). */
void clone_nap(void);
/* A stopped clone: the partitions given to the kernel taken away again. */
void clone_kparts_drop(struct clone_plan *p, int dfd);

/* A private mount of dev, reached at the path dir ("/proc/self/fd/7"): a detached mount
 * (fsopen, fsmount) in no mount table, which goes with its descriptor, when this process
 * ends however it ends (SIGKILL too), and with it an autoclear loop device under it; on a
 * kernel before 5.2 a mount on a fresh directory. A readonly mount takes its file system's
 * ro_flag too (fs.h; ext: noload, no journal replayed). clone_umount() takes it away. */
int clone_mount(const char *dev, const char *fstype, bool readonly, char *dir, size_t cap);
void clone_umount(char *dir);
/* The same on a fresh directory with mount(2) (the fallback), and its unmount. */
int clone_mount_dir(const char *dev, const char *fstype, bool readonly, char *dir, size_t cap);
void clone_umount_dir(char *dir);

/* ext2/3/4 at off of path: the block size, the used blocks' bytes, its UUID and label; what
 * mke2fs needs to make another like it: its features as mke2fs -O takes them ("none,
 * has_journal,ext_attr,...", without those tied to this instance: needs_recovery, journal_dev,
 * mmp, orphan_present), its inode size and (bigalloc) cluster size. */
struct clone_extinfo {
	uint64_t used, blocks, block_size;
	char uuid[40], label[64];
	char features[512];
	unsigned inode_size, cluster_size;
	uint64_t inodes, inodes_used;
	bool needs_recovery;   /* a journal to replay: the bitmaps may be older than it */
	bool has_errors;       /* the kernel or e2fsck recorded errors (s_state, s_error_count) */
	unsigned error_count;
};
int clone_ext_info(const char *path, uint64_t off, struct clone_extinfo *ei);
/* A file of the ext file system at off (path inside it, e.g. "/etc/fstab"), at most cap
 * bytes, into out. -ENOENT when it is not there. */
int clone_ext_read_file(const char *dev, uint64_t off, const char *file, size_t cap,
			struct sbuf *out);
/* path with every symbolic link in it resolved inside the ext file system at off of dev, as
 * the kernel would with that file system as the root ("/etc/fstab" -> "/etc/fstab.d/main"):
 * the file's own path into out. -ENOENT (also a link that leaves the file system), -ELOOP,
 * -ENOTDIR, -ENAMETOOLONG. */
int clone_ext_resolve(const char *dev, uint64_t off, const char *path, char *out, size_t cap);
/* Copy the used blocks of the ext file system at [soff) of sfd to [doff) of dfd. */
struct clone_copier {
	int sfd, dfd;
	const char *src_path;
	struct clone_plan *p;
	struct clone_part *part;
	uint64_t done_before, total; /* for the progress line across partitions */
	uint64_t t0_ns;
	struct clone_pipe *pipe; /* the reader's buffers and the writer thread, from the first
				  * clone_copy_range on; clone_copier_end ends them */
};
int clone_ext_copy_used(struct clone_copier *c, char *why, size_t whycap);
/* Copy len bytes from soff of sfd to doff of dfd: read here, written by a writer thread
 * (so the bytes may not all be written on return). An error of the writer's is returned by
 * a later call or by clone_copier_end, which waits for the last write and frees the
 * buffers (0, or -errno with why). */
int clone_copy_range(struct clone_copier *c, uint64_t soff, uint64_t doff, uint64_t len,
		     char *why, size_t whycap);
int clone_copier_end(struct clone_copier *c, char *why, size_t whycap);

/* A file on the FAT file system at off of image (a device or an image file), through mtools:
 * read (at most cap bytes) and replace. */
int clone_fat_read(const char *image, uint64_t off, const char *file, size_t cap,
		   struct sbuf *out);
int clone_fat_write(const char *image, uint64_t off, const char *file, const char *data,
		    size_t len);
/* Every file of the FAT file system at off of image copied into the directory to ("DIR/"). */
int clone_fat_copy_out(const char *image, uint64_t off, const char *to);
/* Every file and directory in the directory from copied into the root of the FAT file
 * system at off of image, with their times and attributes (mcopy -s -p -m). */
int clone_fat_copy_in(const char *image, uint64_t off, const char *from);
/* Every path of the FAT file system at off of image, one "::/path" a line (mdir -/ -b). */
int clone_fat_list(const char *image, uint64_t off, struct sbuf *out);
/* Remove a file of the FAT file system at off of image (mdel). 0, -ENOENT, -errno. */
int clone_fat_remove(const char *image, uint64_t off, const char *file);
/* The file system type, UUID and label of partition cp of the open disk or image fd
 * (libblkid at cp->start). Unknown ones stay empty. */
void clone_part_probe(int fd, struct clone_part *cp);
/* The volume id of the FAT file system at off of fd (FAT12/16 and FAT32). */
int clone_fat_set_id(int fd, uint64_t off, uint32_t id);

/* Where a FAT12/16/32 file system keeps what it uses: the reserved sectors, the FATs and
 * (FAT12/16) the root directory are the first data_off bytes, then the clusters. */
#define CLONE_FAT_CLUSTER_MAX (64U * 1024)
#define CLONE_FAT_READ_MAX    (64U << 20) /* a larger FAT: the partition is copied whole */
struct clone_fatinfo {
	unsigned bits, bps;
	uint64_t cluster_bytes, fat_off, fat_bytes, data_off;
	uint32_t clusters; /* data clusters the FAT has entries for, numbered from 2 */
};
/* The layout from the boot sector bs (len bytes, at least 512) of a partition of part_size
 * bytes; every region inside it. 0, or -EINVAL when it is not a FAT this reads. */
int clone_fat_layout(const unsigned char *bs, size_t len, uint64_t part_size,
		     struct clone_fatinfo *fi);
/* The next run of used clusters (in use or end of a chain; not free, not bad) from cluster
 * *next on, in fat (the first FAT, fat_len bytes): its byte offset and length in the
 * partition, *next past it. false when there is none left. */
bool clone_fat_next_run(const struct clone_fatinfo *fi, const unsigned char *fat,
			size_t fat_len, uint32_t *next, uint64_t *off, uint64_t *len);
/* The bytes the FAT file system at off of path (a partition of size bytes) uses: its
 * metadata and its used clusters. 0; -EINVAL not a FAT read here; -EFBIG its FAT too large. */
int clone_fat_used(const char *path, uint64_t off, uint64_t size, uint64_t *used);
/* Copy what the FAT file system of c->part uses (clone_fat_used's bytes), nothing else. */
int clone_fat_copy_used(struct clone_copier *c, char *why, size_t whycap);

/* Random bytes from getrandom(). */
void clone_random(void *buf, size_t len);
/* p's progress callback, if any, with done of total bytes copied since t0_ns (time_now_ns):
 * the rate and the time left once 0.2 s have passed. */
void clone_progress_emit(struct clone_plan *p, const char *phase, uint64_t done, uint64_t total,
			 uint64_t t0_ns);
/* A new random UUID (version 4) as text. */
void clone_uuid_new(char *out, size_t cap);

/* The files of the mounted file system src copied into the (fresh, mounted) dst: every kind
 * of object, owners, modes, times, xattrs (ACLs and capabilities too), hard links, holes; one
 * file system only. Pass 0 copies everything; pass 1 only what changed since since_ns (a
 * source ctime at or after it, or a size or mtime that differs) and removes what went away.
 * progress (may be NULL) is called from the calling thread with the bytes copied so far.
 * 0; -EINTR when *stop was set; -errno with why. */
struct clone_tree {
	const char *src, *dst;
	int pass;
	int64_t since_ns;
	volatile sig_atomic_t *stop;
	void (*progress)(void *arg, uint64_t bytes);
	void *progress_arg;
	uint64_t bytes; /* out: content bytes copied */
};
int clone_tree_copy(struct clone_tree *t, char *why, size_t whycap);
/* name under dirfd removed, a directory with everything in it (one file system). 0; -errno. */
int clone_remove_tree(int dirfd, const char *name);

/* e2fsck -fn or fsck.vfat -n of source partition cp (read-only), for a copy whose check
 * failed: whose the errors are, in res. 0 clean, 1 errors, -errno when it could not be
 * checked (-EBUSY mounted read-write). */
int clone_fsck_source(struct clone_plan *p, const struct clone_part *cp, char *res,
		      size_t cap);

/* The trees under the directories sroot (the source) and droot (the target) of partition
 * part (an index in p) compared: each difference, a name on one side only too, in p->diffs
 * (counted in p->n_diffs), the entries compared in p->n_compared. */
void clone_compare_dirs(struct clone_plan *p, int part, int sroot, int droot, bool full);
/* The tree of partition cp compared with its source's, and a check that says how: both
 * mounted read-only (the kernel's driver for cp->fstype), or both copied out through
 * mtools (FAT: the kernel may have no vfat). */
void clone_compare_mounted(struct clone_plan *p, struct clone_part *cp, bool full);
void clone_compare_fat(struct clone_plan *p, struct clone_part *cp, bool full);

/* The directory path is in ("." for a bare name) into dir. 0 or -ENAMETOOLONG. */
int clone_path_dir(const char *path, char *dir, size_t cap);
/* An image target (p->dst_is_file): is there room for it (-ENOSPC with why); held, made
 * first when it is not there, open and locked (flock) in p->dst_fd (-EBUSY with why when
 * another clone holds it); removed when clone_image_hold made it and the name is still
 * that file (true when removed); closed, the lock with it. */
/* The target to open for reading or writing: the held image (its name may have been made to
 * point elsewhere since), else the device's path. */
static inline const char *clone_dst(const struct clone_plan *p)
{
	return p->dst_io[0] ? p->dst_io : p->dst_path;
}
int clone_image_check_space(struct clone_plan *p, const char *shown, char *why, size_t whycap);
int clone_image_hold(struct clone_plan *p, const char *shown, char *why, size_t whycap);
bool clone_image_remove(struct clone_plan *p);
void clone_image_release(struct clone_plan *p);

/* The copy checked against its source (compare.c): each file system checked, the trees
 * compared, boot/'s check of the target. */
int clone_compare(struct clone_plan *p, const struct clone_opts *o, char *why, size_t whycap);

#endif
