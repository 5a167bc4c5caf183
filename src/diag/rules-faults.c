/* rules-faults.c - the rules for faults that stop a device before it works: a PCIe link or
 * host that never came up, USB over-current, NVMe power states refused, a damaged file system. */
#include "diag/rules.h"
#include "common/util.h"

static bool board_has(const struct rule_ctx *ctx, const char *what)
{
	return strstr(rule_board(ctx), what) != NULL;
}

bool rule_overcurrent_seen(const struct rule_ctx *ctx)
{
	return ctx->log && ctx->log->sys->cat[CAT_OVERCURRENT].count > 0;
}

/* Whether one of the kept lines of c says what. */
static bool cat_says(const struct cat_stat *c, const char *what)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (strcasestr(c->ev[i].text, what))
			return true;
	return false;
}

/* The fix for a link that never trained, by board. */
static void pcie_down_fix(struct rule_ctx *ctx, struct diag_finding *f)
{
	if (board_has(ctx, "Raspberry Pi 5") || board_has(ctx, "Compute Module 5"))
		finding_fix(f, "Power off, reseat the ribbon cable at both ends (contacts the right "
			       "way round) and the drive in its HAT; make sure the connector is "
			       "enabled (a HAT+ announces itself, others need dtparam=pciex1 in "
			       "config.txt); update the bootloader (sudo rpi-eeprom-update -a) and "
			       "the kernel; some drives never train with the Pi: try another.");
	else if (board_has(ctx, "Compute Module 4"))
		finding_fix(f, "Power off and reseat the card or M.2 adapter in the carrier's slot; "
			       "check the adapter's power and that the carrier routes PCIe to it; "
			       "update the bootloader (sudo rpi-eeprom-update -a) and the kernel.");
	else
		finding_fix(f, "Power off and reseat the drive or card and its adapter or ribbon; "
			       "check its power; check that the device tree of this image enables "
			       "the controller; update the kernel and the bootloader.");
}

void rule_pcie_link_down(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_PCIEDOWN];
		/* a probe that failed because the link never trained is the link's fault */
		bool host = s->n_ev[EV_PCIE_HOST_FAIL] && !s->n_ev[EV_PCIE_LINK_DOWN];
		struct diag_finding *f;
		const char *name;

		if (!c->count)
			continue;
		/* a link that came up after it (a retry, another driver for it) is no fault */
		if (s->n_ev[EV_PCIE_LINK_UP] && s->cat[CAT_PCIE].last_line > c->last_line)
			continue;
		f = rule_subject_finding(ctx, s, "pcie-link-down", host ? DIAG_ERROR : DIAG_WARNING,
					 &name);
		if (!f)
			return;
		if (host) {
			finding_title(f, "%s: the PCIe host controller never started", name);
			finding_explain(f, "The kernel's driver for this PCIe controller gave up "
					   "before any link (no PCI domain, no clocks, no PHY, or its "
					   "probe failed): nothing behind it, an NVMe drive included, "
					   "can appear. The kernel or the device tree of this image does "
					   "not fit the board.");
			finding_evidence_cat(f, c);
			if (cat_says(c, "clock"))
				finding_fix(f, "Load the clock drivers before the PCIe driver (build "
					       "them in, or put their modules into the initramfs), or "
					       "use the board vendor's current image.");
			else if (cat_says(c, "pcie domain"))
				finding_fix(f, "Use a device tree that gives each PCIe controller its "
					       "linux,pci-domain (the board vendor's current image has "
					       "it), or the vendor's kernel.");
			else
				finding_fix(f, "Use the board vendor's current image, or a kernel and "
					       "device tree that support this controller.");
			continue;
		}
		finding_title(f, "%s: the PCIe link never came up", name);
		finding_explain(f, "The controller found no device answering on its link: an "
				   "NVMe drive or card on this connector is not detected. With "
				   "nothing attached this is expected; with a drive attached the "
				   "link never trained: a loose or reversed ribbon, an adapter "
				   "without power, a connector not enabled, or a drive this board "
				   "cannot train with.");
		finding_evidence_cat(f, c);
		pcie_down_fix(ctx, f);
	}
}

