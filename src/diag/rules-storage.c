/* rules-storage.c - the rules for PCIe links and errors, NVMe, SD/eMMC, block I/O errors,
 * devices that never became ready, power, the quirks parameter and the root device. */
#include "diag/rules.h"
#include "diag/uas-quirks.h"
#include "common/util.h"

static const char *board_or_model(const struct rule_ctx *ctx)
{
	return rule_board(ctx);
}

static bool board_is_pi5(const struct rule_ctx *ctx)
{
	const char *b = board_or_model(ctx);

	return strstr(b, "Raspberry Pi 5") || strstr(b, "Compute Module 5") ||
	       strstr(b, "Raspberry Pi 500");
}

static int gen_of(double gts)
{
	return gts >= 63 ? 6 : gts >= 31 ? 5 : gts >= 15 ? 4 : gts >= 7.9 ? 3 : gts >= 4.9 ? 2 : 1;
}

/* The log shows PCIe or NVMe trouble: no advice to push the link harder then. */
static bool pcie_trouble(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for (i = 0; ctx->log && (s = logsum_subject(ctx->log, i)); i++)
		if (s->cat[CAT_AER].count || s->cat[CAT_NVME].count ||
		    (s->kind == SUBJ_NVME && s->cat[CAT_NOTREADY].count))
			return true;
	return false;
}

static bool board_is_pi(const struct rule_ctx *ctx)
{
	return strstr(board_or_model(ctx), "Raspberry Pi") != NULL;
}

/* from_log: the speeds come from the kernel's words alone, which say what the link trained
 * at, not what the slot could do (sysfs or the board does). */
static void pcie_limited_text(struct rule_ctx *ctx, struct diag_finding *f, const char *name,
			      double cur, int w, double cap, int cw, bool from_log)
{
	bool pi5 = board_is_pi5(ctx);

	if (from_log && !pi5) {
		finding_title(f, "%s: PCIe link trained at %.1f GT/s x%d (the drive can do %.1f "
				 "GT/s x%d)", name, cur, w, cap, cw);
		finding_explain(f, "The link trained at %.1f GT/s x%d (PCIe Gen %d); whether the "
				   "slot allows more is not in the log: `sbcdisk list` on the "
				   "machine shows the port's maximum.", cur, w, gen_of(cur));
	} else {
		finding_title(f, "%s: PCIe link at the slot's ceiling, %.1f GT/s x%d (the drive "
				 "can do %.1f GT/s x%d)", name, cur, w, cap, cw);
		finding_explain(f, "The link runs as fast as the slot or board allows (PCIe Gen %d "
				   "x%d); the drive could go faster in another machine. This is "
				   "expected, not a fault.", gen_of(cur), w);
	}
	if (!pi5 || cur >= 7.9 || cap < 7.9)
		return;
	if (pcie_trouble(ctx)) {
		finding_explain(f, "The log shows PCIe or NVMe errors: do not force a faster link "
				   "(dtparam=pciex1_gen=3) until they are gone.");
	} else {
		finding_explain(f, "On a Raspberry Pi 5 the connector is certified for Gen 2 only; "
				   "dtparam=pciex1_gen=3 in config.txt forces Gen 3 (8 GT/s, about "
				   "twice the throughput) at the risk of an unstable link.");
		finding_fix(f, "Optional and not certified: set dtparam=pciex1_gen=3 in config.txt "
			       "(dry run first), reboot, and check for pcie-errors afterwards.");
		finding_fix_cmd(f, "sbcdisk fix pcie-gen 3");
		finding_fix_cmd(f, "sbcdisk fix pcie-gen 3 --apply");
	}
}

