/* doctor-run.c - gather the evidence for diag: the kernel log (a pasted file or /dev/kmsg,
 * never blocking), the probe inventory in diag's terms, the command line and quirks. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "boot/boot.h"
#include "cli/cli-health.h"
#include "cli/cli-store.h"
#include "cli/doctor-run.h"
#include "common/log.h"
#include "common/paths.h"
#include "common/util.h"
#include "flow/move.h"
#include "report/list.h"
#include "store/run.h"
#include "store/store.h"
#include "store/verdict.h"

static enum diag_transport transport_of(enum probe_transport t)
{
	switch (t) {
	case PROBE_TRAN_USB:
		return DIAG_T_USB;
	case PROBE_TRAN_NVME:
		return DIAG_T_NVME;
	case PROBE_TRAN_MMC:
		return DIAG_T_MMC;
	case PROBE_TRAN_SATA:
	case PROBE_TRAN_ATA:
		return DIAG_T_SATA;
	case PROBE_TRAN_UNKNOWN:
		return DIAG_T_UNKNOWN;
	default:
		return DIAG_T_OTHER;
	}
}

/* What a clone onto d would meet: the first mount point on it, the first file system. */
static void dev_target_facts(struct diag_dev *dd, const struct blkdev *d)
{
	size_t i;

	dd->size_bytes = d->has_size ? d->size_bytes : 0;
	for (i = 0; i <= d->n_children; i++) {
		const struct blkdev *c = i ? d->children[i - 1] : d;

		if (c->n_mountpoints && !dd->mounted_part[0]) {
			str_copy(dd->mounted_part, sizeof(dd->mounted_part), c->kname);
			str_copy_cut(dd->mounted_on, sizeof(dd->mounted_on), c->mountpoints[0], false);
		}
		if (c->fstype[0] && !dd->data_part[0]) {
			str_copy(dd->data_part, sizeof(dd->data_part), c->kname);
			str_copy_cut(dd->data_fs, sizeof(dd->data_fs), c->fstype, false);
		}
	}
}

static void dev_from_blkdev(struct diag_dev *dd, const struct blkdev *d, const struct blkdev *root)
{
	const struct probe_usb *u = probe_blkdev_usb(d);
	const struct probe_pcie *p = probe_blkdev_pcie(d);
	const struct probe_mmc *m = probe_blkdev_mmc(d);

	str_copy(dd->name, sizeof(dd->name), d->kname);
	dd->transport = transport_of(d->transport);
	dd->is_root = d->is_root || (root && probe_blkdev_whole((struct blkdev *)root) == d);
	dd->is_sd = m && m->type_id == PROBE_MMC_SD;
	str_copy(dd->model, sizeof(dd->model), d->model);
	dd->health = d->health;
	if (u && u->has_ids) {
		dd->has_usb = true;
		dd->vid = u->vid_num;
		dd->pid = u->pid_num;
		str_copy(dd->usb_port, sizeof(dd->usb_port), u->port);
		dd->speed_mbps = u->has_speed ? (unsigned)u->speed_mbps : 0;
		dd->version_bcd = u->has_usb_version ? u->usb_version_bcd : 0;
		dd->driver = u->driver_kind;
		str_copy(dd->bridge, sizeof(dd->bridge), u->bridge);
		dd->root_speed_mbps = u->has_root_hub_speed ? (unsigned)u->root_hub_speed_mbps : 0;
	}
	dev_target_facts(dd, d);
	if (p) {
		dd->has_pcie = true;
		str_copy(dd->pci_addr, sizeof(dd->pci_addr), p->address);
		dd->cur_gts = p->has_link_speed ? p->link_speed_gts : 0;
		dd->max_gts = p->has_max_link_speed ? p->max_link_speed_gts : 0;
		dd->port_max_gts = p->has_port_max_link_speed ? p->port_max_link_speed_gts : 0;
		dd->cur_width = p->has_link_width ? (int)p->link_width : 0;
		dd->max_width = p->has_max_link_width ? (int)p->max_link_width : 0;
		dd->port_max_width = p->has_port_max_link_width ? (int)p->port_max_link_width : 0;
	}
}

/* The fastest USB root hub of the board ("usbN/speed"), 0 when none is seen. */
static unsigned fastest_root_hub(struct sysroot *sr)
{
	unsigned best = 0;
	struct dirent *e;
	DIR *dir = NULL;

	if (sysroot_opendir(sr, PATH_SYS_BUS_USB_DEVICES, &dir))
		return 0;
	while ((e = readdir(dir))) {
		char v[32];
		double mbps;

		if (strncmp(e->d_name, "usb", 3))
			continue;
		if (sysroot_read_strf(sr, v, sizeof(v), PATH_SYS_BUS_USB_DEVICES "/%s/speed",
				      e->d_name) < 0)
			continue;
		if (!probe_usb_speed_parse(v, &mbps) && mbps > best)
			best = (unsigned)mbps;
	}
	closedir(dir);
	return best;
}

