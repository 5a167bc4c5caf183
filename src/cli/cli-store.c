/* cli-store.c - opening the result store for a command, and the file helpers of history,
 * compare and report: atomic replacement of an output file, a capped read of an input file. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli-store.h"
#include "cli/cli.h"
#include "common/atomicfile.h"
#include "common/log.h"
#include "common/sbuf.h"
#include "common/util.h"
#include "cli/doctor-run.h"
#include "cli/fix-proof.h"
#include "common/paths.h"
#include "probe/probe.h"
#include "report/doctor.h"
#include "report/list.h"
#include "store/verdict.h"

int cli_store_open(const char *cmd, const char *db, enum store_mode mode, bool missing_ok,
		   struct store **st)
{
	char path[PATH_MAX], why[400];
	int ret;

	*st = NULL;
	if (!db) {
		ret = store_default_path(path, sizeof(path));
		if (ret) {
			log_error("%s: no place for the database: HOME is not set; use --db PATH",
				  cmd);
			return ret;
		}
		db = path;
	}
	ret = store_open(db, mode, 0, st, why, sizeof(why));
	if (ret && !(ret == -ENOENT && missing_ok))
		log_error("%s: database '%s': %s", cmd, db, why);
	if (!ret && store_warning(*st))
		log_warn("%s: %s", cmd, store_warning(*st));
	return ret;
}

int cli_store_error(const char *cmd, struct store *st)
{
	log_error("%s: %s", cmd, store_strerror(st));
	return EXIT_FAIL;
}

int cli_parse_run_id(const char *s, int64_t *id)
{
	if (*s == '#')
		s++;
	if (parse_s64(s, id) || *id <= 0)
		return -EINVAL;
	return 0;
}

/* The database and its companions, never to be overwritten by an output file. */
static size_t db_files(const char *db, struct stat *st, size_t max)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	char path[PATH_MAX], def[PATH_MAX];
	size_t i, n = 0;

	if (!db && !store_default_path(def, sizeof(def)))
		db = def;
	for (i = 0; db && i < ARRAY_SIZE(ext) && n < max; i++)
		if (!str_fmt(path, sizeof(path), "%s%s", db, ext[i]) && !stat(path, &st[n]))
			n++;
	return n;
}

int cli_write_file(const char *path, const char *db, int (*write)(FILE *f, void *arg),
		   void *arg)
{
	struct afile_opts o = AFILE_OPTS_INIT;
	struct stat protect[4];

	if (!strcmp(path, "-"))
		return write(stdout, arg);
	o.protect = protect;
	o.n_protect = db_files(db, protect, ARRAY_SIZE(protect));
	return afile_write_path(path, write, arg, &o);
}

const char *cli_write_strerror(int err)
{
	switch (err) {
	case -ELOOP:
		return "it is a symbolic link; name a regular file or a new one";
	case -EISDIR:
		return "it is a directory";
	case -EINVAL:
		return "it is not a regular file (a device, FIFO or socket); name a regular "
		       "file or a new one ('-' for standard output)";
	case -ETXTBSY:
		return "it is the database this command reads; name another file";
	case -ENOSPC:
		return "the disk is full (nothing was written)";
	case -EDQUOT:
		return "the disk quota is used up (nothing was written)";
	default:
		return strerror(-err);
	}
}

int cli_read_file(const char *path, size_t cap, char **buf, size_t *len)
{
	bool is_stdin = !strcmp(path, "-");
	struct sbuf sb = SBUF_INIT(cap);
	int fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return -errno;
	ret = sbuf_read_fd(&sb, fd);
	if (!is_stdin)
		close(fd);
	if (ret) {
		sbuf_release(&sb);
		return ret;
	}
	*len = sb.len;
	*buf = sbuf_detach(&sb);
	return *buf ? 0 : -ENOMEM;
}

