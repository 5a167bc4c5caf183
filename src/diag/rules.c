/* rules.c - the one table of rules and the helpers they share: each rule turns the log
 * summary and the inventory into findings with a fixed id, severity, evidence and fix. */
#include <errno.h>

#include "diag/rules.h"
#include "probe/probe.h"
#include "common/util.h"

struct diag_finding *rule_get(struct rule_ctx *ctx, const char *id, enum diag_sev sev,
				const char *device, const char *usb_id)
{
	int boot = ctx->subj ? ctx->subj->boot : ctx->log ? ctx->log->boot : 0;
	struct diag_finding *f = finding_get(ctx->out, id, sev, device, usb_id, boot);

	if (!f)
		ctx->err = -ENOMEM;
	return f;
}

struct diag_subject *rule_subject_at(struct rule_ctx *ctx, size_t i)
{
	struct diag_subject *s = ctx->log ? logsum_subject(ctx->log, i) : NULL;

	ctx->subj = s;
	return s;
}

bool rule_after_host_death(const struct rule_ctx *ctx, const struct diag_subject *s,
			   unsigned long first)
{
	unsigned long dead;

	if (!ctx->log || s->boot >= LOG_BOOTS_MAX || s->kind == SUBJ_MMC ||
	    s->kind == SUBJ_NVME || s->kind == SUBJ_PCI)
		return false;
	dead = ctx->log->host_dead_line[s->boot];
	return dead && first >= dead;
}

void rule_usb_id(const struct diag_subject *s, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (s->has_id)
		str_fmt(buf, cap, "%04x:%04x", s->vid, s->pid);
}

/* The inventory device a log subject is about, or NULL. */
const struct diag_dev *rule_inv_match(const struct rule_ctx *ctx, const struct diag_subject *s)
{
	const struct diag_inventory *inv = ctx->inv;
	const struct diag_dev *by_id = NULL;
	size_t i, n_id = 0;
	bool here;

	if (!inv)
		return NULL;
	/* disk names and USB ports only mean the same drive when the log is this system's,
	 * and only in its last boot */
	here = inv->log_is_local && s->boot == ctx->log->boot;
	for (i = 0; i < inv->n; i++) {
		const struct diag_dev *d = &inv->devs[i];
		bool same_id = s->has_id && d->has_usb && d->vid == s->vid && d->pid == s->pid;

		if (here && s->disk[0] && !strcmp(d->name, s->disk))
			return d;
		if (here && same_id && s->usb_port[0] && !strcmp(d->usb_port, s->usb_port))
			return d;
		if (same_id) {
			by_id = d;
			n_id++;
		}
	}
	/* two enclosures with one bridge (the same VID:PID) are not told apart by it */
	return n_id == 1 ? by_id : NULL;
}

/* The block device name to report: the subject's disk or its inventory device's. */
const char *rule_dev_name(const struct rule_ctx *ctx, const struct diag_subject *s)
{
	const struct diag_dev *d;

	if (s->disk[0])
		return s->disk;
	d = rule_inv_match(ctx, s);
	return d ? d->name : "";
}

/* "sda (152d:0578 at usb 2-1)" style subject for titles. */
void rule_subject_label(const struct rule_ctx *ctx, const struct diag_subject *s, char *buf,
			  size_t cap)
{
	const char *dev = rule_dev_name(ctx, s);
	char id[16];

	rule_usb_id(s, id, sizeof(id));
	if (s->disks_label[0])
		str_fmt(buf, cap, "%s (one %senclosure%s%s)", s->disks_label,
			s->kind == SUBJ_USB || id[0] ? "USB " : "", id[0] ? " " : "", id);
	else if (dev[0] && id[0])
		str_fmt(buf, cap, "%s (USB %s)", dev, id);
	else if (dev[0])
		str_fmt(buf, cap, "%s", dev);
	else if (id[0])
		str_fmt(buf, cap, "USB device %s at port %s", id, s->usb_port);
	else if (s->usb_port[0])
		str_fmt(buf, cap, "the USB device at port %s", s->usb_port);
	else if (s->ctrl[0])
		str_fmt(buf, cap, "%s", s->ctrl);
	else
		str_copy(buf, cap, "the system");
}