void rule_pcie_link(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		struct diag_finding *f;
		const char *name;

		if (!s->n_ev[EV_PCIE_BW_LIMITED] || !(s->cap_gts > s->gts || s->cap_width > s->width))
			continue;
		name = rule_dev_name(ctx, s);
		name = name[0] ? name : s->ctrl;
		f = rule_get(ctx, "pcie-link-limited", DIAG_INFO, name, NULL);
		if (!f)
			return;
		if (!f->title[0])
			pcie_limited_text(ctx, f, name, s->gts, s->width, s->cap_gts, s->cap_width,
					  true);
		finding_evidence_cat(f, &s->cat[CAT_PCIE]);
	}
	for (i = 0; inv && i < inv->n; i++) {
		const struct diag_dev *d = &inv->devs[i];
		double both;
		int wboth;
		struct diag_finding *f;

		if (!d->has_pcie || d->cur_gts <= 0 || d->max_gts <= 0)
			continue;
		both = d->port_max_gts > 0 && d->port_max_gts < d->max_gts ? d->port_max_gts :
									     d->max_gts;
		wboth = d->port_max_width > 0 && d->port_max_width < d->max_width ?
				d->port_max_width : d->max_width;
		if (d->cur_gts + 0.05 < both || (wboth > 0 && d->cur_width < wboth)) {
			f = rule_get(ctx, "pcie-link-degraded", DIAG_WARNING, d->name, NULL);
			if (!f)
				return;
			finding_title(f, "%s: PCIe link trained below what both ends support "
					 "(%.1f GT/s x%d, both can do %.1f GT/s x%d)", d->name,
				      d->cur_gts, d->cur_width, both, wboth);
			finding_explain(f, "The link came up slower or narrower than the drive and "
					   "the port both support: a badly seated drive or ribbon "
					   "cable, an adapter that loses signal, or too little power.");
			if (board_is_pi(ctx))
				finding_explain(f, "Also look for a dtparam=pciex1_gen=1 line in "
						   "config.txt.");
			finding_evidence_fact(f, "%s at %s: current_link_speed %.1f GT/s x%d, "
						 "max_link_speed %.1f GT/s x%d, port max %.1f GT/s x%d",
					      d->name, d->pci_addr, d->cur_gts, d->cur_width,
					      d->max_gts, d->max_width, d->port_max_gts,
					      d->port_max_width);
			finding_fix(f, "Reseat the drive and its cable, power the board with its "
				       "official supply, and reboot; then `sbcdisk list` shows the "
				       "link it trained to.");
			finding_fix_cmd(f, "sbcdisk list");
		} else if (d->port_max_gts > 0 && d->max_gts > d->port_max_gts + 0.05) {
			f = rule_get(ctx, "pcie-link-limited", DIAG_INFO, d->name, NULL);
			if (!f)
				return;
			pcie_limited_text(ctx, f, d->name, d->cur_gts, d->cur_width, d->max_gts,
					  d->max_width, false);
			finding_evidence_fact(f, "%s at %s: current_link_speed %.1f GT/s x%d, drive "
						 "max %.1f GT/s x%d, port max %.1f GT/s x%d",
					      d->name, d->pci_addr, d->cur_gts, d->cur_width,
					      d->max_gts, d->max_width, d->port_max_gts,
					      d->port_max_width);
		}
	}
}

static bool pi5_forced_gen3(const struct rule_ctx *ctx)
{
	size_t i;

	if (!ctx->inv || !board_is_pi5(ctx))
		return false;
	for (i = 0; i < ctx->inv->n; i++)
		if (ctx->inv->devs[i].has_pcie && ctx->inv->devs[i].cur_gts >= 7.9)
			return true;
	return false;
}

static void fix_back_to_gen2(const struct rule_ctx *ctx, struct diag_finding *f)
{
	if (!pi5_forced_gen3(ctx))
		return;
	finding_explain(f, "The link runs at Gen 3, which the Raspberry Pi 5 is not certified "
			   "for: go back to Gen 2.");
	finding_fix_cmd(f, "sbcdisk fix pcie-gen 2");
	finding_fix_cmd(f, "sbcdisk fix pcie-gen 2 --apply");
}

void rule_pcie_errors(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_AER];
		struct diag_finding *f;
		const char *name;

		if (!c->count)
			continue;
		f = rule_subject_finding(ctx, s, "pcie-errors",
					 s->aer_uncorrected ? DIAG_ERROR : DIAG_WARNING, &name);
		if (!f)
			return;
		finding_title(f, "%s: PCIe bus errors (%lu report%s)", name, c->count,
			      c->count == 1 ? "" : "s");
		finding_explain(f, "The PCIe link reported %s errors (AER). %s", s->aer_uncorrected ?
				"uncorrected" : "corrected",
				s->aer_uncorrected ? "Uncorrected errors lose data or the device." :
				"Corrected errors cost retries; many of them mean a marginal "
				"link: the cable, the adapter, the power, or a link speed above "
				"what the board is certified for.");
		finding_evidence_cat(f, c);
		finding_fix(f, board_is_pi5(ctx) ?
				       "Reseat the adapter and its ribbon cable, use the official "
				       "power supply, and keep the link at Gen 2." :
				       "Reseat the drive or adapter and its cable, check the power "
				       "supply, and do not force the link faster than the board is "
				       "made for.");
		fix_back_to_gen2(ctx, f);
	}
}

