/* move-tryboot.c - move's trial boot through the firmware's tryboot: two files beside
 * config.txt on the running boot partition (boot/boot.h says what the firmware does with
 * them), through the project's atomic writer with backups, as fix writes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boot/boot.h"
#include "common/atomicfile.h"
#include "common/bootcfg-eval.h"
#include "common/bootloc.h"
#include "common/paths.h"
#include "common/util.h"
#include "fix/bootfile.h"
#include "fix/diff.h"
#include "fix/msgs.h"
#include "flow/move.h"

#define TRYBOOT_FILE_MAX (64 * 1024)

struct tb_file {
	struct boot_file bf;
	bool exists;
	const struct sbuf *want;
	char backup[256];
};

/* The file name in dir: its old contents when it is there, the diff to want. */
static int tb_read(struct sysroot *sr, const char *dir, const char *name, struct tb_file *f,
		   struct sbuf *diff, char *why, size_t cap)
{
	struct fix_msgs m = { 0 };
	char path[PATH_MAX];
	int ret;

	if (str_fmt(path, sizeof(path), "%s/%s", dir, name))
		return -ENAMETOOLONG;
	ret = boot_file_read(sr, path, TRYBOOT_FILE_MAX, &f->bf, &m);
	f->exists = !ret;
	if (ret == -ENOENT) {
		str_copy(f->bf.path, sizeof(f->bf.path), path);
		str_copy(f->bf.dir, sizeof(f->bf.dir), dir);
		str_copy(f->bf.name, sizeof(f->bf.name), name);
		f->bf.mode = 0;
		f->bf.uid = (uid_t)-1;
		f->bf.gid = (gid_t)-1;
	} else if (ret) {
		str_fmt(why, cap, "cannot read '%s': %s", path, m.why);
		return ret;
	}
	return diff_unified(sbuf_str(&f->bf.data), f->bf.data.len, sbuf_str(f->want),
			    f->want->len, f->exists ? path : PATH_DEV_NULL, path, diff);
}

static int tb_write(struct sysroot *sr, const char *dir, struct tb_file *f, size_t n,
		    char *why, size_t cap)
{
	int dfd, ret = 0;
	size_t i;

	dfd = boot_dir_open(sr, dir);
	if (dfd < 0) {
		str_fmt(why, cap, "cannot open '%s': %s", dir, strerror(-dfd));
		return dfd;
	}
	ret = afile_lock(dfd, false);
	if (ret)
		str_fmt(why, cap, "'%s': %s", dir, ret == -EBUSY ? "another sbcdisk is changing "
				  "the files there" : strerror(-ret));
	for (i = 0; i < n && !ret; i++) {
		ret = boot_file_commit(dfd, sr, &f[i].bf, sbuf_str(f[i].want), f[i].want->len,
				       f[i].exists ? sbuf_str(&f[i].bf.data) : NULL,
				       f[i].bf.data.len, f[i].backup, sizeof(f[i].backup));
		if (ret)
			str_fmt(why, cap, "cannot write '%s': %s%s", f[i].bf.path, strerror(-ret),
				i ? " (the command line file was written; tryboot.txt was not, so "
				    "no trial is set up)" : "");
	}
	close(dfd);
	return ret;
}

/* The trial boot reads tryboot.txt (config.txt and the trial's lines) with [tryboot] holding
 * (docs/config-txt.md): an os_prefix set there moves the trial's command line file, which is
 * written beside config.txt; an autoboot.txt decides for itself. 0, or -EINVAL with why. */
static int trial_prefix_check(struct sysroot *sr, const struct boot_loc *loc, char *why,
			      size_t cap)
{
	struct config_eval *ev = malloc(sizeof(*ev));
	struct config_board b = loc->board;
	struct config_source_dir d;
	struct config_source src;
	char msg[256];
	int ret;

	if (!ev)
		return -ENOMEM;
	/* autoboot.txt picks the partition a tryboot starts from, and with tryboot_a_b=1 the
	 * firmware reads config.txt there, not tryboot.txt (docs/config-txt.md) */
	if (str_fmt(msg, sizeof(msg), "%s/autoboot.txt", loc->fw_dir) ||
	    sysroot_exists(sr, msg)) {
		str_fmt(why, cap, "the boot partition holds autoboot.txt (the firmware's A/B "
			"partition switch): its [tryboot] section, not tryboot.txt, decides what a "
			"tryboot starts");
		free(ev);
		return -EINVAL;
	}
	b.tryboot = true;
	config_source_dir_init(&src, &d, sr, loc->fw_dir);
	ret = config_eval(&src, &b, ev);
	if (ret) {
		config_eval_explain(ev, ret, msg, sizeof(msg));
		str_fmt(why, cap, "for the trial boot, %s", msg);
		ret = -EINVAL;
	} else if (ev->os_prefix.value[0]) {
		str_fmt(why, cap, "config.txt sets os_prefix for the trial boot (%s line %u, under "
			"a [tryboot] the trial boot meets)", ev->os_prefix.file, ev->os_prefix.line);
		ret = -EINVAL;
	}
	free(ev);
	return ret;
}