struct diag_finding *rule_subject_finding(struct rule_ctx *ctx, const struct diag_subject *s,
					 const char *id, enum diag_sev sev, const char **name)
{
	char usb_id[16];
	const char *n = rule_dev_name(ctx, s);

	if (!n[0])
		n = s->ctrl[0] ? s->ctrl : s->usb_port;
	rule_usb_id(s, usb_id, sizeof(usb_id));
	*name = s->disks_label[0] ? s->disks_label : n;
	return rule_get(ctx, id, sev, n, usb_id);
}

void rule_explain_bridge(struct diag_finding *f, const struct diag_subject *s)
{
	const char *b = s->has_id ? probe_bridge_name((uint16_t)s->vid, (uint16_t)s->pid) : NULL;

	if (b)
		finding_explain(f, "The bridge chip is a %s (%04x:%04x).", b, s->vid, s->pid);
	else if (s->product[0])
		finding_explain(f, "The device names itself \"%s\".", s->product);
}

const char *rule_board(const struct rule_ctx *ctx)
{
	return ctx->inv && ctx->inv->board[0] ? ctx->inv->board : ctx->log ? ctx->log->model : "";
}

bool rule_undervoltage_seen(const struct rule_ctx *ctx)
{
	return ctx->log && ctx->log->sys->cat[CAT_POWER].count > 0;
}

static const struct diag_rule {
	struct diag_rule_info info;
	void (*run)(struct rule_ctx *ctx);
} rules[] = {
	{ { "uas-errors", "uas aborts and device resets (log)" }, rule_uas_errors },
	{ { "uas-disabled", "uas not used: quirk, kernel table or host controller" },
	  rule_uas_disabled },
	{ { "uas-known-quirky", "a bridge on the kernel's UAS quirk list or ours runs on uas" },
	  rule_uas_known_quirky },
	{ { "usb-link-slow", "a USB 3 device linked at 480M or below" }, rule_usb_link_slow },
	{ { "usb-errors", "USB resets, enumeration errors, xHCI trouble" }, rule_usb_errors },
	{ { "usb-host-died", "the USB host controller died; what followed is its consequence" },
	  rule_usb_host_died },
	{ { "usb-host-failed", "a USB host controller never started (init or probe failed)" },
	  rule_usb_host_failed },
	{ { "pcie-link-degraded", "PCIe link below what both ends support" }, rule_pcie_link },
	{ { "pcie-link-limited", "PCIe link at the slot's or board's ceiling" }, NULL },
	{ { "pcie-errors", "PCIe AER reports" }, rule_pcie_errors },
	{ { "nvme-errors", "NVMe timeouts, aborts, controller down" }, rule_nvme_errors },
	{ { "mmc-errors", "SD/eMMC timeouts and errors" }, rule_mmc_errors },
	{ { "io-errors", "block I/O and file system errors" }, rule_io_errors },
	{ { "device-not-ready", "a device that never became ready" }, rule_device_not_ready },
	{ { "undervoltage", "the supply voltage dropped" }, rule_undervoltage },
	{ { "undervoltage-now", "the firmware flags under-voltage now (hwmon rpi_volt)" },
	  rule_power },
	{ { "usb-current-limited", "a Raspberry Pi 5 limits its USB ports to 600 mA in total" },
	  NULL },
	{ { "quirks-param-invalid", "usb-storage.quirks too long, repeated or malformed" },
	  rule_quirks_param_invalid },
	{ { "root-on-sd", "the system runs from SD while a faster drive is attached" },
	  rule_root_on_sd },
	{ { "run-far-below", "the drive's last bench is far below what its path carries" },
	  rule_run_far_below },
	{ { "drive-failing", "the drive reports SMART failure, critical warnings or bad sectors" },
	  rule_drive_health },
	{ { "drive-worn", "the drive has used 90 % or more of its rated life" }, NULL },
	{ { "drive-hot", "the drive runs hotter than it is rated for" }, NULL },
	{ { "drive-no-smart", "the bridge or card passes no drive health through" }, NULL },
	{ { "pcie-link-down", "a PCIe link that never trained, or a PCIe host that never started" },
	  rule_pcie_link_down },
	{ { "usb-over-current", "a USB port cut its power: over-current" },
	  rule_usb_over_current },
	{ { "nvme-apst-failed", "an NVMe drive refused its power-saving states (APST)" },
	  rule_nvme_apst },
	{ { "fs-corrupt", "a file system found damaged (at mount)" }, rule_fs_corrupt },
	{ { "boot-usb2", "the bootloader saw the USB 3 boot drive at USB 2" }, rule_boot },
	{ { "bootloader-old", "the bootloader cannot boot an attached disk that looks bootable" },
	  NULL },
	{ { "boot-partuuid-duplicate", "two attached disks share a PARTUUID or UUID" }, NULL },
	{ { "boot-order", "a bootable SSD is attached, but the boot order starts another medium" },
	  NULL },
};

