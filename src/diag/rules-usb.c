/* rules-usb.c - the USB rules: UAS errors, UAS disabled, bridges known for UAS trouble,
 * USB 3 devices at USB 2 speed, USB resets and xHCI trouble. */
#include <ctype.h>

#include "diag/rules.h"
#include "diag/uas-quirks.h"
#include "common/usbquirks.h"
#include "common/util.h"

static bool behind_hub(const struct diag_subject *s)
{
	/* a Pi 4's USB 2 ports are all behind the board's own hub at 1-1 */
	return strchr(s->usb_port, '.') && strncmp(s->usb_port, "1-1.", 4);
}

/* The drive of the inventory with this "vid:pid", NULL when none. */
static const struct diag_dev *dev_of_usb_id(const struct rule_ctx *ctx, const char *usb_id)
{
	char id[16];
	size_t i;

	for (i = 0; ctx->inv && i < ctx->inv->n; i++) {
		const struct diag_dev *d = &ctx->inv->devs[i];

		str_fmt(id, sizeof(id), "%04x:%04x", d->vid, d->pid);
		if (d->has_usb && !strcmp(id, usb_id))
			return d;
	}
	return NULL;
}

/* The quirk through sbcdisk fix uas; when strong (errors seen), a bench first where none is
 * stored, so that `fix verify` can compare the drive before and after the reboot. */
static void fix_uas(const struct rule_ctx *ctx, struct diag_finding *f, const char *usb_id,
		    bool strong)
{
	const struct diag_dev *d = usb_id[0] ? dev_of_usb_id(ctx, usb_id) : NULL;
	bool bench = strong && d && !d->has_stored_run;
	char buf[700];

	if (usb_id[0]) {
		str_fmt(buf, sizeof(buf),
			"%s%sell the kernel to use usb-storage instead of uas for this bridge: add "
			"%s:u to usb-storage.quirks in cmdline.txt (`sbcdisk fix uas %s` shows the "
			"change, with --apply it writes it), then reboot or re-plug the drive.%s",
			bench ? "No run of this drive is stored: measure it first (the first "
				"command), so that the fix can be proven. Then t" : "",
			bench ? "" : strong ? "T" : "Only if you see resets or errors: t", usb_id,
			usb_id, strong ? " After the reboot, measure it again and compare the runs "
					 "before and after the fix with `sbcdisk fix verify`." : "");
		finding_fix(f, buf);
		if (bench)
			finding_fix_cmd(f, "sbcdisk bench /dev/%s", d->name);
		finding_fix_cmd(f, "sbcdisk fix uas %s", usb_id);
		if (strong) {
			finding_fix_cmd(f, "sbcdisk fix uas %s --apply", usb_id);
			finding_fix_cmd(f, "sbcdisk fix verify --device %s", usb_id);
		}
	} else {
		finding_fix(f, "The log does not show the bridge's USB id. On the machine with the "
			       "drive, find it with `sbcdisk list` or `lsusb` (VID:PID), then run "
			       "`sbcdisk fix uas VID:PID --apply` to add VID:PID:u to "
			       "usb-storage.quirks in cmdline.txt, and reboot; after the reboot "
			       "`sbcdisk fix verify` compares the drive's runs before and after.");
	}
}

/* Where the UAS quirk data knows the device from, in one sentence. */
static void explain_quirk_entry(struct diag_finding *f, const struct uas_quirk_entry *q,
				const char *id)
{
	char flags[160], name[96];
	size_t n;

	char product[64];

	str_copy(product, sizeof(product), q->product);
	n = strlen(product);
	if (n >= 6 && !strcmp(product + n - 6, "(rule)"))
		product[n - 6] = '\0';
	str_trim(product);
	/* "Realtek RTL9210 (HIKSEMI MD202 only)" already names its MD202: not twice */
	str_fmt(name, sizeof(name), "%s%s%s", q->vendor,
		product[0] && !strstr(q->vendor, product) ? " " : "",
		product[0] && !strstr(q->vendor, product) ? product : "");
	if (q->status == UASQ_RULE) {
		finding_explain(f, "%s (%s) falls under a rule in the kernel's uas-detect.h that "
				   "keeps some of these chips off uas; the kernel left this one on "
				   "uas.", id, name);
		return;
	}
	usbq_flags_decode(q->flags, flags, sizeof(flags));
	finding_explain(f, "%s (%s) is on %s%s%s%s", id, name, uas_quirk_status_name(q->status),
			q->flags ? " with " : "", q->flags ? flags : "",
			!(q->flags & US_FL_IGNORE_UAS) ? ", which does not keep it off uas." :
			q->status == UASQ_MAINLINE ? "." : ", which this kernel does not have.");
}