void rule_nvme_errors(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_NVME];
		struct diag_finding *f;
		const char *name;

		if (!c->count)
			continue;
		f = rule_subject_finding(ctx, s, "nvme-errors", DIAG_ERROR, &name);
		if (!f)
			return;
		finding_title(f, "%s: NVMe errors (%lu line%s)", name, c->count,
			      c->count == 1 ? "" : "s");
		if (s->n_ev[EV_NVME_DOWN] > s->nvme_reset_failed) {
			unsigned long down = s->n_ev[EV_NVME_DOWN] - s->nvme_reset_failed;

			finding_explain(f, "The controller dropped off the PCIe bus %lu time%s "
					   "(CSTS=0xffffffff means nothing answers) and was reset.",
					down, down == 1 ? "" : "s");
		}
		if (s->nvme_reset_failed)
			finding_explain(f, "The controller did not come back from its reset %lu "
					   "time%s (\"Device not ready; aborting reset\"): it ran, "
					   "failed and stayed down.", s->nvme_reset_failed,
					s->nvme_reset_failed == 1 ? "" : "s");
		if (s->n_ev[EV_NVME_REMOVED] && s->n_ev[EV_NVME_DOWN])
			finding_explain(f, "The kernel removed the "
					   "drive (\"Removing after probe failure\").");
		if (s->nvme_polled)
			finding_explain(f, "%lu command%s had completed but %s interrupt never "
					   "arrived (\"completion polled\"): the PCIe interrupts (MSI) "
					   "of the board or its kernel are at fault, not the drive's "
					   "data.", s->nvme_polled, s->nvme_polled == 1 ? "" : "s",
					s->nvme_polled == 1 ? "its" : "their");
		if (s->n_ev[EV_NVME_TIMEOUT] > s->nvme_polled || s->n_ev[EV_NVME_ABORT])
			finding_explain(f, "Commands timed out and were aborted.");
		if (s->n_ev[EV_NVME_IO_ERR])
			finding_explain(f, "Reads or writes failed.");
		if (s->nvme_first_ts >= 3600)
			finding_explain(f, "The trouble began %.1f hours after boot: a drive that "
					   "works for hours and then stops answering is the mark of a "
					   "power-saving state (APST) or PCIe ASPM it cannot wake from.",
					s->nvme_first_ts / 3600);
		else if (s->n_ev[EV_NVME_PS_HINT])
			finding_explain(f, "The kernel itself suspects a faulty power-saving mode: "
					   "an APST or PCIe ASPM state the drive cannot wake from.");
		else
			finding_explain(f, "Common causes: the drive's power-saving states (APST) or "
					   "PCIe ASPM misbehaving, too little power for the drive, %sor "
					   "a link forced above what the board is certified for.",
					board_is_pi(ctx) ? "a loose ribbon cable, " : "");
		finding_evidence_cat(f, c);
		finding_fix(f, board_is_pi(ctx) ?
				       "Add nvme_core.default_ps_max_latency_us=0 pcie_aspm=off to "
				       "cmdline.txt (the kernel's own advice) and reboot; check the "
				       "power supply and the cable." :
				       "Add nvme_core.default_ps_max_latency_us=0 pcie_aspm=off to "
				       "the kernel command line (the kernel's own advice) and reboot; "
				       "check the power supply.");
		fix_back_to_gen2(ctx, f);
	}
}

/* What kind of SD/eMMC errors: CRC (signal) and timeouts, in words. */
static void mmc_error_kinds(struct diag_finding *f, const struct diag_subject *s)
{
	if (s->mmc_crc)
		finding_explain(f, "%lu line%s show%s error -84, a CRC error: the signal between "
				   "the board and the card is bad (contacts, the slot, or the card).",
				s->mmc_crc, s->mmc_crc == 1 ? "" : "s", s->mmc_crc == 1 ? "s" : "");
	if (s->mmc_timeout)
		finding_explain(f, "%lu line%s show%s a timeout (-110 or no interrupt): the card "
				   "did not answer in time (a worn, slow or fake card, or too "
				   "little power).", s->mmc_timeout, s->mmc_timeout == 1 ? "" : "s",
				s->mmc_timeout == 1 ? "s" : "");
}

