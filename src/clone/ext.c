// SPDX-License-Identifier: GPL-2.0-or-later
/* ext.c - ext2/3/4 through libext2fs, opened read-only at a partition's offset: its used
 * bytes, a file's contents (fstab), and the copy of its used blocks only (what e2image -ra
 * does), in runs of adjacent used blocks; and the block copier that both use. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/util.h"

/* The block copier: this thread reads chunks into a ring of buffers, a writer thread
 * writes them, so that the source is read while the target is written. The writer asks the
 * target to put what it has on the disk every COPY_FLUSH bytes (fdatasync: a loop device
 * passes it on to its backing file, which sync_file_range would not), so that writes go out
 * beside the reads instead of all at the end from the page cache. */
#define COPY_CHUNK (4U << 20)
#define COPY_SLOTS 6
#define COPY_FLUSH (64ULL << 20)

struct copy_slot {
	char *buf;
	uint64_t doff;
	size_t len;
};

struct clone_pipe {
	pthread_t writer;
	bool started;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct copy_slot slot[COPY_SLOTS];
	unsigned head, tail; /* filled by the reader up to head, written up to tail */
	bool done;
	int dfd;
	volatile sig_atomic_t *stop;
	int err;             /* the writer's -errno */
	uint64_t err_off;
};

static bool pipe_stopped(const struct clone_pipe *w)
{
	return w->stop && *w->stop;
}