void rule_uas_errors(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_UAS];
		const struct uas_quirk_entry *q;
		struct diag_finding *f;
		const struct diag_dev *d;
		char id[16], label[96];
		unsigned long aborts = s->n_ev[EV_UAS_ABORT];
		unsigned long resets = logsum_uas_resets(s);
		bool fixed;

		if (!c->count || rule_after_host_death(ctx, s, c->first_line))
			continue;
		rule_usb_id(s, id, sizeof(id));
		d = rule_inv_match(ctx, s);
		if (!id[0] && d && d->has_usb)
			str_fmt(id, sizeof(id), "%04x:%04x", d->vid, d->pid);
		rule_subject_label(ctx, s, label, sizeof(label));
		/* the drive is on usb-storage now: the errors are history, the cure is in */
		fixed = d && d->driver == USB_DRIVER_STORAGE;
		f = rule_get(ctx, "uas-errors", fixed ? DIAG_WARNING : DIAG_ERROR,
			     rule_dev_name(ctx, s), id);
		if (!f)
			return;
		finding_title(f, "%s: UAS commands time out and the drive is reset", label);
		if (resets)
			finding_explain(f, "The uas driver aborted %lu command%s and reset the drive "
					   "%lu time%s (%lu line%s).", aborts, aborts == 1 ? "" : "s",
					resets, resets == 1 ? "" : "s", c->count,
					c->count == 1 ? "" : "s");
		else
			finding_explain(f, "The uas driver aborted %lu command%s (%lu line%s).",
					aborts, aborts == 1 ? "" : "s", c->count,
					c->count == 1 ? "" : "s");
		finding_explain(f, "This is the well-known failure of USB-SATA/NVMe bridges whose "
				   "UAS firmware is buggy: every abort stalls the disk for about 30 "
				   "seconds, and under load the drive can drop off or corrupt writes. "
				   "The usual cure is the IGNORE_UAS quirk ('u'), which makes the "
				   "kernel use the older usb-storage driver for this bridge: random I/O "
				   "gets slower, sequential speed stays close, and the resets stop.");
		if (s->n_ev[EV_UAS_ABORT] && s->uas_write_aborts == s->n_ev[EV_UAS_ABORT])
			finding_explain(f, "The aborted commands were writes: data may not have "
					   "reached the disk.");
		if (s->n_ev[EV_UAS_CMD_ERR] || s->n_ev[EV_UAS_DATA_ERR])
			finding_explain(f, "USB transfer errors (-71 protocol, -75 babble) point to "
					   "the link as well: try another cable and port.");
		rule_explain_bridge(f, s);
		q = s->has_id ? uas_quirk_find(s->vid, s->pid) : NULL;
		if (q && !q->any_pid)
			explain_quirk_entry(f, q, id);
		if (behind_hub(s))
			finding_explain(f, "The drive sits behind a hub (port %s): plug it straight "
					   "into the board, or use a hub with its own power supply.",
					s->usb_port);
		if (rule_undervoltage_seen(ctx))
			finding_explain(f, "The board also reported under-voltage: a weak power "
					   "supply causes exactly these resets, so fix the power first.");
		finding_evidence_cat(f, c);
		if (fixed) {
			finding_explain(f, "The drive is now on usb-storage, so a quirk is already in "
					   "effect; these errors are from before it.");
			finding_fix(f, "Nothing to add: UAS is off for this drive. If errors come "
				       "back on usb-storage, check the power supply and the cable.");
		} else {
			fix_uas(ctx, f, id, true);
		}
	}
}