void rule_mmc_errors(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *run = &s->cat[CAT_MMC], *init = &s->cat[CAT_MMCINIT];
		bool recovered = init->count && s->mmc_up && s->mmc_up_line > init->last_line;
		bool never_up = init->count && !recovered;
		bool io_after = s->cat[CAT_IO].count || s->mmc_recovery_failed;
		unsigned long lines = run->count + init->count;
		/* attempts: "whilst initialising" lines, else every init error line */
		unsigned long tries = s->mmc_init_failed ? s->mmc_init_failed : init->count;
		enum diag_sev sev;
		struct diag_finding *f;
		const char *name;

		/* only the command queue stalled and was recovered: slow, data intact */
		bool cqe_only = run->count && run->count == s->n_ev[EV_MMC_CQE_RECOVERY];

		if (!run->count && !init->count)
			continue;
		if (never_up || (run->count >= 3 && !cqe_only) || io_after)
			sev = DIAG_ERROR;
		else if (run->count)
			sev = DIAG_WARNING;
		else
			sev = DIAG_INFO;
		f = rule_subject_finding(ctx, s, "mmc-errors", sev, &name);
		if (!f)
			return;
		if (never_up)
			finding_title(f, "%s: the card failed to initialise (%lu time%s)", name,
				      tries, tries == 1 ? "" : "s");
		else if (run->count)
			finding_title(f, "%s: SD/eMMC errors (%lu line%s)", name, lines,
				      lines == 1 ? "" : "s");
		else
			finding_title(f, "%s: initialising the card failed (%lu line%s), then it "
					 "worked", name, init->count, init->count == 1 ? "" : "s");
		if (never_up)
			finding_explain(f, "The kernel tried to initialise the card %lu time%s and "
					   "it failed every time: the card is not usable like this.",
					tries, tries == 1 ? "" : "s");
		else if (recovered)
			finding_explain(f, "Initialising the card failed (%lu line%s), but it came up "
					   "afterwards: marginal, usable.", init->count,
					init->count == 1 ? "" : "s");
		mmc_error_kinds(f, s);
		if (s->n_ev[EV_MMC_HOST_ERR])
			finding_explain(f, "The SD host controller itself failed (a reset that never "
					   "completed, or the driver dumped its registers).");
		if (s->mmc_recovery_failed)
			finding_explain(f, "The kernel's recovery of the card failed.");
		if (s->n_ev[EV_MMC_CQE_RECOVERY])
			finding_explain(f, "The command queue (CQE) of the card and host stalled and "
					   "was recovered (%lu line%s): every recovery stops all I/O "
					   "for a while, and some cards' command queueing is broken.",
					s->n_ev[EV_MMC_CQE_RECOVERY],
					s->n_ev[EV_MMC_CQE_RECOVERY] == 1 ? "" : "s");
		if (cqe_only && !io_after && !never_up)
			finding_explain(f, "No I/O error followed: the system is slow, not losing "
					   "data yet.");
		else if (!never_up && run->count && (run->count >= 3 || io_after))
			finding_explain(f, "Writes stall for seconds and data can be lost.");
		else if (!never_up && run->count)
			finding_explain(f, "With no I/O error and no failed recovery after %s, this "
					   "is survivable; watch for more.",
					run->count == 1 ? "it" : "them");
		finding_evidence_cat(f, init);
		finding_evidence_cat(f, run);
		if (s->n_ev[EV_MMC_CQE_RECOVERY] && board_is_pi5(ctx) &&
		    (!strcmp(s->ctrl, "mmc0") || !strcmp(s->disk, "mmcblk0"))) {
			finding_fix(f, "Turn command queueing off for the SD card: "
				       "dtparam=sd_cqe=off in config.txt (the Raspberry Pi 5's "
				       "known workaround; the first command shows the change, the "
				       "second writes it), then reboot; if errors remain, replace the "
				       "card.");
			finding_fix_cmd(f, "sbcdisk fix sd-cqe");
			finding_fix_cmd(f, "sbcdisk fix sd-cqe --apply");
			continue;
		}
		if (s->n_ev[EV_MMC_CQE_RECOVERY] && !io_after && !never_up) {
			finding_fix(f, "Update the kernel (command queueing fixes and card quirks "
				       "keep coming); if it recurs, replace the card or eMMC module, "
				       "or turn CQE off for it in the device tree.");
			continue;
		}
		finding_fix(f, recovered && !run->count ?
				       "Nothing urgent. If it recurs, clean the contacts or replace "
				       "the card." :
				       "Back up the card now if it still reads, then replace it with "
				       "a known-good A1/A2 card; check the power supply; keep the "
				       "kernel up to date.");
	}
}