int flow_move_trial_make(struct sysroot *sr, const char *kernel, const char *root, bool apply,
			 struct flow_move_trial *t, char *why, size_t cap)
{
	struct sbuf tryboot = SBUF_INIT(TRYBOOT_FILE_MAX), trial = SBUF_INIT(TRYBOOT_FILE_MAX);
	struct sbuf diff = SBUF_INIT(TRYBOOT_FILE_MAX);
	struct tb_file f[2] = { { .want = &trial }, { .want = &tryboot } };
	struct fix_msgs m = { 0 };
	struct boot_file cmdline = { 0 }, config = { 0 };
	struct boot_loc loc;
	size_t i;
	int ret;

	memset(t, 0, sizeof(*t));
	sbuf_init(&t->diff, 4 * TRYBOOT_FILE_MAX);
	ret = boot_locate(sr, &loc, &m);
	if (ret) {
		str_copy(why, cap, m.why);
		goto out;
	}
	/* loc.cmdline is the file the firmware reads on this board (config.txt's filters and
	 * includes followed); the trial's cmdline=, last and under [all], overrides a cmdline=
	 * of config.txt, but an os_prefix would move the trial file: not worked out here */
	if (loc.prefix[0]) {
		str_copy(why, cap, "config.txt sets os_prefix");
		ret = -EINVAL;
		goto out;
	}
	ret = trial_prefix_check(sr, &loc, why, cap);
	if (ret)
		goto out;
	ret = boot_file_read(sr, loc.cmdline, TRYBOOT_FILE_MAX, &cmdline, &m);
	if (ret) {
		str_fmt(why, cap, "cannot read '%s': %s", loc.cmdline, m.why);
		goto out;
	}
	ret = boot_file_read(sr, loc.config, TRYBOOT_FILE_MAX, &config, &m);
	if (ret) {
		str_fmt(why, cap, "cannot read '%s': %s", loc.config, m.why);
		goto out;
	}
	ret = boot_tryboot_files(sbuf_str(&cmdline.data), cmdline.data.len,
				 sbuf_str(&config.data), config.data.len, root,
				 boot_tryboot_rootwait(kernel), &tryboot, &trial);
	if (ret) {
		str_fmt(why, cap, "'%s' is not one line with a root=", loc.cmdline);
		goto out;
	}
	/* the command line file first: tryboot.txt, written last, is what makes the trial */
	str_copy(t->fw_dir, sizeof(t->fw_dir), loc.fw_dir);
	for (i = 0; i < 2 && !ret; i++) {
		ret = tb_read(sr, loc.fw_dir, i ? BOOT_TRYBOOT_FILE : BOOT_TRYBOOT_CMDLINE, &f[i],
			      &diff, why, cap);
		if (!ret)
			ret = sbuf_add(&t->diff, sbuf_str(&diff), diff.len);
	}
	if (ret || !apply)
		goto out;
	ret = tb_write(sr, loc.fw_dir, f, 2, why, cap);
	for (i = 0; i < 2; i++)
		str_copy(t->backup[i], sizeof(t->backup[i]), f[i].backup);
	t->written = !ret;
out:
	for (i = 0; i < 2; i++)
		boot_file_release(&f[i].bf);
	boot_file_release(&cmdline);
	boot_file_release(&config);
	sbuf_release(&tryboot);
	sbuf_release(&trial);
	sbuf_release(&diff);
	return ret;
}

void flow_move_trial_release(struct flow_move_trial *t)
{
	sbuf_release(&t->diff);
}