/* A drive on usb-storage whose id the running kernel's quirks list marks 'u'. */
static void uas_disabled_inventory(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	size_t i;

	for (i = 0; inv && inv->quirks_param && i < inv->n; i++) {
		const struct diag_dev *d = &inv->devs[i];
		struct usb_id uid = { (uint16_t)d->vid, (uint16_t)d->pid };
		struct diag_finding *f;
		char id[16];

		if (!d->has_usb || d->driver != USB_DRIVER_STORAGE ||
		    usbq_list_has(inv->quirks_param, strlen(inv->quirks_param), uid,
				    USBQ_FLAG_IGNORE_UAS) <= 0)
			continue;
		str_fmt(id, sizeof(id), "%04x:%04x", d->vid, d->pid);
		f = rule_get(ctx, "uas-disabled", DIAG_INFO, d->name, id);
		if (!f)
			return;
		if (!f->title[0]) {
			finding_title(f, "%s (USB %s): uas is not used, usb-storage is", d->name, id);
			finding_explain(f, "The running kernel's usb-storage.quirks list gives this "
					   "device the 'u' flag (IGNORE_UAS), so usb-storage drives "
					   "it. This is the usual cure for bridges with UAS trouble; it "
					   "costs some random-I/O speed.");
		}
		finding_evidence_fact(f, "usb-storage quirks parameter: %s", inv->quirks_param);
		finding_evidence_fact(f, "%s: USB %s at port %s, driver usb-storage", d->name, id,
				      d->usb_port);
	}
}

/* The quirks parameter seen (the logged command line, the running system's) names id. */
static bool quirks_name_id(const struct rule_ctx *ctx, const char *id)
{
	if (!id[0])
		return false;
	if (ctx->log && strcasestr(ctx->log->cmdline_quirks, id))
		return true;
	return ctx->inv && ctx->inv->quirks_param && strcasestr(ctx->inv->quirks_param, id);
}

/*
 * The live log says UAS is ignored for the device, but usb-storage never took it (no
 * "Quirks match", no usb-storage SCSI host) and no disk of the running system sits at its
 * port: a device with no Bulk-Only interface (a UAS-only bridge) is left without a driver.
 * Only for this system's own log, whose devices the inventory holds.
 */
static bool uas_off_no_driver(const struct rule_ctx *ctx, const struct diag_subject *s)
{
	const struct diag_inventory *inv = ctx->inv;
	size_t i;

	if (!inv || !inv->log_is_local || !s->uas_ignored || !s->usb_port[0] ||
	    s->driver == USB_DRIVER_STORAGE || s->has_quirk_flags)
		return false;
	for (i = 0; i < inv->n; i++)
		if (inv->devs[i].has_usb && !strcmp(inv->devs[i].usb_port, s->usb_port))
			return false;
	return true;
}

void rule_uas_disabled(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		struct diag_finding *f;
		char id[16], label[96], flags[512];
		const struct uas_quirk_entry *q;

		if (!s->cat[CAT_UASOFF].count || s->gone)
			continue;
		rule_usb_id(s, id, sizeof(id));
		rule_subject_label(ctx, s, label, sizeof(label));
		f = rule_get(ctx, "uas-disabled", DIAG_INFO, rule_dev_name(ctx, s), id);
		if (!f)
			return;
		if (uas_off_no_driver(ctx, s)) {
			finding_title(f, "%s: uas is ignored and usb-storage did not take it: "
					 "its disk is gone", label);
			finding_explain(f, "The kernel was told to ignore UAS for this device, but "
					   "usb-storage did not take it either: the device offers no "
					   "Bulk-Only interface, so no driver drives it and its disk "
					   "is not there. Take %s:u out of usb-storage.quirks (sbcdisk "
					   "fix undo, if a fix put it there) and reboot.", id);
			finding_evidence_cat(f, &s->cat[CAT_UASOFF]);
			continue;
		}
		finding_title(f, "%s: uas is not used, usb-storage is", label);
		if (s->uas_unsupported) {
			finding_explain(f, "The USB host controller lacks what uas needs (bulk "
					   "streams or scatter-gather), as on the Raspberry Pi 1-3, so "
					   "the kernel uses usb-storage. Nothing to fix.");
		} else {
			q = s->has_id ? uas_quirk_find(s->vid, s->pid) : NULL;
			if (s->has_quirk_flags) {
				usbq_flags_explain(s->quirk_flags, flags, sizeof(flags));
				finding_explain(f, "The kernel was told to ignore UAS for this device "
						   "(%s).", flags);
			} else {
				finding_explain(f, "The kernel was told to ignore UAS for this "
						   "device.");
			}
			if (q && !q->any_pid && (q->flags & US_FL_IGNORE_UAS) &&
			    q->status <= UASQ_RULE)
				finding_explain(f, "IGNORE_UAS comes from %s.",
						uas_quirk_status_name(q->status));
			else if (quirks_name_id(ctx, id))
				finding_explain(f, "The usb-storage.quirks parameter names this "
						   "device: IGNORE_UAS comes from there.");
			else
				finding_explain(f, "Our copy of the kernel's table does not list "
						   "IGNORE_UAS for it, so it comes from usb-storage.quirks "
						   "(the 'u' flag, on the kernel command line or in "
						   "modprobe.d) or from the table of a newer kernel: the log "
						   "alone cannot tell which.");
			finding_explain(f, "This is the usual cure for bridges with UAS trouble; "
					   "it costs some random-I/O speed.");
		}
		finding_evidence_cat(f, &s->cat[CAT_UASOFF]);
	}
	uas_disabled_inventory(ctx);
}