void rule_io_errors(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_IO];
		struct diag_finding *f;
		char id[16];
		const char *name;

		if (!c->count || rule_after_host_death(ctx, s, c->first_line))
			continue;
		rule_usb_id(s, id, sizeof(id));
		f = rule_subject_finding(ctx, s, "io-errors", DIAG_ERROR, &name);
		if (!f)
			return;
		finding_title(f, "%s: I/O errors (%lu line%s)", name[0] ? name : "a disk",
			      c->count, c->count == 1 ? "" : "s");
		finding_explain(f, "Reads or writes failed at the block or file system level: "
				   "data may be lost, and a file system may have been remounted "
				   "read-only.");
		if (s->n_ev[EV_FS_ERROR])
			finding_explain(f, "The file system reported errors; run fsck after the "
					   "cause is fixed.");
		if (s->cat[CAT_UAS].count && s->cat[CAT_UAS].first_line < c->first_line)
			finding_explain(f, "They follow the UAS aborts and resets above.");
		else if (s->cat[CAT_UAS].count)
			finding_explain(f, "UAS aborts and resets followed them (the I/O errors came "
					   "first).");
		else if (s->driver == USB_DRIVER_UAS)
			finding_explain(f, "On a USB drive this is usually power (a drive drawing "
					   "more than the port gives), the cable or enclosure, or a "
					   "bridge with UAS trouble.");
		else if (s->kind == SUBJ_USB || s->driver || !strncmp(name, "sd", 2))
			finding_explain(f, "On a USB drive this is usually power (a drive drawing "
					   "more than the port gives), the cable, or the enclosure and "
					   "its bridge chip%s.", s->driver == USB_DRIVER_STORAGE ?
					" (it runs usb-storage, so UAS is not the cause)" : "");
		if (rule_undervoltage_seen(ctx))
			finding_explain(f, "The board reported under-voltage: fix the power first.");
		finding_evidence_cat(f, c);
		if (s->driver == USB_DRIVER_UAS && id[0]) {
			finding_fix(f, "Check power and cable first; if the drive is on uas, disable "
				       "UAS for its bridge.");
			finding_fix_cmd(f, "sbcdisk fix uas %s", id);
		} else {
			finding_fix(f, "Back up what you can, check the power supply and the cable "
				       "(or the card), then check the file system (fsck) and the "
				       "drive's health (smartctl).");
		}
	}
}

void rule_device_not_ready(struct rule_ctx *ctx)
{
	struct diag_subject *s;
	size_t i;

	for_each_subject(ctx, s, i) {
		const struct cat_stat *c = &s->cat[CAT_NOTREADY];
		struct diag_finding *f;
		const char *name;

		if (!c->count || rule_after_host_death(ctx, s, c->first_line))
			continue;
		f = rule_subject_finding(ctx, s, "device-not-ready", DIAG_ERROR, &name);
		if (!f)
			return;
		if (s->n_ev[EV_SCSI_OFFLINED])
			finding_title(f, "%s: the kernel took the drive offline after failed "
					 "resets", name);
		else if (s->n_ev[EV_NVME_REMOVED] && s->n_ev[EV_NVME_DOWN])
			finding_title(f, "%s: the kernel removed the NVMe drive after a failed "
					 "reset", name);
		else
			finding_title(f, "%s: the device did not become ready", name);
		if (s->n_ev[EV_SCSI_OFFLINED])
			finding_explain(f, "The SCSI layer's error recovery (aborts, then resets) did "
					   "not bring the drive back, so it gave up: \"Device offlined\" "
					   "means every later read and write is refused until the drive "
					   "is plugged in again. This is the end of failed resets, not a "
					   "drive that did not spin up: the cause is what made the "
					   "commands fail (power, cable, bridge).");
		else if (s->n_ev[EV_NVME_REMOVED] && s->n_ev[EV_NVME_DOWN])
			finding_explain(f, "The controller dropped off the PCIe bus, %s and the "
					   "kernel removed it: the drive and everything on it are gone "
					   "until a reboot. Most often the M.2 slot gets too little power "
					   "(3.3 V), the drive's power-saving states (APST) or PCIe ASPM "
					   "misbehave, or the adapter or its cable is loose.",
					s->n_ev[EV_PCI_POWER_FAIL] ?
						"did not answer when the kernel woke it (\"can't "
						"change power state from D3cold\")," :
						"did not come back from its reset,");
		else if (s->n_ev[EV_NVME_NOT_READY])
			finding_explain(f, "The NVMe controller never reported ready (CSTS) and the "
					   "kernel gave up on it. The PCIe link itself came up, so "
					   "this is not a link-speed problem: most often the M.2 slot "
					   "gets too little power (3.3 V), or the drive does not work "
					   "with the adapter.");
		else
			finding_explain(f, "The drive did not answer (not ready, not responding, or "
					   "its capacity could not be read): a drive that does not spin "
					   "up, too little power, or a failing bridge.");
		finding_evidence_cat(f, c);
		if (s->kind == SUBJ_NVME)
			finding_fix(f, "Reseat the drive and its adapter or cable, power the board "
				       "with a supply that meets its rating, add "
				       "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off to the "
				       "kernel command line, and update the drive's firmware and the "
				       "kernel.");
		else
			finding_fix(f, "Power the adapter or drive properly (official supply, "
				       "powered adapter), try another drive or adapter, and update "
				       "the firmware and kernel.");
	}
}

