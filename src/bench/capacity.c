/* capacity.c - the capacity check, `verify`'s work: fill a directory's free space with pattern
 * files, or probe a block device for the edge of its real capacity (as f3probe does), then
 * read all back. */
#include <fcntl.h>
#include <linux/magic.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "bench/capacity.h"
#include "common/util.h"

/* The probe writes at most this many blocks spread over the device. */
#define PROBE_MAX 512
#define CAPACITY_MAX_FILES 65536u

const char *capacity_mode_name(enum capacity_mode m)
{
	static const char *const names[] = { "dir", "probe", "full" };

	return names[m];
}

static double secs_since(uint64_t t0)
{
	return (double)(time_now_ns() - t0) / 1e9;
}

/* Tell the caller how far a phase is, at most four times a second. */
static void progress_emit(struct capacity_run *run, const char *phase, uint64_t done,
			  uint64_t total, uint64_t t0, bool force)
{
	static uint64_t last;
	struct capacity_progress p = { .phase = phase, .done = done, .total = total, .left_s = -1 };
	uint64_t now = time_now_ns();
	double s = (double)(now - t0) / 1e9;

	if (!run->progress || (!force && now - last < 250000000ull))
		return;
	last = now;
	p.bw = s > 0 ? (double)done / s : 0;
	if (p.bw > 0 && total > done)
		p.left_s = (double)(total - done) / p.bw;
	run->progress(run->progress_arg, &p);
}

static bool stopped(const struct capacity_run *run)
{
	return run->stop && *run->stop;
}

/* Judge len bytes read from offset; the tallies, the first bad offset and the first wrap go
 * into run. Returns the number of bad sectors. */
static uint64_t judge(struct capacity_run *run, const char *buf, size_t len, uint64_t offset,
		      uint64_t seed)
{
	struct capacity_counts *c = &run->sectors;
	uint64_t bad = 0, held = 0;
	size_t i;

	for (i = 0; i + CAPACITY_SECTOR <= len; i += CAPACITY_SECTOR) {
		switch (capacity_sector_check(buf + i, offset + i, seed, &held)) {
		case CAPACITY_OK:
			c->ok++;
			continue;
		case CAPACITY_CHANGED:
			c->changed++;
			break;
		case CAPACITY_OVERWRITTEN:
			c->overwritten++;
			if (!run->has_alias) {
				run->has_alias = true;
				run->alias_at = offset + i;
				run->alias_of = held;
			}
			break;
		case CAPACITY_CORRUPTED:
			c->corrupted++;
			break;
		}
		bad++;
		if (!run->has_first_bad || offset + i < run->first_bad) {
			run->has_first_bad = true;
			run->first_bad = offset + i;
		}
	}
	return bad;
}

/* Sectors that could not be read at all. */
static void judge_unreadable(struct capacity_run *run, uint64_t offset, uint64_t len)
{
	uint64_t n = len / CAPACITY_SECTOR;

	run->sectors.corrupted += n;
	run->sectors.read_errors += n;
	if (n && (!run->has_first_bad || offset < run->first_bad)) {
		run->has_first_bad = true;
		run->first_bad = offset;
	}
}

static void decide(struct capacity_run *run)
{
	const struct capacity_counts *c = &run->sectors;

	if (run->sectors.overwritten || run->capacity_short)
		run->finding = CAPACITY_CAPACITY_FAKE;
	else if (c->changed || c->corrupted)
		run->finding = CAPACITY_DATA_CORRUPT;
}

/* ---- directory mode ---- */