static char *read_small(struct sysroot *sr, const char *path)
{
	char *buf = malloc(SYSROOT_ATTR_MAX);

	if (buf && sysroot_read_str(sr, path, buf, SYSROOT_ATTR_MAX) < 0) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

/* The newest stored run of drive d: the same serial, else the same model and name, as the
 * store keeps every drive (USB, NVMe, SD/eMMC, SATA); a USB drive that no run names so is
 * found by its VID:PID, as imported runs without a serial name it. NULL when none. */
static struct run *latest_run(struct store *st, const struct inventory *pinv,
			      const struct diag_dev *d)
{
	const struct blkdev *b = pinv ? probe_inventory_find(pinv, d->name) : NULL;
	struct json_object *dev = b ? list_device_to_json(b) : NULL;
	struct run_list l = { 0 };
	struct run *r = NULL;
	char id[16];

	if (dev && store_run_latest_of(st, dev, &r))
		r = NULL;
	json_object_put(dev);
	if (r || !d->has_usb)
		return r;
	str_fmt(id, sizeof(id), "%04x:%04x", d->vid, d->pid);
	if (!store_runs_query(st, &(struct store_filter){ .device = id, .limit = 1 }, &l) && l.n) {
		r = l.runs[0];
		l.runs[0] = NULL;
		l.n = 0;
	}
	run_list_release(&l);
	return r;
}

/* Which drives have a bench in the result store of the system the sysroot shows (a tree's
 * own, never this machine's), and the verdict of the newest. A store that cannot be read is
 * as good as none. */
static void stored_runs(struct cli_ctx *ctx, struct doctor_run *r)
{
	struct store *st = flow_move_store_open(ctx->sr);
	size_t i;

	if (!st)
		return;
	r->last_runs = calloc(r->inv.n ? r->inv.n : 1, sizeof(*r->last_runs));
	for (i = 0; r->last_runs && i < r->inv.n; i++) {
		struct diag_dev *d = &r->inv.devs[i];
		struct doctor_last_run *lr = &r->last_runs[i];
		struct run *run = latest_run(st, r->probe_inv, d);

		if (!run)
			continue;
		d->has_stored_run = true;
		lr->id = (long long)run->id;
		lr->judged = !verdict_run(run, &lr->v);
		/* the last run far below its path is a finding of its own */
		if (lr->judged && lr->v.limit == VERDICT_PROBLEM &&
		    !verdict_run_line(run, d->last_run_line, sizeof(d->last_run_line))) {
			d->last_run_far = true;
			d->last_run_id = lr->id;
		}
		run_free(run);
	}
	store_close(st);
}

static int collect_inventory(struct cli_ctx *ctx, const char *cmd, struct doctor_run *r)
{
	struct inventory *inv = NULL;
	size_t i, n = 0;
	int ret;

	r->cmdline = read_small(ctx->sr, PATH_PROC_CMDLINE);
	r->quirks = read_small(ctx->sr, PATH_USB_STORAGE_QUIRKS);
	r->inv.cmdline = r->cmdline;
	r->inv.quirks_param = r->quirks;
	probe_power_read(ctx->sr, &r->power);
	r->inv.power = &r->power;
	ret = probe_inventory_load(ctx->sr, &inv);
	if (ret == -ENOENT)
		return 0; /* no devices in this tree: the log alone */
	if (ret) {
		log_error("%s: cannot read the block devices below '%s': %s", cmd,
			  sysroot_dir(ctx->sr), strerror(-ret));
		return EXIT_FAIL;
	}
	r->probe_inv = inv;
	r->src.have_inventory = true;
	if (inv->n_left_out)
		log_warn("%s: only the first %d block devices were read; %zu more entries were left "
			 "out (a hostile or broken /sys?): what follows does not cover them", cmd,
			 PROBE_DEVICES_MAX, inv->n_left_out);
	cli_health_load(ctx, inv, cmd);
	r->inv.devs = calloc(inv->n_top ? inv->n_top : 1, sizeof(*r->inv.devs));
	if (!r->inv.devs) {
		log_error("%s: out of memory", cmd);
		return EXIT_FAIL;
	}
	for (i = 0; i < inv->n_top; i++) {
		const struct blkdev *d = inv->top[i];

		if (strcmp(d->type, "disk") || d->transport == PROBE_TRAN_LOOP ||
		    d->transport == PROBE_TRAN_ZRAM)
			continue;
		dev_from_blkdev(&r->inv.devs[n++], d, inv->root);
	}
	r->inv.n = n;
	r->src.n_devices = n;
	stored_runs(ctx, r);
	str_copy(r->inv.board, sizeof(r->inv.board), inv->board.model);
	r->inv.fastest_usb_root_mbps = fastest_root_hub(ctx->sr);
	for (i = 0; i < n; i++)
		if (r->inv.devs[i].root_speed_mbps > r->inv.fastest_usb_root_mbps)
			r->inv.fastest_usb_root_mbps = r->inv.devs[i].root_speed_mbps;
	return 0;
}

/* The boot facts and a boot check of every disk, for the boot-* findings. Unknown facts are
 * no error; only memory is. */
static int collect_boot(struct cli_ctx *ctx, const char *cmd, struct doctor_run *r)
{
	size_t i;
	int ret;

	r->boot = calloc(1, sizeof(*r->boot));
	r->boot_checks = calloc(1, sizeof(*r->boot_checks));
	if (!r->boot || !r->boot_checks) {
		log_error("%s: out of memory", cmd);
		return EXIT_FAIL;
	}
	ret = boot_facts_read(ctx->sr, r->probe_inv, r->boot);
	for (i = 0; !ret && i < r->probe_inv->n_top; i++)
		if (boot_disk_is_candidate(r->probe_inv->top[i]))
			ret = boot_check_disk(ctx->sr, r->probe_inv, r->boot,
					      r->probe_inv->top[i], r->boot_checks);
	if (ret) {
		log_error("%s: reading the boot facts: %s", cmd, strerror(-ret));
		return EXIT_FAIL;
	}
	r->inv.boot = r->boot;
	r->inv.boot_checks = r->boot_checks;
	return 0;
}

static int collect_log_file(const char *cmd, const char *file, struct doctor_run *r)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "re") : stdin;
	struct stat st;
	int ret;

	if (!f) {
		log_error("%s: cannot read '%s': %s", cmd, file, strerror(errno));
		return EXIT_FAIL;
	}
	if (fstat(fileno(f), &st) || S_ISDIR(st.st_mode)) {
		log_error("%s: cannot read '%s': %s", cmd, file, strerror(EISDIR));
		ret = EXIT_FAIL;
		goto out;
	}
	ret = diag_log_parse_file(r->log, f);
	if (ret) {
		log_error("%s: cannot read '%s': %s", cmd, file, strerror(-ret));
		ret = EXIT_FAIL;
		goto out;
	}
	r->src.log_name = strcmp(file, "-") ? file : "standard input";