/*
 * A USB 3 device linked at high speed shows its USB 2 descriptor, bcdUSB 2.10, not 3.00; so a
 * 2.10 device counts as USB 3 capable when it is a UAS device or a bridge we know.
 */
static bool dev_usb3_capable(const struct diag_dev *d)
{
	const struct uas_quirk_entry *q = uas_quirk_find(d->vid, d->pid);

	if (d->version_bcd >= 0x0300 || d->bridge_usb3)
		return true;
	return d->version_bcd >= 0x0210 &&
	       (d->driver == USB_DRIVER_UAS || (q && !q->any_pid) || d->bridge[0]);
}

static bool bridge_known_usb3(const struct diag_subject *s, const struct diag_dev *d)
{
	const struct uas_quirk_entry *q;

	if (d && dev_usb3_capable(d))
		return true;
	if (s->driver == USB_DRIVER_UAS)
		return true; /* UAS bridges are USB 3 bridges */
	q = s->has_id ? uas_quirk_find(s->vid, s->pid) : NULL;
	return q && !q->any_pid;
}

/* A bridge known for UAS trouble that runs on uas now: on a USB 3 port it is likely to fail
 * (report 000), so its quirk goes where it will be read first. */
static bool quirky_on_uas(const struct diag_dev *d)
{
	const struct uas_quirk_entry *q;

	if (!d || !d->has_usb || d->driver != USB_DRIVER_UAS)
		return false;
	q = uas_quirk_find(d->vid, d->pid);
	return d->bridge_uas_trouble || (q && !q->any_pid);
}