void rule_undervoltage(struct rule_ctx *ctx)
{
	const struct cat_stat *c;
	struct diag_finding *f;

	if (!ctx->log)
		return;
	c = &ctx->log->sys->cat[CAT_POWER];
	if (!c->count)
		return;
	f = rule_get(ctx, "undervoltage", c->count >= 3 ? DIAG_ERROR : DIAG_WARNING, NULL, NULL);
	if (!f)
		return;
	finding_title(f, "The board's supply voltage dropped too low (%lu time%s)", c->count,
		      c->count == 1 ? "" : "s");
	finding_explain(f, "The firmware saw the 5 V supply fall below about 4.63 V. USB drives "
			   "draw surges when they write or spin up; with a weak supply or a thin "
			   "cable the voltage sags and drives reset, vanish or corrupt data. Fix "
			   "this before blaming the drive or UAS.");
	finding_evidence_cat(f, c);
	finding_fix(f, "Use the official power supply (Pi 4: 5.1 V 3 A, Pi 5: 5.1 V 5 A) and a "
		       "short cable; give hard disks their own power (a powered hub or enclosure).");
}

static const char *qp_text(int problem)
{
	switch (problem) {
	case USBQ_TOO_LONG:
		return "is longer than 127 characters, so the kernel rejects it and ignores the "
		       "whole list";
	case USBQ_MALFORMED:
		return "has an entry that is not VID:PID:FLAGS, so the kernel ignores it";
	case USBQ_REPEATED:
		return "appears more than once; each one replaces the one before, so only the "
		       "last list counts";
	}
	return "was rejected by the kernel";
}

void rule_quirks_param_invalid(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	struct diag_finding *f = NULL;
	char value[160];
	int problem = 0;

	if (ctx->log && ctx->log->sys->cat[CAT_QUIRKS].count) {
		problem = ctx->log->quirks_problem;
		f = rule_get(ctx, "quirks-param-invalid", DIAG_ERROR, NULL, NULL);
		if (!f)
			return;
		finding_evidence_cat(f, &ctx->log->sys->cat[CAT_QUIRKS]);
	}
	if (inv && inv->cmdline) {
		int p = usbq_cmdline_check(inv->cmdline, value, sizeof(value));

		if (p) {
			problem = p;
			f = rule_get(ctx, "quirks-param-invalid", DIAG_ERROR, NULL, NULL);
			if (!f)
				return;
			finding_evidence_fact(f, "kernel command line: usb-storage.quirks=%s", value);
		}
	}
	if (!f)
		return;
	finding_title(f, "The usb-storage.quirks parameter does not take effect");
	finding_explain(f, "The usb-storage.quirks value %s. Every quirk in it, including any "
			   "'u' that keeps a bridge off uas, is then lost.", qp_text(problem));
	finding_fix(f, "Keep one usb-storage.quirks= with a comma list of VID:PID:FLAGS of at "
		       "most 127 characters; `sbcdisk fix uas VID:PID` rebuilds the list that "
		       "way and refuses to pass the limit.");
}

