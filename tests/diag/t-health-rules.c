/* t-health-rules.c - the drive health findings on set values: the thresholds (worn at 90 %,
 * hot at 70 C for NVMe and 60 C otherwise), severities, and what stays quiet. */
#include <string.h>

#include "t.h"
#include "diag/diag.h"
#include "probe/health.h"

static const struct diag_finding *run(struct diag_dev *d, struct diag_findings *out,
				      const char *id)
{
	struct diag_inventory inv = {.devs = d, .n = 1};
	size_t i;

	diag_findings_release(out);
	memset(out, 0, sizeof(*out));
	T_EQ_INT(diag_run(NULL, &inv, out), 0);
	for (i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].id, id))
			return &out->v[i];
	return NULL;
}

static struct probe_health ok_health(const char *dtype)
{
	struct probe_health h = {.state = PROBE_HEALTH_OK, .has_passed = true, .passed = true};

	strcpy(h.device_type, dtype);
	return h;
}

int main(void)
{
	struct diag_dev d = {.name = "nvme0n1", .transport = DIAG_T_NVME};
	struct diag_findings out = {0};
	struct probe_health h = ok_health("nvme");
	const struct diag_finding *f;

	d.health = &h;
	T_CHECK(run(&d, &out, "drive-failing") == NULL);
	T_EQ_INT((int)out.n, 0);

	h.has_percentage_used = true;
	h.percentage_used = 89;
	T_CHECK(run(&d, &out, "drive-worn") == NULL);
	h.percentage_used = 90;
	f = run(&d, &out, "drive-worn");
	T_CHECK(f && f->sev == DIAG_WARNING && !strcmp(f->device, "nvme0n1"));

	h.has_temperature = true;
	h.temperature_c = 69;
	T_CHECK(run(&d, &out, "drive-hot") == NULL);
	h.temperature_c = 70;
	T_CHECK(run(&d, &out, "drive-hot") != NULL);

	h.has_critical_warning = true;
	h.critical_warning = 0x04;
	f = run(&d, &out, "drive-failing");
	T_CHECK(f && f->sev == DIAG_ERROR);

	/* a SATA drive behind a USB bridge: hot at 60 C; reallocated alone is a warning,
	 * pending sectors or a failed verdict an error */
	h = ok_health("sat");
	d = (struct diag_dev){.name = "sda", .transport = DIAG_T_USB, .has_usb = true,
			      .vid = 0x152d, .pid = 0x0578, .bridge = "JMicron JMS567/JMS578"};
	d.health = &h;
	h.has_temperature = true;
	h.temperature_c = 60;
	T_CHECK(run(&d, &out, "drive-hot") != NULL);
	h.has_reallocated = true;
	h.reallocated_sectors = 3;
	f = run(&d, &out, "drive-failing");
	T_CHECK(f && f->sev == DIAG_WARNING && !strcmp(f->usb_id, "152d:0578"));
	h.has_pending = true;
	h.pending_sectors = 1;
	f = run(&d, &out, "drive-failing");
	T_CHECK(f && f->sev == DIAG_ERROR);

	/* nothing through the bridge: info, the bridge named */
	h = (struct probe_health){.state = PROBE_HEALTH_NO_SMART};
	strcpy(h.device_type, "sat");
	strcpy(h.why, "smartctl gets no SMART data through it");
	f = run(&d, &out, "drive-no-smart");
	T_CHECK(f && f->sev == DIAG_INFO && strstr(f->title, "JMicron JMS567/JMS578"));

	/* SD cards have no SMART: said in list, not a finding; a missing smartctl neither */
	d = (struct diag_dev){.name = "mmcblk0", .transport = DIAG_T_MMC, .is_sd = true};
	d.health = &h;
	h.device_type[0] = '\0';
	T_CHECK(run(&d, &out, "drive-no-smart") == NULL);
	h.state = PROBE_HEALTH_NO_TOOL;
	d.health = &h;
	run(&d, &out, "x");
	T_EQ_INT((int)out.n, 0);
	diag_findings_release(&out);
	return t_done();
}