static void link_slow_text(const struct rule_ctx *ctx, struct diag_finding *f, const char *label,
			   unsigned speed, const char *port, const struct diag_dev *d)
{
	bool pi4 = strstr(rule_board(ctx), "Raspberry Pi 4") != NULL;
	char first[600] = "";

	finding_title(f, "%s: a USB 3 device runs at USB 2 speed (%u Mbit/s)", label, speed);
	finding_explain(f, "The device can do USB 3 (5000 Mbit/s or more) but its link trained "
			   "at %u Mbit/s, which caps it near 35-40 MB/s.", speed);
	finding_explain(f, "It is in a USB 2 port%s, behind a USB 2 hub, or on a USB 2 cable.",
			pi4 ? " (on a Raspberry Pi 4 the black ports; the blue ones are USB 3)" : "");
	if (pi4 && port && !strncmp(port, "1-1.", 4))
		finding_explain(f, "Port %s is behind the board's USB 2 hub.", port);
	if (quirky_on_uas(d)) {
		/* the quirk first, in the drive's own cmdline.txt: on USB 3 this bridge tends
		 * to fail on uas, and a drive that is to boot reads only its own file */
		finding_explain(f, "Its bridge is known for UAS trouble, which shows at USB 3 "
				   "speed: give it the usb-storage quirk before the move, in the "
				   "drive's own cmdline.txt (the running system's file does not count "
				   "when the board boots from the drive).");
		if (d->is_root)
			str_fmt(first, sizeof(first), "First add %04x:%04x:u to usb-storage.quirks "
				"in its cmdline.txt (`sbcdisk fix uas %04x:%04x` shows the change, "
				"--apply writes it). Then: ", d->vid, d->pid, d->vid, d->pid);
		else
			str_fmt(first, sizeof(first), "First add %04x:%04x:u to usb-storage.quirks "
				"in the drive's own cmdline.txt (`sbcdisk fix uas %04x:%04x --disk %s` "
				"shows the change, --apply writes it), and with --now to the running "
				"kernel's list if you keep using it from here. Then: ", d->vid, d->pid,
				d->vid, d->pid, d->name);
	}
	{
		char fix[1200];

		size_t n = strlen(first);

		str_fmt(fix, sizeof(fix), "%s%s", first, pi4 ?
			"Plug the drive straight into a USB 3 (blue) port with a USB 3 cable, then "
			"check with `sbcdisk list`: its ATTACHMENT then reads usb3 (5000M)." :
			strstr(rule_board(ctx), "Raspberry Pi 5") ?
			"Plug the drive straight into one of the blue USB 3 ports with a USB 3 "
			"cable, then check with `sbcdisk list`: its ATTACHMENT then reads usb3 "
			"(5000M)." :
			"Plug the drive straight into a USB 3 port (blue, or marked SS) with a USB 3 "
			"cable, then check with `sbcdisk list`: its ATTACHMENT then reads usb3 "
			"(5000M).");
		if (n) /* "Then: plug ..." */
			fix[n] = (char)tolower((unsigned char)fix[n]);
		finding_fix(f, fix);
	}
	if (quirky_on_uas(d) && d->is_root)
		finding_fix_cmd(f, "sbcdisk fix uas %04x:%04x", d->vid, d->pid);
	else if (quirky_on_uas(d))
		finding_fix_cmd(f, "sbcdisk fix uas %04x:%04x --disk %s", d->vid, d->pid, d->name);
	finding_fix_cmd(f, "sbcdisk list");
}

void rule_usb_link_slow(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	struct diag_subject *s;
	size_t i, j;

	for_each_subject(ctx, s, i) {
		const struct diag_dev *d = rule_inv_match(ctx, s);
		struct diag_finding *f;
		char id[16], label[96];
		bool later_fast = false;

		if (s->kind != SUBJ_USB || s->is_hub || !s->has_id || !s->speed_mbps ||
		    s->speed_mbps > USB_SPEED_HIGH_MBPS || !bridge_known_usb3(s, d))
			continue;
		/* the same device enumerated later on a fast port makes this one history */
		for (j = i + 1; logsum_subject(ctx->log, j); j++) {
			const struct diag_subject *t = logsum_subject(ctx->log, j);

			if (t->has_id && t->vid == s->vid && t->pid == s->pid &&
			    t->speed_mbps > USB_SPEED_HIGH_MBPS)
				later_fast = true;
		}
		/* what the drive runs at now outranks the log: another enclosure of the same
		 * bridge may be the one that came up fast */
		if (d ? d->speed_mbps > USB_SPEED_HIGH_MBPS : later_fast)
			continue;
		rule_usb_id(s, id, sizeof(id));
		rule_subject_label(ctx, s, label, sizeof(label));
		f = rule_get(ctx, "usb-link-slow", DIAG_WARNING, rule_dev_name(ctx, s), id);
		if (!f)
			return;
		link_slow_text(ctx, f, label, s->speed_mbps, s->usb_port, d);
		rule_explain_bridge(f, s);
		finding_evidence_cat(f, &s->cat[CAT_LINK]);
	}
	for (i = 0; inv && i < inv->n; i++) {
		const struct diag_dev *d = &inv->devs[i];
		struct diag_finding *f;
		char id[16], label[96];

		if (!d->has_usb || !d->speed_mbps || d->speed_mbps > 480 ||
		    !dev_usb3_capable(d) || inv->fastest_usb_root_mbps <= 480)
			continue;
		str_fmt(id, sizeof(id), "%04x:%04x", d->vid, d->pid);
		str_fmt(label, sizeof(label), "%s (USB %s)", d->name, id);
		f = rule_get(ctx, "usb-link-slow", DIAG_WARNING, d->name, id);
		if (!f)
			return;
		if (!f->title[0])
			link_slow_text(ctx, f, label, d->speed_mbps, d->usb_port, d);
		finding_evidence_fact(f, "%s: USB %x.%02x device linked at %u Mbit/s at port %s; "
					 "the fastest root hub runs at %u Mbit/s",
				      d->name, d->version_bcd >> 8, d->version_bcd & 0xff,
				      d->speed_mbps, d->usb_port, inv->fastest_usb_root_mbps);
	}
}