const struct diag_rule_info *diag_rule_get(size_t i)
{
	return i < ARRAY_SIZE(rules) ? &rules[i].info : NULL;
}

bool diag_rule_known(const char *id)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rules); i++)
		if (!strcmp(rules[i].info.id, id))
			return true;
	return false;
}

/* A log of several boots: every finding from it says which boot, and the earlier boots'
 * say so in their title (they may be history: a drive re-plugged, a fix applied). */
static void label_boots(const struct diag_log *log, struct diag_findings *out)
{
	size_t i;

	if (!log->boot)
		return;
	for (i = 0; i < out->n; i++) {
		struct diag_finding *f = &out->v[i];
		size_t n = strlen(f->title);
		int b = f->boot < LOG_BOOTS_MAX ? f->boot : LOG_BOOTS_MAX - 1;

		if (f->n_evidence && !f->evidence[0].line)
			continue; /* from the system, not the log */
		if (f->boot == log->boot) {
			finding_explain(f, "This is from the last of the %d boots in the log (from "
					   "line %lu).", log->boot + 1, log->boot_line[b] ?
					   log->boot_line[b] : 1);
			continue;
		}
		f->earlier_boot = true;
		str_fmt(f->title + n, sizeof(f->title) - n, " (in an earlier boot)");
		finding_explain(f, "This is from boot %d of the %d in the log (from line %lu), "
				   "not the last one: it may be history.", f->boot + 1,
				log->boot + 1, log->boot_line[b] ? log->boot_line[b] : 1);
	}
}

int diag_run(struct diag_log *log, const struct diag_inventory *inv, struct diag_findings *out)
{
	struct rule_ctx ctx = { .log = log, .inv = inv, .out = out };
	size_t i;

	if (log)
		logsum_finish(log);
	/* pcie-link-limited shares its rule with pcie-link-degraded: both read the same link */
	for (i = 0; i < ARRAY_SIZE(rules) && !ctx.err; i++) {
		if (rules[i].run)
			rules[i].run(&ctx);
		ctx.subj = NULL;
	}
	if (log)
		label_boots(log, out);
	findings_sort(out);
	return ctx.err;
}

int diag_dev_counts_get(struct diag_log *log, const struct diag_inventory *inv, size_t i,
			struct diag_dev_counts *out)
{
	struct rule_ctx ctx = { .log = log, .inv = inv };
	const struct diag_subject *s;
	size_t k;

	memset(out, 0, sizeof(*out));
	if (!inv || i >= inv->n)
		return -EINVAL;
	for (k = 0; log && (s = logsum_subject(log, k)); k++) {
		if (s->boot != log->boot || rule_inv_match(&ctx, s) != &inv->devs[i])
			continue;
		/* as rule_uas_errors() counts them */
		out->uas_aborts += s->n_ev[EV_UAS_ABORT];
		out->uas_resets += s->n_ev[EV_UAS_RESET_START] + s->n_ev[EV_UAS_RESET_FAIL];
		out->io_errors += s->cat[CAT_IO].count;
	}
	return 0;
}