static void *pipe_writer(void *arg)
{
	struct clone_pipe *w = arg;
	uint64_t unflushed = 0;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		struct copy_slot *s;
		size_t got = 0;
		int err = 0;

		while (w->head == w->tail && !w->done)
			pthread_cond_wait(&w->cv, &w->mu);
		if (w->head == w->tail)
			break;
		if (pipe_stopped(w)) {
			w->err = -EINTR;
			break;
		}
		s = &w->slot[w->tail % COPY_SLOTS];
		pthread_mutex_unlock(&w->mu);
		while (got < s->len && !err) {
			ssize_t r = pwrite(w->dfd, s->buf + got, s->len - got, (off_t)(s->doff + got));

			if (r < 0 && errno == EINTR && !pipe_stopped(w))
				continue;
			if (r <= 0)
				err = pipe_stopped(w) ? -EINTR : r < 0 ? -errno : -ENOSPC;
			else
				got += (size_t)r;
		}
		unflushed += got;
		if (!err && unflushed >= COPY_FLUSH) {
			unflushed = 0;
			if (fdatasync(w->dfd) && errno != EINVAL)
				err = -errno;
		}
		pthread_mutex_lock(&w->mu);
		if (err) {
			w->err = err;
			w->err_off = s->doff + got;
			pthread_cond_broadcast(&w->cv);
			break;
		}
		w->tail++;
		pthread_cond_broadcast(&w->cv);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static int write_error(const struct clone_pipe *w, char *why, size_t whycap)
{
	if (w->err != -EINTR)
		str_fmt(why, whycap, "cannot write the target at byte %llu: %s",
			(unsigned long long)w->err_off, strerror(-w->err));
	return w->err;
}

static int pipe_start(struct clone_copier *c)
{
	struct clone_pipe *w = calloc(1, sizeof(*w));
	sigset_t all, old;
	int ret;

	if (!w)
		return -ENOMEM;
	for (int i = 0; i < COPY_SLOTS; i++) {
		w->slot[i].buf = malloc(COPY_CHUNK);
		if (!w->slot[i].buf) {
			while (i-- > 0)
				free(w->slot[i].buf);
			free(w);
			return -ENOMEM;
		}
	}
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	w->dfd = c->dfd;
	w->stop = c->p->stop;
	/* signals stay with the caller, which watches for the stop */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&w->writer, NULL, pipe_writer, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	w->started = ret == 0;
	c->pipe = w;
	(void)posix_fadvise(c->sfd, 0, 0, POSIX_FADV_SEQUENTIAL);
	return -ret;
}

int clone_copier_end(struct clone_copier *c, char *why, size_t whycap)
{
	struct clone_pipe *w = c->pipe;
	int ret = 0;

	if (!w)
		return 0;
	if (w->started) {
		pthread_mutex_lock(&w->mu);
		w->done = true;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		pthread_join(w->writer, NULL);
	}
	if (w->err)
		ret = write_error(w, why, whycap);
	for (int i = 0; i < COPY_SLOTS; i++)
		free(w->slot[i].buf);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
	c->pipe = NULL;
	return ret;
}

static void copy_progress(struct clone_copier *c, const char *phase)
{
	clone_progress_emit(c->p, phase, c->done_before + c->part->copied, c->total, c->t0_ns);
}

int clone_copy_range(struct clone_copier *c, uint64_t soff, uint64_t doff, uint64_t len,
		     char *why, size_t whycap)
{
	struct clone_pipe *w;
	char phase[48];
	uint64_t last = c->part->copied;
	int ret;

	if (!c->pipe) {
		ret = pipe_start(c);
		if (ret) {
			str_fmt(why, whycap, "cannot start the copy: %s", strerror(-ret));
			return ret;
		}
	}
	w = c->pipe;
	str_fmt(phase, sizeof(phase), "copying p%u", c->part->partno);
	while (len) {
		size_t n = len < COPY_CHUNK ? (size_t)len : COPY_CHUNK, got = 0;
		struct copy_slot *s;

		if (c->p->stop && *c->p->stop)
			return -EINTR;
		/* a free buffer, or the writer's error */
		pthread_mutex_lock(&w->mu);
		while (w->head - w->tail == COPY_SLOTS && !w->err)
			pthread_cond_wait(&w->cv, &w->mu);
		ret = w->err;
		pthread_mutex_unlock(&w->mu);
		if (ret)
			return c->p->stop && *c->p->stop ? -EINTR : write_error(w, why, whycap);
		s = &w->slot[w->head % COPY_SLOTS];
		while (got < n) {
			ssize_t r = pread(c->sfd, s->buf + got, n - got, (off_t)(soff + got));

			if (r < 0 && errno == EINTR && !(c->p->stop && *c->p->stop))
				continue;
			if (r <= 0) {
				int e = r < 0 ? errno : EIO;

				if (c->p->stop && *c->p->stop)
					return -EINTR;
				str_fmt(why, whycap, "cannot read the source at byte %llu: %s",
					(unsigned long long)(soff + got), strerror(e));
				return -e;
			}
			got += (size_t)r;
		}
		s->doff = doff;
		s->len = n;
		pthread_mutex_lock(&w->mu);
		w->head++;
		pthread_cond_broadcast(&w->cv);
		pthread_mutex_unlock(&w->mu);
		soff += n;
		doff += n;
		len -= n;
		c->part->copied += n;
		if (c->part->copied - last >= (64U << 20) || !len) {
			last = c->part->copied;
			copy_progress(c, phase);
		}
	}
	return 0;
}


#ifdef HAVE_EXT2FS
#include "clone/ext2fs-dl.h"

EXT2FS_DL_FUNCS(DLIB_DEFINE)
E2P_DL_FUNCS(DLIB_DEFINE)
static const struct dlib_sym ext2fs_syms[] = { EXT2FS_DL_FUNCS(DLIB_SYM) };
static const struct dlib_sym e2p_syms[] = { E2P_DL_FUNCS(DLIB_SYM) };
static struct dlib ext2fs_lib = { "libext2fs.so.2", ext2fs_syms, ARRAY_SIZE(ext2fs_syms),
				  NULL };
static struct dlib e2p_lib = { "libe2p.so.2", e2p_syms, ARRAY_SIZE(e2p_syms), NULL };

int clone_ext_load(char *why, size_t whycap)
{
	int ret = dlib_open(&ext2fs_lib, why, whycap);

	return ret ? ret : dlib_open(&e2p_lib, why, whycap);
}

static int ext_open(const char *path, uint64_t off, ext2_filsys *fs)
{
	char opts[64];
	errcode_t err;
	int ret = clone_ext_load(NULL, 0);

	if (ret)
		return ret;
	str_fmt(opts, sizeof(opts), "offset=%llu", (unsigned long long)off);
	err = ext2fs_open2(path, opts, EXT2_FLAG_64BITS | EXT2_FLAG_SOFTSUPP_FEATURES, 0, 0,
			   unix_io_manager, fs);
	if (err)
		return err == EXT2_ET_BAD_MAGIC || err == EXT2_ET_SB_CSUM_INVALID ? -EINVAL
		       : err < 256 ? -(int)err : -EIO;
	return 0;
}

static void uuid_text(const unsigned char *u, char *out, size_t cap)
{
	str_fmt(out, cap,
		"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
		u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		u[14], u[15]);
}

/* Features that belong to this instance, not to its kind: a journal on another device, a
 * journal to replay, multi-mount protection's block, orphans being processed. */
static bool feature_own(int compat, unsigned mask)
{
	return (compat == E2P_FEATURE_INCOMPAT &&
		(mask == EXT3_FEATURE_INCOMPAT_JOURNAL_DEV || mask == EXT3_FEATURE_INCOMPAT_RECOVER ||
		 mask == EXT4_FEATURE_INCOMPAT_MMP)) ||
	       (compat == E2P_FEATURE_RO_INCOMPAT && mask == (1U << 16) /* orphan_present */);
}

static void ext_features(const struct ext2_super_block *sb, struct clone_extinfo *ei)
{
	const uint32_t words[3] = { sb->s_feature_compat, sb->s_feature_incompat,
				    sb->s_feature_ro_compat };
	const int kinds[3] = { E2P_FEATURE_COMPAT, E2P_FEATURE_INCOMPAT, E2P_FEATURE_RO_INCOMPAT };
	size_t len;

	str_copy(ei->features, sizeof(ei->features), "none");
	len = strlen(ei->features);
	for (int k = 0; k < 3; k++) {
		for (unsigned bit = 0; bit < 32; bit++) {
			unsigned mask = 1U << bit;

			if (!(words[k] & mask) || feature_own(kinds[k], mask))
				continue;
			if (str_fmt(ei->features + len, sizeof(ei->features) - len, ",%s",
				    e2p_feature2string(kinds[k], mask)))
				break;
			len += strlen(ei->features + len);
		}
	}
	ei->inode_size = EXT2_INODE_SIZE(sb);
	ei->inodes = sb->s_inodes_count;
	ei->inodes_used = sb->s_inodes_count - sb->s_free_inodes_count;
	if (sb->s_feature_ro_compat & EXT4_FEATURE_RO_COMPAT_BIGALLOC)
		ei->cluster_size = EXT2_CLUSTER_SIZE(sb);
}

int clone_ext_info(const char *path, uint64_t off, struct clone_extinfo *ei)
{
	ext2_filsys fs;
	int ret;

	memset(ei, 0, sizeof(*ei));
	ret = ext_open(path, off, &fs);
	if (ret)
		return ret;
	ei->block_size = fs->blocksize;
	ei->blocks = ext2fs_blocks_count(fs->super);
	ei->used = (ei->blocks - ext2fs_free_blocks_count(fs->super)) * ei->block_size;
	uuid_text(fs->super->s_uuid, ei->uuid, sizeof(ei->uuid));
	memcpy(ei->label, fs->super->s_volume_name,
	       sizeof(fs->super->s_volume_name) < sizeof(ei->label) - 1
		       ? sizeof(fs->super->s_volume_name) : sizeof(ei->label) - 1);
	str_sanitize(ei->label);
	ext_features(fs->super, ei);
	ei->needs_recovery = ext2fs_has_feature_journal_needs_recovery(fs->super);
	ei->error_count = fs->super->s_error_count;
	ei->has_errors = (fs->super->s_state & EXT2_ERROR_FS) || ei->error_count;
	ext2fs_close_free(&fs);
	return 0;
}

int clone_ext_read_file(const char *dev, uint64_t off, const char *file, size_t cap,
			struct sbuf *out)
{
	ext2_file_t f = NULL;
	ext2_filsys fs;
	ext2_ino_t ino;
	char buf[4096];
	int ret;

	ret = ext_open(dev, off, &fs);
	if (ret)
		return ret;
	if (ext2fs_namei_follow(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, file[0] == '/' ? file + 1 : file,
				&ino)) {
		ret = -ENOENT;
		goto out;
	}
	if (ext2fs_file_open(fs, ino, 0, &f)) {
		ret = -EIO;
		goto out;
	}
	for (;;) {
		unsigned int got = 0;

		if (ext2fs_file_read(f, buf, sizeof(buf), &got)) {
			ret = -EIO;
			break;
		}
		if (!got)
			break;
		if (out->len + got > cap) {
			ret = -EFBIG;
			break;
		}
		ret = sbuf_add(out, buf, got);
		if (ret)
			break;
	}
	ext2fs_file_close(f);
out:
	ext2fs_close_free(&fs);
	return ret;
}

/* A symbolic link's text: in the inode (a fast link) or in its data (blocks or inline). */
static int ext_readlink(ext2_filsys fs, ext2_ino_t ino, struct ext2_inode *in, char *buf,
			size_t cap)
{
	uint64_t len = EXT2_I_SIZE(in);
	unsigned int got = 0;
	ext2_file_t f;
	errcode_t err;

	if (len >= cap)
		return -ENAMETOOLONG;
	if (ext2fs_is_fast_symlink(in)) {
		memcpy(buf, (const char *)in->i_block, len);
	} else {
		if (ext2fs_file_open(fs, ino, 0, &f))
			return -EIO;
		err = ext2fs_file_read(f, buf, (unsigned int)len, &got);
		ext2fs_file_close(f);
		if (err || got != len)
			return -EIO;
	}
	buf[len] = '\0';
	return 0;
}

/* rest (a path, then more of it after the slash at *s) becomes link + "/" + the rest. */
static int ext_path_splice(char *rest, size_t cap, const char *link, const char *s)
{
	char tmp[PATH_MAX];

	if (str_fmt(tmp, sizeof(tmp), "%s/%s", link, s))
		return -ENAMETOOLONG;
	return str_copy(rest, cap, tmp) ? -ENAMETOOLONG : 0;
}

int clone_ext_resolve(const char *dev, uint64_t off, const char *path, char *out, size_t cap)
{
	char rest[PATH_MAX], link[PATH_MAX], done[PATH_MAX] = "";
	ext2_ino_t dir = EXT2_ROOT_INO, ino;
	struct ext2_inode in;
	const char *s;
	int ret, links = 0;
	ext2_filsys fs;

	if (str_copy(rest, sizeof(rest), path))
		return -ENAMETOOLONG;
	ret = ext_open(dev, off, &fs);
	if (ret)
		return ret;
	for (s = rest; !ret;) {
		size_t n;

		while (*s == '/')
			s++;
		if (!*s)
			break;
		n = strcspn(s, "/");
		if (n == 1 && s[0] == '.') {
			s += n;
			continue;
		}
		if (ext2fs_lookup(fs, dir, s, (int)n, NULL, &ino) ||
		    ext2fs_read_inode(fs, ino, &in)) {
			ret = -ENOENT;
			break;
		}
		if (n == 2 && !strncmp(s, "..", 2)) {
			char *slash = strrchr(done, '/');

			if (slash)
				*slash = '\0';
			dir = ino;
			s += n;
			continue;
		}
		if (LINUX_S_ISLNK(in.i_mode)) {
			/* the kernel's limit; an absolute link starts again at this root */
			if (++links > 40) {
				ret = -ELOOP;
				break;
			}
			ret = ext_readlink(fs, ino, &in, link, sizeof(link));
			if (!ret)
				ret = ext_path_splice(rest, sizeof(rest), link, s + n);
			if (!ret && link[0] == '/') {
				done[0] = '\0';
				dir = EXT2_ROOT_INO;
			}
			s = rest;
			continue;
		}
		if (str_fmt(done + strlen(done), sizeof(done) - strlen(done), "/%.*s", (int)n, s)) {
			ret = -ENAMETOOLONG;
			break;
		}
		s += n;
		if (LINUX_S_ISDIR(in.i_mode))
			dir = ino;
		else if (s[strspn(s, "/")])
			ret = -ENOTDIR;
	}
	if (!ret && str_copy(out, cap, done[0] ? done : "/"))
		ret = -ENAMETOOLONG;
	ext2fs_close_free(&fs);
	return ret;
}

int clone_ext_copy_used(struct clone_copier *c, char *why, size_t whycap)
{
	const struct clone_part *cp = c->part;
	blk64_t blk, end, first, run_end;
	ext2_filsys fs;
	uint64_t bs;
	int ret;

	ret = ext_open(c->src_path, cp->start, &fs);
	if (ret) {
		str_fmt(why, whycap, "cannot open the ext file system of p%u", cp->partno);
		return ret;
	}
	if (ext2fs_read_block_bitmap(fs)) {
		str_fmt(why, whycap, "cannot read the block bitmaps of p%u", cp->partno);
		ret = -EIO;
		goto out;
	}
	bs = fs->blocksize;
	end = ext2fs_blocks_count(fs->super) - 1;
	first = fs->super->s_first_data_block;
	/* the blocks before the first data block (the boot block of a 1 KiB file system) */
	if (first) {
		ret = clone_copy_range(c, cp->start, cp->t_start, first * bs, why, whycap);
		if (ret)
			goto out;
	}
	blk = first;
	while (blk <= end) {
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, blk, end, &blk))
			break;
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, blk, end, &run_end))
			run_end = end + 1;
		ret = clone_copy_range(c, cp->start + blk * bs, cp->t_start + blk * bs,
				       (run_end - blk) * bs, why, whycap);
		if (ret)
			goto out;
		blk = run_end;
	}