void rule_uas_known_quirky(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct uas_quirk_entry *q;
		const struct diag_dev *d = rule_inv_match(ctx, s);
		struct diag_finding *f;
		char id[16], label[96];

		if (s->driver != USB_DRIVER_UAS || s->gone || !s->has_id || s->cat[CAT_UAS].count)
			continue;
		if (d && d->driver != USB_DRIVER_UAS && d->driver != USB_DRIVER_UNKNOWN)
			continue; /* no longer on uas */
		q = uas_quirk_find(s->vid, s->pid);
		if (!(q && !q->any_pid) && !(d && d->bridge_uas_trouble))
			continue;
		rule_usb_id(s, id, sizeof(id));
		rule_subject_label(ctx, s, label, sizeof(label));
		f = rule_get(ctx, "uas-known-quirky", DIAG_INFO, rule_dev_name(ctx, s), id);
		if (!f)
			return;
		finding_title(f, "%s: a bridge known for UAS trouble runs on uas", label);
		rule_explain_bridge(f, s);
		if (q)
			explain_quirk_entry(f, q, id);
		if (d && d->bridge_uas_trouble)
			finding_explain(f, "Our bridge table lists %s as a bridge with UAS trouble.",
					d->bridge[0] ? d->bridge : "it");
		finding_explain(f, "No UAS errors were seen. If the log ever shows "
				   "uas_eh_abort_handler or device resets, disable UAS for it.");
		finding_evidence_cat(f, &s->cat[CAT_LINK]);
		fix_uas(ctx, f, id, false);
	}
	for (i = 0; inv && i < inv->n; i++) {
		const struct diag_dev *d = &inv->devs[i];
		const struct uas_quirk_entry *q;
		struct diag_finding *f;
		char id[16];

		if (!d->has_usb || d->driver != USB_DRIVER_UAS)
			continue;
		q = uas_quirk_find(d->vid, d->pid);
		if (!(q && !q->any_pid) && !d->bridge_uas_trouble)
			continue;
		str_fmt(id, sizeof(id), "%04x:%04x", d->vid, d->pid);
		if (ctx->out->n) {
			/* a uas-errors finding for it says more already */
			size_t k;
			bool have = false;

			for (k = 0; k < ctx->out->n; k++)
				if (!strcmp(ctx->out->v[k].id, "uas-errors") &&
				    !strcmp(ctx->out->v[k].usb_id, id))
					have = true;
			if (have)
				continue;
		}
		f = rule_get(ctx, "uas-known-quirky", DIAG_INFO, d->name, id);
		if (!f)
			return;
		if (!f->title[0]) {
			finding_title(f, "%s (USB %s): a bridge known for UAS trouble runs on uas",
				      d->name, id);
			if (q)
				explain_quirk_entry(f, q, id);
			if (d->bridge_uas_trouble)
				finding_explain(f, "Our bridge table lists %s as a bridge with UAS "
						   "trouble.", d->bridge[0] ? d->bridge : "it");
			finding_explain(f, "If the kernel log shows uas_eh_abort_handler or device "
					   "resets, disable UAS for it.");
			/* slow with no error: the experiment says whether uas is the cause */
			if (d->last_run_far)
				finding_explain(f, "Its last bench (run #%lld) is far below what its "
						   "path carries: `sbcdisk fix uas %s --try` measures it "
						   "on uas and on usb-storage.", d->last_run_id, d->name);
			fix_uas(ctx, f, id, false);
			if (d->last_run_far)
				finding_fix_cmd(f, "sbcdisk fix uas %s --try", d->name);
		}
		finding_evidence_fact(f, "%s: USB %s at port %s, driver uas%s%s", d->name, id,
				      d->usb_port, d->bridge[0] ? ", bridge " : "", d->bridge);
	}
}