static int dir_file_open(struct capacity_run *run, unsigned i, char *why, size_t whycap)
{
	struct bench_target *t = &run->target;
	size_t n = strlen(t->path);
	char name[PATH_MAX];
	struct stat a, b;
	int fd, fdd, ret;

	if (str_fmt(name, sizeof(name), "%s%s" CAPACITY_FILE_PREFIX "%u.tmp", t->path,
		    n && t->path[n - 1] == '/' ? "" : "/", i)) {
		str_fmt(why, whycap, "the path is too long");
		return -ENAMETOOLONG;
	}
	/* Never follow a link and never reuse a file: both would write what is not ours. */
	fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		str_sanitize(name);
		if (ret == -EEXIST)
			str_fmt(why, whycap, "'%s' already exists: not overwriting it (remove it "
				"if an earlier run left it)", name);
		else if (ret != -ENOSPC && ret != -EDQUOT)
			str_fmt(why, whycap, "cannot create '%s': %s", name, strerror(-ret));
		return ret;
	}
	fdd = open(name, O_RDWR | O_DIRECT | O_NOFOLLOW | O_CLOEXEC);
	if (fdd >= 0 && (fstat(fdd, &a) || fstat(fd, &b) || a.st_ino != b.st_ino ||
			 a.st_dev != b.st_dev)) {
		close(fdd); /* replaced between the two opens: do not touch it */
		close(fd);
		str_sanitize(name);
		str_fmt(why, whycap, "'%s' changed while it was being opened", name);
		return -EBUSY;
	}
	/* Unlinked while open: nothing is left behind, whatever ends the process. */
	unlink(name);
	run->fds_buffered[i] = fd;
	run->fds[i] = fdd;
	return 0;
}

static int dir_write(struct capacity_run *run, uint64_t limit, uint64_t *file_bytes,
		     char *why, size_t whycap)
{
	uint64_t t0 = time_now_ns(), total = run->size_bytes;
	size_t chunk = CAPACITY_CHUNK;
	bool full = false;
	unsigned i;
	int ret = 0;

	progress_emit(run, "writing", 0, total, t0, true);
	for (i = 0; !full && run->written_bytes < limit && i < CAPACITY_MAX_FILES; i++) {
		uint64_t foff = 0;

		ret = dir_file_open(run, i, why, whycap);
		if (ret == -ENOSPC || ret == -EDQUOT) {
			ret = 0;
			break;
		}
		if (ret)
			return ret;
		run->nfiles = i + 1;
		while (foff < CAPACITY_FILE_BYTES && run->written_bytes < limit) {
			uint64_t n = chunk;
			int fd = run->fds[i] >= 0 ? run->fds[i] : run->fds_buffered[i];
			ssize_t w;

			if (n > CAPACITY_FILE_BYTES - foff)
				n = CAPACITY_FILE_BYTES - foff;
			if (n > limit - run->written_bytes)
				n = (limit - run->written_bytes) / 4096 * 4096;
			if (!n)
				break;
			capacity_pattern_fill(run->buf, n, i * CAPACITY_FILE_BYTES + foff,
					      run->seed);
			w = pwrite(fd, run->buf, n, (off_t)foff);
			if (w < 0 && errno == EINVAL && fd == run->fds[i]) {
				close(run->fds[i]); /* O_DIRECT opened but refused */
				run->fds[i] = -1;
				continue;
			}
			if (w < 0 && (errno == ENOSPC || errno == EDQUOT || errno == EFBIG)) {
				if (chunk > 4096) {
					chunk = 4096; /* fill the last blocks too */
					continue;
				}
				full = true;
				break;
			}
			if (w < 0 && errno == EINTR && stopped(run))
				return -EINTR;
			/* the file system found its own metadata overwritten (a drive that stores
			 * less than it claims, under ext4: EBADMSG, EUCLEAN) or the drive refused the
			 * write: what was written so far is read back and judged */
			if (w < 0 && (errno == EBADMSG || errno == EUCLEAN || errno == EIO)) {
				full = true;
				break;
			}
			if (w < 0) {
				ret = -errno;
				str_fmt(why, whycap, "cannot write the test file: %s", strerror(-ret));
				return ret;
			}
			w = w / CAPACITY_SECTOR * CAPACITY_SECTOR;
			if (!w) {
				full = true;
				break;
			}
			foff += (uint64_t)w;
			run->written_bytes += (uint64_t)w;
			if (total < run->written_bytes)
				total = run->written_bytes;
			progress_emit(run, "writing", run->written_bytes, total, t0, false);
			if (stopped(run))
				return -EINTR;
		}
		file_bytes[i] = foff;
		if (fdatasync(run->fds_buffered[i]) && errno != EBADMSG && errno != EUCLEAN &&
		    errno != EIO) {
			ret = -errno;
			str_fmt(why, whycap, "cannot sync the test file: %s", strerror(-ret));
			return ret;
		}
	}
	run->write_s = secs_since(t0);
	return 0;
}