static bool has_finding(const struct rule_ctx *ctx, const char *id, const char *device)
{
	size_t i;

	for (i = 0; i < ctx->out->n; i++)
		if (!strcmp(ctx->out->v[i].id, id) && !strcmp(ctx->out->v[i].device, device))
			return true;
	return false;
}

/* A drive that is (or, in a USB 3 port, would be) faster than an SD card or eMMC. */
static bool dev_is_fast(const struct rule_ctx *ctx, const struct diag_dev *d)
{
	if (d->is_root)
		return false;
	if (d->transport == DIAG_T_NVME || d->transport == DIAG_T_SATA)
		return true;
	return d->transport == DIAG_T_USB &&
	       (d->speed_mbps >= USB_SPEED_SUPER_MBPS || has_finding(ctx, "usb-link-slow", d->name));
}

/* The next step of root-on-sd: sbcdisk clone onto fast, then boot order; or why fast
 * cannot be the target as it is (a mounted file system that a clone would erase). */
static void root_on_sd_fix(struct rule_ctx *ctx, struct diag_finding *f,
			   const struct diag_dev *root, const struct diag_dev *fast)
{
	const char *media = fast->transport == DIAG_T_NVME ? "nvme,sd" : "usb,sd";
	char a[32], b[32], buf[900];

	if (fast->mounted_part[0]) {
		str_fmt(buf, sizeof(buf), "%s cannot be the target as it is: %s is mounted on %s, "
			"and a clone erases the whole drive (`sbcdisk clone` refuses it). Copy "
			"what is on it elsewhere and unmount it (and take it out of /etc/fstab), "
			"or attach another drive; then `sbcdisk clone /dev/%s` shows the plan",
			fast->name, fast->mounted_part, fast->mounted_on, fast->name);
		/* boot order is the EEPROM bootloader's: a board without one refuses it */
		if (board_is_pi(ctx))
			str_fmt(buf + strlen(buf), sizeof(buf) - strlen(buf), " and `sbcdisk boot "
				"order %s` the boot order that tries it first.", media);
		else
			str_fmt(buf + strlen(buf), sizeof(buf) - strlen(buf), "; then make the "
				"board's boot loader start from it (see the board's documentation): "
				"`sbcdisk boot check %s` says whether it will boot.", fast->name);
		finding_fix(f, buf);
		return;
	}
	str_fmt(buf, sizeof(buf), "Copy the system to %s with sbcdisk clone: the first command "
		"shows the plan and its checks and writes nothing, the second copies (only the "
		"used data, with new ids, and checks that the copy boots).", fast->name);
	if (fast->data_part[0])
		str_fmt(buf + strlen(buf), sizeof(buf) - strlen(buf), " It erases %s: %s holds "
			"a %s file system, so keep a copy of what is on it first.", fast->name,
			fast->data_part, fast->data_fs);
	if (fast->size_bytes && root->size_bytes && fast->size_bytes < root->size_bytes) {
		size_to_human(fast->size_bytes, a, sizeof(a));
		size_to_human(root->size_bytes, b, sizeof(b));
		str_fmt(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s (%s) is smaller than "
			"%s (%s): it is a target only when the used data fits, which the plan "
			"says.", fast->name, a, root->name, b);
	}
	if (board_is_pi(ctx))
		str_fmt(buf + strlen(buf), sizeof(buf) - strlen(buf), " Then make the board try "
			"%s first: `sbcdisk boot order %s` shows the new BOOT_ORDER, with --apply "
			"it goes to rpi-eeprom-config for the next reboot.", fast->name, media);
	else
		str_fmt(buf + strlen(buf), sizeof(buf) - strlen(buf), " Then make the board's "
			"boot loader start from %s (see the board's documentation); `sbcdisk boot "
			"check %s` says whether it will boot.", fast->name, fast->name);
	finding_fix(f, buf);
	finding_fix_cmd(f, "sbcdisk clone /dev/%s", fast->name);
	finding_fix_cmd(f, "sbcdisk clone /dev/%s --apply", fast->name);
	if (board_is_pi(ctx))
		finding_fix_cmd(f, "sbcdisk boot order %s", media);
	else
		finding_fix_cmd(f, "sbcdisk boot check %s", fast->name);
}