out:
	if (f != stdin)
		fclose(f);
	return ret;
}

static void collect_log_kmsg(struct cli_ctx *ctx, struct doctor_run *r)
{
	int fd = sysroot_open_fd(ctx->sr, PATH_DEV_KMSG, O_RDONLY | O_NONBLOCK);
	int ret;

	if (fd == -EPERM || fd == -EACCES) {
		/* the usual case of a user's shell: the log's errors are the most common finding */
		str_fmt(r->log_problem, sizeof(r->log_problem), "cannot open %s: %s; run as root "
			"(sudo) to read it, or pass a saved log with --kmsg FILE", PATH_DEV_KMSG,
			strerror(-fd));
		r->src.log_problem = r->log_problem;
		diag_log_free(r->log);
		r->log = NULL;
		return;
	}
	if (fd < 0) {
		str_fmt(r->log_problem, sizeof(r->log_problem), "cannot open %s: %s; pass a saved "
			"log with --kmsg FILE", PATH_DEV_KMSG, strerror(-fd));
		r->src.log_problem = r->log_problem;
		diag_log_free(r->log);
		r->log = NULL;
		return;
	}
	ret = diag_log_parse_fd(r->log, fd);
	close(fd);
	if (ret) {
		str_fmt(r->log_problem, sizeof(r->log_problem), "reading %s: %s", PATH_DEV_KMSG,
			strerror(-ret));
		r->src.log_problem = r->log_problem;
		return;
	}
	r->src.log_name = PATH_DEV_KMSG;
	r->inv.log_is_local = true;
}

int doctor_run_collect(struct cli_ctx *ctx, const char *cmd, const char *kmsg_file,
		       struct doctor_run *r)
{
	int ret;

	memset(r, 0, sizeof(*r));
	if (collect_inventory(ctx, cmd, r))
		return EXIT_FAIL;
	if (r->probe_inv && collect_boot(ctx, cmd, r))
		return EXIT_FAIL;
	ret = diag_log_new(&r->log);
	if (ret) {
		log_error("%s: %s", cmd, strerror(-ret));
		return EXIT_FAIL;
	}
	if (kmsg_file) {
		if (collect_log_file(cmd, kmsg_file, r))
			return EXIT_FAIL;
	} else {
		collect_log_kmsg(ctx, r);
	}
	if (r->log)
		r->src.log_lines = diag_log_lines(r->log);
	if (r->log)
		r->src.log_unrecognised = diag_log_unrecognised(r->log, &r->src.log_nonblank);
	ret = diag_run(r->log, r->src.have_inventory || r->cmdline ? &r->inv : NULL, &r->findings);
	if (ret) {
		log_error("%s: %s", cmd, strerror(-ret));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

void doctor_run_release(struct doctor_run *r)
{
	diag_findings_release(&r->findings);
	diag_log_free(r->log);
	probe_inventory_free(r->probe_inv);
	free(r->inv.devs);
	free(r->last_runs);
	free(r->cmdline);
	free(r->quirks);
	if (r->boot)
		boot_facts_release(r->boot);
	free(r->boot);
	if (r->boot_checks)
		boot_checks_release(r->boot_checks);
	free(r->boot_checks);
	memset(r, 0, sizeof(*r));
}