static int dir_read(struct capacity_run *run, const uint64_t *file_bytes)
{
	uint64_t t0 = time_now_ns();
	unsigned i;

	/* What is read must come from the drive: every page of our files leaves the cache. */
	for (i = 0; i < run->nfiles; i++)
		posix_fadvise(run->fds_buffered[i], 0, 0, POSIX_FADV_DONTNEED);
	progress_emit(run, "reading", 0, run->written_bytes, t0, true);
	for (i = 0; i < run->nfiles; i++) {
		uint64_t foff = 0;

		while (foff < file_bytes[i]) {
			uint64_t n = file_bytes[i] - foff, base = i * CAPACITY_FILE_BYTES + foff;
			int fd = run->fds[i] >= 0 ? run->fds[i] : run->fds_buffered[i];
			ssize_t r;

			if (n > CAPACITY_CHUNK)
				n = CAPACITY_CHUNK;
			r = pread(fd, run->buf, n, (off_t)foff);
			if (r < 0 && errno == EINVAL && fd == run->fds[i]) {
				close(run->fds[i]);
				run->fds[i] = -1;
				continue;
			}
			if (r < 0 && errno == EINTR && stopped(run))
				return -EINTR;
			if (r < 0) {
				/* a sector the drive cannot return is a sector lost */
				judge_unreadable(run, base, n);
				r = (ssize_t)n;
			} else {
				if ((uint64_t)r < n && r % CAPACITY_SECTOR == 0)
					judge_unreadable(run, base + (uint64_t)r, n - (uint64_t)r);
				judge(run, run->buf, (size_t)r, base, run->seed);
				r = (ssize_t)n;
			}
			foff += (uint64_t)r;
			run->read_bytes += (uint64_t)r;
			progress_emit(run, "reading", run->read_bytes, run->written_bytes, t0, false);
			if (stopped(run))
				return -EINTR;
		}
	}
	run->read_s = secs_since(t0);
	return 0;
}

static int dir_execute(struct capacity_run *run, const struct capacity_opts *o, char *why,
		       size_t whycap)
{
	uint64_t limit = o->size ? o->size / 4096 * 4096 : UINT64_MAX, *file_bytes;
	unsigned i, nmax;
	int ret;

	nmax = (unsigned)((run->size_bytes < limit ? run->size_bytes : limit) /
			  CAPACITY_FILE_BYTES) + 2;
	if (nmax > CAPACITY_MAX_FILES)
		nmax = CAPACITY_MAX_FILES;
	run->fds = malloc(nmax * sizeof(int));
	run->fds_buffered = malloc(nmax * sizeof(int));
	file_bytes = calloc(nmax, sizeof(uint64_t));
	if (!run->fds || !run->fds_buffered || !file_bytes) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nmax; i++)
		run->fds[i] = run->fds_buffered[i] = -1;
	if (limit > (uint64_t)nmax * CAPACITY_FILE_BYTES)
		limit = (uint64_t)nmax * CAPACITY_FILE_BYTES;
	ret = dir_write(run, limit, file_bytes, why, whycap);
	if (!ret && !run->written_bytes) {
		str_fmt(why, whycap, "no free space to write to");
		ret = -ENOSPC;
	}
	if (!ret)
		ret = dir_read(run, file_bytes);
	if (!ret) {
		run->has_real_size = true;
		run->real_size = run->sectors.ok * CAPACITY_SECTOR;
	}
out:
	free(file_bytes);
	return ret;
}

/* ---- block devices ---- */

static int blk_fd(const struct capacity_run *run)
{
	return run->target.fd_direct >= 0 ? run->target.fd_direct : run->target.fd_buffered;
}

