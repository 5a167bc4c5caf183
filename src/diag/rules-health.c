/* rules-health.c - findings from the drives' own health as smartctl read it: failing, worn,
 * hot, and bridges that pass no SMART through. The numbers come from probe/health.h. */
#include <inttypes.h>

#include "diag/rules.h"
#include "probe/health.h"
#include "common/util.h"

/* Above these the drive is outside what makers rate for operation: NVMe drives throttle near
 * their warning composite temperature (70 to 80 C on common client drives), SATA SSDs and
 * HDDs are rated 0 to 60 or 70 C. */
#define HOT_NVME_C 70
#define HOT_ATA_C 60
#define WORN_PERCENT 90

static bool dev_is_nvme(const struct diag_dev *d, const struct probe_health *h)
{
	return d->transport == DIAG_T_NVME || str_starts(h->device_type, "snt") ||
	       !strcmp(h->device_type, "nvme");
}

static void usb_id_of(const struct diag_dev *d, char *buf, size_t cap)
{
	buf[0] = '\0';
	if (d->has_usb)
		str_fmt(buf, cap, "%04x:%04x", d->vid, d->pid);
}

static void health_evidence(struct diag_finding *f, const struct probe_health *h)
{
	if (h->has_passed)
		finding_evidence_fact(f, "SMART overall-health self-assessment: %s",
				      h->passed ? "PASSED" : "FAILED");
	if (h->has_critical_warning && h->critical_warning)
		finding_evidence_fact(f, "NVMe critical warning: 0x%02x", h->critical_warning);
	if (h->has_reallocated && h->reallocated_sectors)
		finding_evidence_fact(f, "reallocated sectors: %" PRIu64, h->reallocated_sectors);
	if (h->has_pending && h->pending_sectors)
		finding_evidence_fact(f, "pending sectors: %" PRIu64, h->pending_sectors);
	if (h->has_media_errors && h->media_errors)
		finding_evidence_fact(f, "media and data integrity errors: %" PRIu64,
				      h->media_errors);
	if (h->has_power_on_hours)
		finding_evidence_fact(f, "power-on hours: %" PRIu64 " (smartctl -d %s)",
				      h->power_on_hours, h->device_type);
}

static void rule_failing(struct rule_ctx *ctx, const struct diag_dev *d,
			 const struct probe_health *h)
{
	bool failed = h->has_passed && !h->passed;
	bool critical = h->has_critical_warning && h->critical_warning;
	bool pending = h->has_pending && h->pending_sectors;
	bool realloc = h->has_reallocated && h->reallocated_sectors;
	bool media = h->has_media_errors && h->media_errors;
	struct diag_finding *f;
	char id[16];

	if (!failed && !critical && !pending && !realloc && !media)
		return;
	usb_id_of(d, id, sizeof(id));
	f = rule_get(ctx, "drive-failing",
		     failed || critical || pending ? DIAG_ERROR : DIAG_WARNING, d->name, id);
	if (!f)
		return;
	if (failed)
		finding_title(f, "%s: the drive's SMART self-assessment says it is failing",
			      d->name);
	else if (critical)
		finding_title(f, "%s: the NVMe drive raises a critical warning", d->name);
	else if (pending)
		finding_title(f, "%s: the drive has sectors it cannot read (pending)", d->name);
	else
		finding_title(f, "%s: the drive has remapped bad sectors or media errors",
			      d->name);
	health_evidence(f, h);
	finding_explain(f, "The drive itself reports damage. Sectors it could not read or had to "
			   "remap, media errors and a failed self-assessment come before data "
			   "loss more often than not; a sound drive shows none of them.");
	finding_fix(f, "Back up the data on this drive now and plan to replace it; watch whether "
		       "the counts grow (smartctl -a).");
	finding_fix_cmd(f, "smartctl -a -d %s /dev/%s", h->device_type, d->name);
}

static void rule_worn(struct rule_ctx *ctx, const struct diag_dev *d,
		      const struct probe_health *h)
{
	struct diag_finding *f;
	char id[16];

	if (!h->has_percentage_used || h->percentage_used < WORN_PERCENT)
		return;
	usb_id_of(d, id, sizeof(id));
	f = rule_get(ctx, "drive-worn", DIAG_WARNING, d->name, id);
	if (!f)
		return;
	finding_title(f, "%s: the drive has used %u%% of its rated life", d->name,
		      h->percentage_used);
	finding_evidence_fact(f, "percentage used: %u%% (smartctl -d %s)", h->percentage_used,
			      h->device_type);
	finding_explain(f, "Flash wears with every write; at 100%% the maker's rated endurance is "
			   "used up and the drive may turn read-only or fail.");
	finding_fix(f, "Plan to replace the drive; keep backups current.");
}

static void rule_hot(struct rule_ctx *ctx, const struct diag_dev *d, const struct probe_health *h)
{
	int limit = dev_is_nvme(d, h) ? HOT_NVME_C : HOT_ATA_C;
	struct diag_finding *f;
	char id[16];

	if (!h->has_temperature || h->temperature_c < limit)
		return;
	usb_id_of(d, id, sizeof(id));
	f = rule_get(ctx, "drive-hot", DIAG_WARNING, d->name, id);
	if (!f)
		return;
	finding_title(f, "%s: the drive runs at %d C", d->name, h->temperature_c);
	finding_evidence_fact(f, "temperature: %d C (limit used: %d C)", h->temperature_c, limit);
	finding_explain(f, "Hot drives throttle (slow down) and age faster. NVMe drives on small "
			   "boards often need a heatsink or some air flow.");
	finding_fix(f, "Add a heatsink or air flow, or move the drive out of a closed enclosure.");
}

static void rule_no_smart(struct rule_ctx *ctx, const struct diag_dev *d,
			  const struct probe_health *h)
{
	struct diag_finding *f;
	char id[16];

	usb_id_of(d, id, sizeof(id));
	f = rule_get(ctx, "drive-no-smart", DIAG_INFO, d->name, id);
	if (!f)
		return;
	if (d->has_usb && d->bridge[0])
		finding_title(f, "%s: no drive health through the %s bridge (%s)", d->name,
			      d->bridge, id);
	else if (d->has_usb)
		finding_title(f, "%s: no drive health through its USB bridge (%s)", d->name, id);
	else
		finding_title(f, "%s: no drive health (%s)", d->name, h->why);
	if (h->device_type[0])
		finding_evidence_fact(f, "smartctl -d %s: %s", h->device_type,
				      h->message[0] ? h->message : h->why);
	else
		finding_evidence_fact(f, "%s", h->why);
	finding_explain(f, "The health of this drive cannot be read: %s. Nothing is wrong "
			   "because of it, but wear and failing sectors stay invisible.", h->why);
}

void rule_drive_health(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;
	size_t i;

	for (i = 0; inv && i < inv->n && !ctx->err; i++) {
		const struct diag_dev *d = &inv->devs[i];
		const struct probe_health *h = d->health;

		if (!h)
			continue;
		/* only what a bridge hides is news: SD/eMMC never has SMART (list says so) */
		if (h->state == PROBE_HEALTH_NO_SMART) {
			if (d->has_usb)
				rule_no_smart(ctx, d, h);
			continue;
		}
		if (h->state != PROBE_HEALTH_OK)
			continue;
		rule_failing(ctx, d, h);
		rule_worn(ctx, d, h);
		rule_hot(ctx, d, h);
	}
}