void rule_root_on_sd(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	const struct diag_dev *root = NULL, *fast = NULL;
	struct diag_finding *f;
	size_t i;

	for (i = 0; inv && i < inv->n; i++) {
		const struct diag_dev *d = &inv->devs[i];

		if (d->is_root && (d->is_sd || d->transport == DIAG_T_MMC))
			root = d;
		/* the first fast drive, one with nothing mounted before the others */
		else if (dev_is_fast(ctx, d) &&
			 (!fast || (fast->mounted_part[0] && !d->mounted_part[0])))
			fast = d;
	}
	if (root && fast) {
		f = rule_get(ctx, "root-on-sd", DIAG_INFO, root->name, NULL);
		if (!f)
			return;
		finding_title(f, "The system runs from %s (%s) while %s is attached", root->name,
			      root->is_sd ? "an SD card" : "an eMMC", fast->name);
		finding_evidence_fact(f, "/ is on %s; %s is %s drive", root->name, fast->name,
				      fast->transport == DIAG_T_NVME ? "an NVMe" :
				      fast->transport == DIAG_T_SATA ? "a SATA" : "a USB");
	} else if (!inv && ctx->log && !strncmp(ctx->log->root_disk, "mmcblk", 6)) {
		struct diag_subject *s;
		bool other = false;

		for_each_subject(ctx, s, i)
			if (!s->gone && (!strncmp(s->disk, "sd", 2) || !strncmp(s->disk, "nvme", 4)))
				other = true;
		if (!other)
			return;
		f = rule_get(ctx, "root-on-sd", DIAG_INFO, ctx->log->root_disk, NULL);
		if (!f)
			return;
		finding_title(f, "The system runs from %s (SD/eMMC) while a faster drive is "
				 "attached", ctx->log->root_disk);
	} else {
		return;
	}
	if (root && !root->is_sd)
		finding_explain(f, "An SSD on USB 3 or NVMe is faster than most eMMC for the small "
				   "random I/O a running system does, and it keeps the eMMC's "
				   "writes (and its wear) for what must stay on the board.");
	else
		finding_explain(f, "An SSD on USB 3 or NVMe is several times faster than an SD "
				   "card (and faster than most eMMC) for the small random I/O a "
				   "running system does, and an SD card wears out sooner.");
	if (root && fast)
		root_on_sd_fix(ctx, f, root, fast);
	else if (board_is_pi(ctx))
		finding_fix(f, "Copy the system to the faster drive with `sbcdisk clone /dev/DISK` "
			       "(a dry run; --apply copies), then make the board try it first with "
			       "`sbcdisk boot order usb,sd` (or nvme,sd).");
	else
		finding_fix(f, "Copy the system to the faster drive with `sbcdisk clone /dev/DISK` "
			       "(a dry run; --apply copies) and make the boot loader start from it "
			       "(see the board's documentation).");
}

/* "Slow, but no errors": the drive's last stored run is far below its path (the store's
 * verdict, handed in by doctor). The next step is the experiment that finds why. */
void rule_run_far_below(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	struct diag_finding *f;
	size_t i;

	for (i = 0; inv && i < inv->n; i++) {
		const struct diag_dev *d = &inv->devs[i];

		if (!d->last_run_far)
			continue;
		f = rule_get(ctx, "run-far-below", DIAG_WARNING, d->name, NULL);
		if (!f)
			return;
		finding_title(f, "%s: its last bench is far below what its path carries", d->name);
		finding_explain(f, "Slow without an error to show for it: the driver, the bridge, "
				   "the cable, the port or the power can each hold a drive back.");
		finding_evidence_fact(f, "run #%lld: %s", d->last_run_id, d->last_run_line);
		if (d->has_usb && d->driver == USB_DRIVER_UAS) {
			char buf[300];

			str_fmt(buf, sizeof(buf), "Measure it on both drivers: `sbcdisk fix uas %s "
				"--try` benches it on uas, switches this drive to usb-storage, "
				"benches it again and puts it back as it was unless you keep the "
				"winner.", d->name);
			finding_fix(f, buf);
			finding_fix_cmd(f, "sbcdisk fix uas %s --try", d->name);
		} else {
			finding_fix(f, "Check the link it trained to with `sbcdisk list`, reseat the "
				       "drive and its cable, and bench it again.");
			finding_fix_cmd(f, "sbcdisk list");
		}
	}
}