void rule_usb_errors(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_USB];
		struct diag_finding *f;
		enum diag_sev sev;
		bool recovered;
		char id[16], label[96];

		if (!c->count || rule_after_host_death(ctx, s, c->first_line) ||
		    s->cat[CAT_HOSTDEAD].count)
			continue; /* a dead host's trouble is in usb-host-died */
		/* enumeration that failed, then worked (a slow device at plug-in) is noise */
		recovered = s->n_ev[EV_USB_ENUM_ERR] == c->count && s->id_line > c->last_line;
		sev = (c->count >= 2 || s->n_ev[EV_XHCI_STREAMS]) && !recovered ? DIAG_WARNING :
										  DIAG_INFO;
		rule_usb_id(s, id, sizeof(id));
		rule_subject_label(ctx, s, label, sizeof(label));
		f = rule_get(ctx, "usb-errors", sev, rule_dev_name(ctx, s), id);
		if (!f)
			return;
		finding_title(f, "%s: USB errors and resets (%lu line%s)", label, c->count,
			      c->count == 1 ? "" : "s");
		if (s->n_ev[EV_XHCI_TRDEQ])
			finding_explain(f, "The xHCI controller could not move a transfer ring "
					   "('Set TR Deq Ptr') and the device was reset each time%s: "
					   "update the kernel. A drive that spins down when idle "
					   "triggers it.", strstr(rule_board(ctx), "Raspberry Pi 4") ?
					   ". On the Raspberry Pi 4 (VL805) this is a kernel bug fixed "
					   "in later kernels" : "");
		if (s->n_ev[EV_XHCI_STREAMS])
			finding_explain(f, "The xHCI controller failed to tear down bulk streams, "
					   "which only the uas driver uses: a UAS drive was lost "
					   "under load, typically from power or bandwidth shared with "
					   "another USB 3 device. Give the drive its own power (a "
					   "powered hub) or disable UAS for it.");
		if (s->n_ev[EV_XHCI_STOP_EP])
			finding_explain(f, "The USB host controller did not answer a command to stop "
					   "an endpoint.");
		if (s->n_ev[EV_XHCI_EP_DISABLED])
			finding_explain(f, "The controller reported transfers for an endpoint that "
					   "was already disabled or for an unknown stream ring: it lost track "
					   "of the device's transfers, as happens around a UAS reset.");
		if (recovered)
			finding_explain(f, "The device failed to enumerate at first (-71 is a "
					   "protocol error) but then came up: harmless once, worth a "
					   "look at the cable and power if it recurs.");
		else if (s->n_ev[EV_USB_ENUM_ERR])
			finding_explain(f, "The device failed to enumerate (descriptor read or "
					   "address errors, usually -71): a bad cable, a weak port or "
					   "too little power.");
		if (s->n_ev[EV_USB_PORT_ERR])
			finding_explain(f, "The port itself no longer obeyed (it could not be "
					   "enabled, disabled or put in a link state): the device there "
					   "stopped answering, from a bad cable, a failing device or too "
					   "little power.");
		if (s->n_ev[EV_USB_RESET] && !s->n_ev[EV_XHCI_TRDEQ])
			finding_explain(f, "The kernel reset the device %lu time%s; an occasional "
					   "reset at plug-in is harmless, repeated ones are not.",
					s->n_ev[EV_USB_RESET], s->n_ev[EV_USB_RESET] == 1 ? "" : "s");
		if (rule_undervoltage_seen(ctx))
			finding_explain(f, "The board also reported under-voltage, a common cause.");
		if (rule_overcurrent_seen(ctx))
			finding_explain(f, "A USB port also reported over-current (usb-over-current): "
					   "fix the power first.");
		finding_evidence_cat(f, c);
		if (s->n_ev[EV_XHCI_TRDEQ])
			finding_fix(f, "Update the kernel (sudo apt update && sudo apt full-upgrade) "
				       "and reboot; if the resets go on, check the cable and power.");
		else
			finding_fix(f, "Check the cable and the power supply, plug the drive straight "
				       "into the board, and keep the kernel up to date.");
	}
}


