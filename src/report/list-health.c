/* list-health.c - the drive health columns of `sbcdisk list` (HEALTH, WEAR, TEMP) and the
 * `health` object of a disk in `list --json`, from what smartctl answered (probe/health.h). */
#include "report/list-int.h"
#include "common/json.h"
#include "probe/health.h"
#include "common/util.h"

static const struct probe_health *health_of(const struct blkdev *d)
{
	return d->is_partition ? NULL : d->health;
}

void list_get_health(const struct blkdev *d, struct list_value *v)
{
	const struct probe_health *h = health_of(d);

	v->s = NULL;
	if (!h)
		return;
	switch (h->state) {
	case PROBE_HEALTH_OK:
		if (h->has_passed)
			v->s = h->passed ? "PASSED" : "FAILED";
		break;
	case PROBE_HEALTH_NO_SMART:
		v->s = "no-smart";
		break;
	case PROBE_HEALTH_ERROR:
		v->s = "error";
		break;
	case PROBE_HEALTH_NO_TOOL:
	case PROBE_HEALTH_NOT_READ:
		break;
	}
}

void list_get_wear(const struct blkdev *d, struct list_value *v)
{
	const struct probe_health *h = health_of(d);

	v->known = h && h->state == PROBE_HEALTH_OK && h->has_percentage_used;
	v->u = v->known ? h->percentage_used : 0;
}

void list_table_wear(const struct blkdev *d, char *buf, size_t cap)
{
	const struct probe_health *h = health_of(d);

	if (h && h->state == PROBE_HEALTH_OK && h->has_percentage_used)
		str_fmt(buf, cap, "%u%%", h->percentage_used);
	else
		str_copy(buf, cap, "-");
}

void list_get_temp(const struct blkdev *d, struct list_value *v)
{
	const struct probe_health *h = health_of(d);

	v->known = h && h->state == PROBE_HEALTH_OK && h->has_temperature &&
		   h->temperature_c >= 0;
	v->u = v->known ? (uint64_t)h->temperature_c : 0;
}

void list_table_temp(const struct blkdev *d, char *buf, size_t cap)
{
	const struct probe_health *h = health_of(d);

	if (h && h->state == PROBE_HEALTH_OK && h->has_temperature)
		str_fmt(buf, cap, "%dC", h->temperature_c);
	else
		str_copy(buf, cap, "-");
}

bool list_columns_need_health(const int *ids, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ids[i] >= 0 && (size_t)ids[i] < list_n_columns &&
		    list_columns[ids[i]].health)
			return true;
	return false;
}

static const char *state_name(enum probe_health_state s)
{
	switch (s) {
	case PROBE_HEALTH_OK:
		return "ok";
	case PROBE_HEALTH_NO_SMART:
		return "no_smart";
	case PROBE_HEALTH_NO_TOOL:
		return "no_smartctl";
	case PROBE_HEALTH_ERROR:
		return "error";
	case PROBE_HEALTH_NOT_READ:
		break;
	}
	return "not_read";
}

struct json_object *list_health_to_json(const struct probe_health *h)
{
	struct json_object *o = json_object_new_object();
	bool ok = h->state == PROBE_HEALTH_OK;

	json_add_str(o, "state", state_name(h->state));
	json_add_str(o, "device_type", h->device_type[0] ? h->device_type : NULL);
	json_add_bool(o, "passed", ok && h->has_passed, h->passed);
	json_add_u64(o, "critical_warning", ok && h->has_critical_warning, h->critical_warning);
	json_add_u64(o, "percentage_used", ok && h->has_percentage_used, h->percentage_used);
	json_add_u64(o, "power_on_hours", ok && h->has_power_on_hours, h->power_on_hours);
	json_add_u64(o, "media_errors", ok && h->has_media_errors, h->media_errors);
	json_add_u64(o, "reallocated_sectors", ok && h->has_reallocated, h->reallocated_sectors);
	json_add_u64(o, "pending_sectors", ok && h->has_pending, h->pending_sectors);
	json_add_u64(o, "unsafe_shutdowns", ok && h->has_unsafe_shutdowns, h->unsafe_shutdowns);
	json_add_i64(o, "temperature_c", ok && h->has_temperature, h->temperature_c);
	json_add_str(o, "note", h->why[0] ? h->why : NULL);
	return o;
}