/* The whole disk the bench target lives on, as `list` sees it, with the board facts. */
static void bench_device_facts(const struct inventory *inv, const char *disk,
			       struct json_object **dev, char *board, size_t bcap, char *kernel,
			       size_t kcap, char *boot, size_t rcap)
{
	struct blkdev *d;

	*dev = NULL;
	board[0] = kernel[0] = boot[0] = '\0';
	if (!inv)
		return;
	str_copy(board, bcap, inv->board.model);
	str_copy(kernel, kcap, inv->board.kernel);
	if (inv->root)
		str_copy(boot, rcap, inv->root->name);
	d = disk && *disk ? probe_inventory_find(inv, disk) : NULL;
	if (d)
		*dev = list_device_to_json(probe_blkdev_whole(d));
}

/* The run a bench document makes: the facts of its disk, the board, the kernel, the root
 * device and the doctor's findings at this moment (dr is the doctor's view; the caller
 * releases it). 0, or -errno with one message said. */
static int bench_run_make(struct cli_ctx *ctx, struct json_object *bench, struct doctor_run *dr,
			  struct run **out)
{
	char board[128], kernel[128], boot[128], why[300];
	struct json_object *dev = NULL, *disk = NULL, *target = NULL;
	struct run *r = NULL;
	int ret;

	*out = NULL;
	/* the doctor's view at the time: the inventory and the findings of the kernel log */
	if (doctor_run_collect(ctx, "bench", NULL, dr) != EXIT_OK)
		log_debug("store: no doctor findings: the run is saved without them");
	if (json_object_object_get_ex(bench, "target", &target) && target)
		json_object_object_get_ex(target, "disk", &disk);
	bench_device_facts(dr->probe_inv, disk ? json_object_get_string(disk) : NULL, &dev, board,
			   sizeof(board), kernel, sizeof(kernel), boot, sizeof(boot));
	ret = run_from_bench(bench, dev, board, kernel, boot, &r, why, sizeof(why));
	json_object_put(dev);
	if (ret) {
		log_error("bench: the results were not saved: %s", why);
		return ret;
	}
	if (dr->probe_inv || dr->log)
		r->findings = doctor_json_findings(&dr->findings);
	*out = r;
	return 0;
}

/* The judgement that ends a bench: what the drive's path should carry against what it did. */
static void bench_judge_print(const struct run *r)
{
	char line[400];

	if (verdict_run_line(r, line, sizeof(line)))
		return;
	putchar('\n');
	cli_wrap_print("  ", "", line);
}

int cli_bench_finish(struct cli_ctx *ctx, const char *db, struct json_object *bench, bool judge,
		     bool save, int64_t *id)
{
	return cli_bench_finish_print(ctx, db, bench, judge, save, NULL, NULL, id);
}

int cli_bench_finish_print(struct cli_ctx *ctx, const char *db, struct json_object *bench,
			   bool judge, bool save, cli_bench_print_fn print, void *arg, int64_t *id)
{
	struct doctor_run dr;
	struct store *st = NULL;
	struct run *r = NULL;
	int ret;

	*id = 0;
	ret = bench_run_make(ctx, bench, &dr, &r);
	/* the figures are printed even when no run could be made of them: without verdicts */
	if (print)
		print(r, arg);
	if (ret)
		goto out;
	if (judge)
		bench_judge_print(r);
	if (!save)
		goto out;
	/* the boot it ran in: a run in the boot a fix was written in is not after the fix */
	if (ctx->sr && sysroot_read_str(ctx->sr, PATH_PROC_BOOT_ID, r->boot_id, sizeof(r->boot_id)) < 0)
		r->boot_id[0] = '\0';
	str_sanitize(r->boot_id);
	ret = cli_store_open("bench: the results were not saved", db, STORE_WRITE, false, &st);
	if (!ret) {
		ret = store_runs_add(st, &r, 1, STORE_ADD_NEW, id, NULL);
		if (ret)
			log_error("bench: the results were not saved: %s", store_strerror(st));
		else if (!ctx->json)
			fix_proof_after_bench(ctx, st, *id, r->profile, &dr);
	}
out:
	doctor_run_release(&dr);
	store_close(st);
	run_free(r);
	return ret;
}

int cli_bench_save(struct cli_ctx *ctx, const char *db, struct json_object *bench, int64_t *id)
{
	return cli_bench_finish(ctx, db, bench, false, true, id);
}