/* The subjects of this boot whose trouble began after the host died: "sda (12 lines)". */
static unsigned long host_consequences(struct rule_ctx *ctx, const struct diag_subject *host,
				       char *names, size_t cap)
{
	unsigned long n = 0;
	size_t i, len = 0;
	struct diag_subject *t;

	names[0] = '\0';
	for (i = 0; ctx->log && (t = logsum_subject(ctx->log, i)); i++) {
		unsigned long lines = 0, first = 0;
		int c;

		if (t == host || t->boot != host->boot)
			continue;
		for (c = 0; c < CAT__COUNT; c++) {
			if (c != CAT_UAS && c != CAT_IO && c != CAT_USB && c != CAT_NOTREADY)
				continue;
			if (!t->cat[c].count || !rule_after_host_death(ctx, t, t->cat[c].first_line))
				continue;
			lines += t->cat[c].count;
			if (!first || t->cat[c].first_line < first)
				first = t->cat[c].first_line;
		}
		if (!lines)
			continue;
		n += lines;
		if (len + 2 < cap && str_fmt(names + len, cap - len, "%s%s", len ? ", " : "",
					   logsum_subject_name(t)[0] ? logsum_subject_name(t) :
								       "a USB device") == 0)
			len = strlen(names);
	}
	return n;
}

void rule_usb_host_died(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_HOSTDEAD];
		struct diag_finding *f;
		unsigned long after;
		char names[160];

		if (!c->count)
			continue;
		f = rule_get(ctx, "usb-host-died", DIAG_ERROR, s->ctrl[0] ? s->ctrl : "", NULL);
		if (!f)
			return;
		finding_title(f, "%s: the USB host controller died", s->ctrl[0] ? s->ctrl : "USB");
		finding_explain(f, "The USB host controller failed (a Host System Error, \"HC "
				   "died\", or no answer so the kernel gave it up as dead): every "
				   "device on it, drives included, was cut off at once.");
		after = host_consequences(ctx, s, names, sizeof(names));
		if (after)
			finding_explain(f, "The %lu error line%s on %s after it %s its consequence, "
					   "not a fault of the drive or its bridge: disabling UAS will "
					   "not help.", after, after == 1 ? "" : "s", names,
					after == 1 ? "is" : "are");
		finding_explain(f, "A controller dies from a dip in power (a drive drawing more than "
				   "the port gives, a weak supply), a faulty hub, cable or port, or a "
				   "bug in the controller's driver or firmware.");
		if (rule_undervoltage_seen(ctx))
			finding_explain(f, "The board also reported under-voltage: fix the power "
					   "first.");
		finding_evidence_cat(f, c);
		finding_evidence_cat(f, &s->cat[CAT_USB]);
		finding_fix(f, "Check the power first: a supply that meets the board's rating, and "
			       "a powered hub (or a drive with its own supply) for disks and NVMe "
			       "enclosures. Try another port and cable without a hub in between, "
			       "and update the kernel and the board's firmware (sudo apt update && "
			       "sudo apt full-upgrade). A reboot brings the controller back.");
	}
}

void rule_usb_host_failed(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_HOSTFAIL];
		const char *name = s->ctrl[0] ? s->ctrl : "USB";
		struct diag_finding *f;

		if (!c->count)
			continue;
		f = rule_get(ctx, "usb-host-failed", DIAG_ERROR, s->ctrl, NULL);
		if (!f)
			return;
		finding_title(f, "%s: a USB host controller never started", name);
		finding_explain(f, "Its driver gave up while setting it up (init, startup or "
				   "probe failed): no USB device on its ports, drives included, can "
				   "appear until it starts.");
		finding_explain(f, "The usual causes are a device tree or firmware that does not "
				   "match the kernel (a vendor kernel on another board's image, an "
				   "overlay that moves the controller), the controller's power or clock "
				   "not enabled, or a PCIe USB card that did not come up.");
		finding_evidence_cat(f, c);
		finding_fix(f, "Boot the kernel and device tree made for this board (the vendor's "
			       "image, or the distribution's kernel package with its matching "
			       "firmware), then look again at the kernel log for the controller's "
			       "name.");
	}
}