out:
	ext2fs_close_free(&fs);
	return ret;
}

#else /* no libext2fs (a cross build): ext is copied whole; fstab read through debugfs */
#include "common/paths.h"
#include "common/spawn.h"

int clone_ext_info(const char *path, uint64_t off, struct clone_extinfo *ei)
{
	(void)path;
	(void)off;
	memset(ei, 0, sizeof(*ei));
	return -EOPNOTSUPP;
}

int clone_ext_read_file(const char *dev, uint64_t off, const char *file, size_t cap,
			struct sbuf *out)
{
	char spec[80], cmd[300], stat_cmd[300];
	struct spawn_extra x = { .env = NULL };
	int fd, ret, status;

	/* debugfs takes "NAME?offset=N": a '?' in dev would end its name there, so it gets a
	 * name of digits only, its own descriptor of dev (as mtools does, fat.c) */
	fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	x.fd = fd;
	x.child_fd = fd == 3 ? 4 : 3;
	if (str_fmt(spec, sizeof(spec), PATH_PROC_SELF_FD "/%d?offset=%llu", x.child_fd,
		    (unsigned long long)off) ||
	    str_fmt(cmd, sizeof(cmd), "cat %s", file) ||
	    str_fmt(stat_cmd, sizeof(stat_cmd), "stat %s", file)) {
		close(fd);
		return -ENAMETOOLONG;
	}
	/* debugfs exits 0 when a request fails ("File not found by ext2_lookup" on its
	 * stderr, nothing on stdout, as an empty file would): stat tells first that the file
	 * is there and is a regular file */
	{
		const char *stat_argv[] = { "debugfs", "-R", stat_cmd, spec, NULL };
		const char *argv[] = { "debugfs", "-R", cmd, spec, NULL };
		struct sbuf st = SBUF_INIT(1U << 20);

		ret = clone_run_ex(stat_argv, &x, &st, false, &status);
		if (!ret && (status || !st.buf || !strstr(st.buf, "Type: regular")))
			ret = -ENOENT;
		sbuf_release(&st);
		out->cap = cap;
		if (!ret)
			ret = clone_run_ex(argv, &x, out, false, &status);
	}
	close(fd);
	return ret ? ret : status ? -ENOENT : 0;
}

int clone_ext_resolve(const char *dev, uint64_t off, const char *path, char *out, size_t cap)
{
	(void)dev;
	(void)off;
	return str_copy(out, cap, path) ? -ENAMETOOLONG : 0; /* links not seen: taken as named */
}

int clone_ext_copy_used(struct clone_copier *c, char *why, size_t whycap)
{
	(void)c;
	str_fmt(why, whycap, "built without libext2fs: no copy by used blocks");
	return -EOPNOTSUPP;
}
#endif