static int blk_io(struct capacity_run *run, bool wr, uint64_t off, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = wr ? pwrite(blk_fd(run), (char *)run->buf + done, len - done,
					(off_t)(off + done))
			       : pread(blk_fd(run), (char *)run->buf + done, len - done,
				       (off_t)(off + done));

		if (n < 0 && errno == EINTR && !stopped(run))
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* Everything written reaches the device, and nothing read comes from the cache. */
static int blk_flush(struct capacity_run *run)
{
	if (run->target.fd_direct >= 0 && fsync(run->target.fd_direct))
		return -errno;
	if (fsync(run->target.fd_buffered))
		return -errno;
	bench_target_drop_cache(&run->target); /* -EPERM without CAP_SYS_ADMIN: O_DIRECT reads */
	return 0;
}

static int blk_write_block(struct capacity_run *run, uint64_t off, uint64_t seed)
{
	size_t b = run->target.align;

	capacity_pattern_fill(run->buf, b, off, seed);
	run->written_bytes += b;
	return blk_io(run, true, off, b);
}

/* Read one block back: true when it holds what was written for it. */
static bool blk_block_good(struct capacity_run *run, uint64_t off, uint64_t seed, bool count)
{
	size_t i, b = run->target.align;
	uint64_t held;

	run->read_bytes += b;
	if (blk_io(run, false, off, b)) {
		if (count)
			judge_unreadable(run, off, b);
		return false;
	}
	if (count)
		return judge(run, run->buf, b, off, seed) == 0;
	for (i = 0; i < b; i += CAPACITY_SECTOR)
		if (capacity_sector_check((char *)run->buf + i, off + i, seed, &held) !=
		    CAPACITY_OK)
			return false;
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Offsets spread over [0, limit): the powers of two and the points between them (where
 * fakes that drop address bits or stop storing show), and an even spread. */
static unsigned probe_offsets(uint64_t limit, uint64_t b, uint64_t *p)
{
	unsigned n = 0, i, j;
	uint64_t x;

	p[n++] = 0;
	for (x = b; x < limit && n < PROBE_MAX - 70; x <<= 1) {
		p[n++] = x;
		if (x + x / 2 < limit && x / 2 >= b)
			p[n++] = x + x / 2;
	}
	for (i = 1; i < 64; i++)
		p[n++] = limit / 64 * i / b * b;
	p[n++] = limit - b;
	qsort(p, n, sizeof(*p), cmp_u64);
	for (i = j = 0; i < n; i++)
		if (!j || p[i] != p[j - 1])
			p[j++] = p[i];
	return j;
}

/* Does reading at p give back the block just written at 0? */
static int probe_wraps_at(struct capacity_run *run, uint64_t seed, uint64_t p, bool *wraps)
{
	uint64_t held;

	*wraps = false;
	run->read_bytes += CAPACITY_SECTOR;
	if (blk_io(run, false, p, CAPACITY_SECTOR))
		return 0; /* unreadable is judged by the spread probe */
	*wraps = capacity_sector_check(run->buf, p, seed, &held) == CAPACITY_OVERWRITTEN && !held;
	if (*wraps) {
		run->has_alias = true;
		run->alias_at = p;
		run->alias_of = 0;
	}
	return 0;
}

/* The device wraps at w when reading there gives the block written at 0: f3probe's test for
 * the most common fake, which ignores the high address bits, tried at every power of two,
 * or at the one candidate given (cand). *wrap 0: no wrap found. */
static int probe_wrap(struct capacity_run *run, uint64_t seed, uint64_t cand, uint64_t *wrap)
{
	uint64_t b = run->target.align, n = run->target.size, p;
	bool wraps = false;
	int ret;

	*wrap = 0;
	ret = blk_write_block(run, 0, seed);
	if (!ret)
		ret = blk_flush(run);
	for (p = cand ? cand : b; !ret && p < n; p <<= 1) {
		ret = probe_wraps_at(run, seed, p, &wraps);
		if (wraps) {
			*wrap = p;
			break;
		}
		if (cand)
			break;
	}
	return ret;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Is the block at m real? It must read back, and no block below it may have changed. */
static bool probe_test(struct capacity_run *run, uint64_t m, uint64_t seed, const uint64_t *anchors,
		       unsigned nanchors, uint64_t anchor_seed)
{
	bool good;
	unsigned i;

	if (blk_write_block(run, m, seed) || blk_flush(run))
		return false;
	good = blk_block_good(run, m, seed, false);
	for (i = 0; good && i < nanchors; i++)
		good = blk_block_good(run, anchors[i], anchor_seed, false);
	if (!good) /* m may have landed on an anchor: put them back for the next test */
		for (i = 0; i < nanchors; i++)
			blk_write_block(run, anchors[i], anchor_seed);
	return good;
}

/* Write the blocks at p[0..np) in order and read them back: the index of the first that
 * did not read back (np: none). A wrap that is no power of two leaves sectors holding data
 * written elsewhere: the gcd of those distances, in *period, is where it wraps. */
static int probe_spread(struct capacity_run *run, const uint64_t *p, unsigned np, uint64_t seed,
			unsigned *first_bad, uint64_t *period)
{
	unsigned i;
	uint64_t held;
	int ret = 0;

	*first_bad = np;
	*period = 0;
	/* a block the device refuses (ENOSPC, EIO: it takes nothing past a point) does not end
	 * the probe: it reads back as not ours, and the bisection finds the edge */
	for (i = 0; i < np && !ret; i++) {
		ret = blk_write_block(run, p[i], seed);
		if ((ret == -ENOSPC || ret == -EIO) && i)
			ret = 0;
	}
	if (!ret) {
		ret = blk_flush(run);
		if (ret == -ENOSPC || ret == -EIO)
			ret = 0;
	}
	for (i = 0; i < np && !ret; i++) {
		if (blk_block_good(run, p[i], seed, true))
			continue;
		if (*first_bad == np)
			*first_bad = i;
		if (capacity_sector_check(run->buf, p[i], seed, &held) == CAPACITY_OVERWRITTEN)
			*period = gcd_u64(*period, held > p[i] ? held - p[i] : p[i] - held);
	}
	return ret;
}

/* Whether any block after the first bad one read back (the tallies have them all). */
static bool probe_good_after(struct capacity_run *run, const uint64_t *p, unsigned np,
			     unsigned bad, uint64_t seed)
{
	unsigned i;

	for (i = bad + 1; i < np; i++)
		if (blk_block_good(run, p[i], seed, false))
			return true;
	return false;
}

static int blk_probe(struct capacity_run *run)
{
	uint64_t b = run->target.align, n = run->target.size, wrap, limit, lo, hi, period;
	uint64_t s2 = run->seed ^ 0x2222222222222222ull, *p;
	uint64_t t0 = time_now_ns();
	unsigned np, bad, step = 0;
	int ret;

	p = calloc(PROBE_MAX, sizeof(*p));
	if (!p)
		return -ENOMEM;
	progress_emit(run, "probing", 0, 0, t0, true);
	ret = probe_wrap(run, run->seed ^ 0x1111111111111111ull, 0, &wrap);
	if (ret)
		goto out;
	limit = wrap ? wrap : n;
	np = probe_offsets(limit, b, p);
	ret = probe_spread(run, p, np, s2, &bad, &period);
	if (ret)
		goto out;
	/* a wrap at no power of two: confirm the period the aliases suggest, and probe below it */
	if (bad < np && period >= b && period % b == 0 && period < limit) {
		ret = probe_wrap(run, run->seed ^ 0x3333333333333333ull, period, &wrap);
		if (!ret && wrap) {
			bool alias = run->has_alias;
			uint64_t at = run->alias_at, of = run->alias_of;

			memset(&run->sectors, 0, sizeof(run->sectors));
			run->has_first_bad = false;
			limit = wrap;
			np = probe_offsets(limit, b, p);
			ret = probe_spread(run, p, np, ++s2, &bad, &period);
			run->has_alias = alias;
			run->alias_at = at;
			run->alias_of = of;
		}
		if (ret)
			goto out;
	}
	run->probe_blocks = np;
	/* [0, lo) holds data; hi does not: bisect between them */
	lo = bad == np ? limit : bad ? p[bad - 1] + b : 0;
	hi = bad == np ? limit : p[bad];
	/* good blocks above a bad one and no data out of place: damage, not an edge */
	if (bad < np && !wrap && !run->sectors.overwritten && probe_good_after(run, p, np, bad, s2))
		lo = hi = n;
	while (lo < hi && !stopped(run)) {
		uint64_t m = lo + (hi - lo) / b / 2 * b;

		progress_emit(run, "probing", lo, hi, t0, false);
		if (probe_test(run, m, s2 + ++step, p, bad, s2))
			lo = m + b;
		else
			hi = m;
	}
	if (stopped(run)) {
		ret = -EINTR;
		goto out;
	}
	/* the block at the edge, read as evidence: what it gives back is counted */
	if (lo < n)
		blk_block_good(run, lo, s2, true);
	run->capacity_short = lo < n;
	run->has_real_size = true;
	run->real_size = lo;
	if (lo < n) {
		run->has_first_bad = true;
		run->first_bad = lo;
	}
	run->write_s = run->read_s = secs_since(t0) / 2; /* interleaved: each half the time */
out:
	free(p);
	return ret;
}

/* A write of the chunk at off failed: the first block of it that cannot be written, block by
 * block (a device that takes no data past a point: ENOSPC, EIO). */
static uint64_t full_write_edge(struct capacity_run *run, uint64_t off, size_t len, uint64_t seed)
{
	size_t b = run->target.align, i;

	for (i = 0; i < len && !stopped(run); i += b) {
		capacity_pattern_fill(run->buf, b, off + i, seed);
		if (blk_io(run, true, off + i, b))
			break;
	}
	return off + i;
}

/* --full: every block of the device, written in order and read back. Writes that fail from a
 * point on are a device that stores less than it reports: the rest is not written, what was
 * is read back. */
static int blk_full(struct capacity_run *run, char *why, size_t whycap)
{
	uint64_t n = run->target.size, off, t0, seed = run->seed ^ 0x4444444444444444ull;
	uint64_t probe_edge = run->real_size, w0 = run->written_bytes, r0 = run->read_bytes;
	uint64_t end = n;
	int ret = 0;

	memset(&run->sectors, 0, sizeof(run->sectors));
	run->has_alias = false;
	t0 = time_now_ns();
	for (off = 0; off < n && !ret; off += CAPACITY_CHUNK) {
		size_t len = n - off < CAPACITY_CHUNK ? (size_t)(n - off) : CAPACITY_CHUNK;

		capacity_pattern_fill(run->buf, len, off, seed);
		ret = blk_io(run, true, off, len);
		if ((ret == -ENOSPC || ret == -EIO) && !stopped(run)) {
			run->has_refused = true;
			run->refused_err = ret;
			run->refused_at = end = full_write_edge(run, off, len, seed);
			run->written_bytes += end - off;
			ret = 0;
			break;
		}
		run->written_bytes += len;
		progress_emit(run, "writing", off + len, n, t0, false);
		if (stopped(run))
			return -EINTR;
	}
	if (stopped(run))
		return -EINTR;
	if (ret || (run->has_refused && !end)) {
		/* not one block taken: the device cannot be written, nothing was measured */
		ret = ret ? ret : run->refused_err;
		run->has_refused = false;
		str_fmt(why, whycap, "cannot write to it: %s", strerror(-ret));
		return ret;
	}
	/* writes the device took and then lost show in the read-back: a failed flush is not
	 * the end of the check */
	ret = blk_flush(run);
	if (ret && !run->has_refused) {
		run->has_refused = true;
		run->refused_err = ret;
		run->refused_at = n;
	}
	ret = 0;
	run->write_s = secs_since(t0);
	t0 = time_now_ns();
	for (off = 0; off < end; off += CAPACITY_CHUNK) {
		size_t len = end - off < CAPACITY_CHUNK ? (size_t)(end - off) : CAPACITY_CHUNK;

		if (blk_io(run, false, off, len))
			judge_unreadable(run, off, len);
		else
			judge(run, run->buf, len, off, seed);
		run->read_bytes += len;
		progress_emit(run, "reading", off + len, end, t0, false);
		if (stopped(run))
			return -EINTR;
	}
	run->read_s = secs_since(t0);
	/* the figures of the full pass, the edge of the probe */
	run->written_bytes -= w0;
	run->read_bytes -= r0;
	run->real_size = probe_edge;
	if (end < n) {
		/* nothing is stored from there on: the edge, whatever came back below it */
		run->capacity_short = true;
		if (!run->has_first_bad || end < run->first_bad) {
			run->has_first_bad = true;
			run->first_bad = end;
		}
	}
	if (run->has_first_bad && run->first_bad < run->real_size)
		run->real_size = run->first_bad;
	/* a flush that failed and every sector from the first bad one to the end lost: writes
	 * are lost past a point, the same fake */
	if (run->has_refused && run->has_first_bad && run->first_bad &&
	    run->sectors.changed + run->sectors.corrupted + run->sectors.overwritten ==
		    (n - run->first_bad) / CAPACITY_SECTOR)
		run->capacity_short = true;
	return 0;
}

/* ---- the run ---- */

int capacity_run_prepare(struct capacity_run *run, struct sysroot *sr,
			 const struct capacity_opts *o, char *why, size_t whycap)
{
	struct bench_target_opts to = { .destructive = o->destructive, .want_writes = true };
	struct statfs fs;
	int ret;

	memset(run, 0, sizeof(*run));
	run->target.fd_direct = run->target.fd_buffered = -1;
	run->started_at = time(NULL);
	if (o->has_seed)
		run->seed = o->seed;
	else if (getrandom(&run->seed, sizeof(run->seed), GRND_NONBLOCK) != sizeof(run->seed))
		run->seed = time_now_ns() ^ ((uint64_t)getpid() << 32);
	ret = bench_target_open(sr, o->target, &to, &run->target, why, whycap);
	if (ret)
		return ret;
	switch (run->target.kind) {
	case BENCH_TARGET_DIR:
		run->mode = CAPACITY_MODE_DIR;
		if (o->full) {
			str_fmt(why, whycap, "--full is for block devices: a directory is always "
				"filled whole");
			return -EINVAL;
		}
		if (statfs(run->target.path, &fs)) {
			ret = -errno;
			str_fmt(why, whycap, "cannot read its free space: %s", strerror(-ret));
			return ret;
		}
		if (!fs.f_blocks) {
			str_fmt(why, whycap, "its file system stores nothing (like /proc or /sys): "
				"choose a directory on the drive to verify");
			return -EROFS;
		}
		run->size_bytes = (uint64_t)fs.f_bavail * (uint64_t)fs.f_frsize;
		/* what is written there stays in RAM: a pass says nothing about a drive */
		run->in_memory = (uint32_t)fs.f_type == TMPFS_MAGIC ||
				 (uint32_t)fs.f_type == RAMFS_MAGIC;
		if (o->size && o->size < run->size_bytes)
			run->size_bytes = o->size / 4096 * 4096;
		break;
	case BENCH_TARGET_BLOCKDEV:
		if (!run->target.writable) {
			str_fmt(why, whycap, "verifying a block device overwrites it: add "
				"--destructive if nothing on it is needed");
			return -EINVAL;
		}
		if (o->size) {
			str_fmt(why, whycap, "--size is for directories: a device is probed whole");
			return -EINVAL;
		}
		run->mode = o->full ? CAPACITY_MODE_FULL : CAPACITY_MODE_PROBE;
		run->size_bytes = run->target.size;
		break;
	default:
		str_fmt(why, whycap, "not a directory or a block device");
		return -EINVAL;
	}
	if (posix_memalign(&run->buf, 4096, CAPACITY_CHUNK))
		return -ENOMEM;
	return 0;
}

int capacity_run_execute(struct capacity_run *run, const struct capacity_opts *o, char *why,
			 size_t whycap)
{
	int ret;

	if (run->mode == CAPACITY_MODE_DIR) {
		ret = dir_execute(run, o, why, whycap);
	} else {
		ret = blk_probe(run);
		if (ret && ret != -EINTR)
			str_fmt(why, whycap, "cannot probe it: %s", strerror(-ret));
		if (!ret && run->mode == CAPACITY_MODE_FULL)
			ret = blk_full(run, why, whycap);
	}
	if (ret == -EINTR || stopped(run)) {
		run->interrupted = true;
		ret = -EINTR;
	}
	if (!ret)
		run->done = true;
	decide(run);
	return ret;
}

void capacity_run_release(struct capacity_run *run)
{
	unsigned i;

	for (i = 0; run->fds && i < run->nfiles; i++) {
		if (run->fds[i] >= 0)
			close(run->fds[i]);
		if (run->fds_buffered[i] >= 0)
			close(run->fds_buffered[i]);
	}
	free(run->fds);
	free(run->fds_buffered);
	run->fds = run->fds_buffered = NULL;
	run->nfiles = 0;
	free(run->buf);
	run->buf = NULL;
	bench_target_release(&run->target);
}