void rule_usb_over_current(struct rule_ctx *ctx)
{
	const struct cat_stat *c;
	struct diag_finding *f;

	if (!ctx->log)
		return;
	c = &ctx->log->sys->cat[CAT_OVERCURRENT];
	if (!c->count)
		return;
	f = rule_get(ctx, "usb-over-current", c->count >= 2 ? DIAG_ERROR : DIAG_WARNING, NULL,
		     NULL);
	if (!f)
		return;
	finding_title(f, "A USB port reported over-current (%lu line%s)", c->count,
		      c->count == 1 ? "" : "s");
	finding_explain(f, "The port's power switch saw more current than it may give, and cut "
			   "the port: a device drawing too much (a hard disk spinning up, a "
			   "drive on a bus-powered hub) or a short in a cable or connector. The "
			   "device drops off the bus; this is power, not the drive.");
	if (rule_undervoltage_seen(ctx))
		finding_explain(f, "The board also reported under-voltage.");
	finding_evidence_cat(f, c);
	finding_fix(f, "Give the drive its own power (a powered hub or an enclosure with a power "
		       "supply), use a supply rated for the board and its USB load, and check "
		       "cables and connectors for damage.");
}

void rule_nvme_apst(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_APST];
		struct diag_finding *f;
		const char *name;

		if (!c->count)
			continue;
		f = rule_subject_finding(ctx, s, "nvme-apst-failed", DIAG_WARNING, &name);
		if (!f)
			return;
		finding_title(f, "%s: the drive refused its power-saving states (APST)", name);
		finding_explain(f, "The kernel could not set the drive's Autonomous Power State "
				   "Transitions (\"failed to set APST feature\"): its firmware "
				   "rejects or mis-implements them. Many drives run fine anyway; a "
				   "drive that later stops answering or drops off the bus is the "
				   "known consequence.");
		if (s->cat[CAT_NVME].count)
			finding_explain(f, "This drive did have NVMe errors (nvme-errors): turn APST "
					   "off.");
		finding_evidence_cat(f, c);
		if (board_has(ctx, "Raspberry Pi")) {
			finding_fix(f, "If the drive misbehaves, add "
				       "nvme_core.default_ps_max_latency_us=0 to cmdline.txt (the "
				       "first command shows the change, the second writes it) and "
				       "reboot: the kernel then leaves APST off.");
			finding_fix_cmd(f, "sbcdisk fix nvme-apst");
			finding_fix_cmd(f, "sbcdisk fix nvme-apst --apply");
		} else {
			finding_fix(f, "If the drive misbehaves, add "
				       "nvme_core.default_ps_max_latency_us=0 to the kernel command "
				       "line and reboot: the kernel then leaves APST off.");
		}
	}
}

void rule_fs_corrupt(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_FSCORRUPT];
		struct diag_finding *f;
		const char *name;

		if (!c->count)
			continue;
		f = rule_subject_finding(ctx, s, "fs-corrupt", DIAG_ERROR, &name);
		if (!f)
			return;
		finding_title(f, "%s: the file system is damaged (%lu line%s)",
			      name[0] ? name : "a disk", c->count, c->count == 1 ? "" : "s");
		finding_explain(f, "The kernel found the file system's own structures damaged "
				   "(group descriptors, the journal, a checkpoint or tree block) and "
				   "refused to mount it or mounted it read-only. Power lost during "
				   "writes, a drive pulled while mounted, or a failing or fake card "
				   "or drive cause this.");
		if (s->cat[CAT_IO].count || s->cat[CAT_MMC].count || s->cat[CAT_NVME].count)
			finding_explain(f, "The same device also had I/O errors: the medium or its "
					   "link is the likely cause; repair the file system only "
					   "after that is fixed.");
		finding_evidence_cat(f, c);
		finding_fix(f, "Back up what still reads, then check it unmounted from another "
			       "system: fsck -f on the partition (e2fsck for ext4, fsck.f2fs for "
			       "F2FS, btrfs check --readonly first for btrfs). If it comes back, "
			       "test the medium and the power supply before trusting it again.");
	}
}
