/* health.c - smartctl --json output into struct probe_health, and which -d type a drive needs.
 * Parses from a buffer, so the unit test and the fuzz target call it directly. */
#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <string.h>

#include "probe/health.h"
#include "common/util.h"

static struct json_object *obj_get(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!o || !json_object_is_type(o, json_type_object))
		return NULL;
	if (!json_object_object_get_ex(o, key, &v))
		return NULL;
	return v;
}

/* A non-negative integer at o.key; false when absent, null, negative or not a number. */
static bool get_u64(struct json_object *o, const char *key, uint64_t *out)
{
	struct json_object *v = obj_get(o, key);
	int64_t n;

	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	n = json_object_get_int64(v);
	if (n < 0)
		return false;
	*out = (uint64_t)n;
	return true;
}

static bool get_s64(struct json_object *o, const char *key, int64_t *out)
{
	struct json_object *v = obj_get(o, key);

	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	*out = json_object_get_int64(v);
	return true;
}

static bool get_str(struct json_object *o, const char *key, char *buf, size_t cap)
{
	struct json_object *v = obj_get(o, key);

	if (!v || !json_object_is_type(v, json_type_string))
		return false;
	str_copy(buf, cap, json_object_get_string(v));
	str_sanitize(buf);
	return true;
}

/* ATA attribute raw value by id from ata_smart_attributes.table. */
static bool ata_attr_raw(struct json_object *root, unsigned id, uint64_t *out)
{
	struct json_object *table = obj_get(obj_get(root, "ata_smart_attributes"), "table");
	size_t i, n;

	if (!table || !json_object_is_type(table, json_type_array))
		return false;
	n = json_object_array_length(table);
	for (i = 0; i < n; i++) {
		struct json_object *a = json_object_array_get_idx(table, i);
		uint64_t aid;

		if (!get_u64(a, "id", &aid) || aid != id)
			continue;
		return get_u64(obj_get(a, "raw"), "value", out);
	}
	return false;
}

/* ATA device statistics (smartctl -x): "Percentage Used Endurance Indicator". */
static bool ata_stat_percent_used(struct json_object *root, uint64_t *out)
{
	struct json_object *pages = obj_get(obj_get(root, "ata_device_statistics"), "pages");
	size_t i, j, n, m;

	if (!pages || !json_object_is_type(pages, json_type_array))
		return false;
	n = json_object_array_length(pages);
	for (i = 0; i < n; i++) {
		struct json_object *t = obj_get(json_object_array_get_idx(pages, i), "table");

		if (!t || !json_object_is_type(t, json_type_array))
			continue;
		m = json_object_array_length(t);
		for (j = 0; j < m; j++) {
			struct json_object *e = json_object_array_get_idx(t, j);
			char name[64] = "";

			if (get_str(e, "name", name, sizeof(name)) &&
			    !strcmp(name, "Percentage Used Endurance Indicator"))
				return get_u64(e, "value", out);
		}
	}
	return false;
}

/* Messages smartctl prints when the bridge or device passes no SMART through. */
static bool message_means_no_smart(const char *s)
{
	static const char *const needles[] = {
	    "Unknown USB bridge",
	    "Please specify device type",
	    "Unsupported USB bridge",
	    "unsupported scsi opcode",
	    "lacks SMART capability",
	    "SMART support is: Unavailable",
	    "Read NVMe Identify Controller failed",
	    "NVMe Identify Controller failed",
	    "Unable to detect device type",
	    /* -d sat through a bridge that does not translate ATA */
	    "Read Device Identity failed",
	    "mandatory SMART command failed",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(needles); i++)
		if (strcasestr(s, needles[i]))
			return true;
	return false;
}

static void parse_messages(struct json_object *sc, struct probe_health *h, bool *no_smart)
{
	struct json_object *msgs = obj_get(sc, "messages");
	size_t i, n;

	if (!msgs || !json_object_is_type(msgs, json_type_array))
		return;
	n = json_object_array_length(msgs);
	for (i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(msgs, i);
		char text[256] = "", sev[16] = "";

		if (!get_str(m, "string", text, sizeof(text)))
			continue;
		get_str(m, "severity", sev, sizeof(sev));
		if (message_means_no_smart(text))
			*no_smart = true;
		if (!h->message[0] && strcmp(sev, "information") && strcmp(sev, "warning"))
			str_copy(h->message, sizeof(h->message), text);
	}
}

static void parse_values(struct json_object *root, struct probe_health *h)
{
	struct json_object *nv = obj_get(root, "nvme_smart_health_information_log");
	struct json_object *v;
	uint64_t u;
	int64_t s;

	v = obj_get(obj_get(root, "smart_status"), "passed");
	if (v && json_object_is_type(v, json_type_boolean)) {
		h->has_passed = true;
		h->passed = json_object_get_boolean(v);
	}
	if (get_u64(obj_get(root, "power_on_time"), "hours", &u)) {
		h->has_power_on_hours = true;
		h->power_on_hours = u;
	}
	if (get_s64(obj_get(root, "temperature"), "current", &s) && s > -274 && s < 1000) {
		h->has_temperature = true;
		h->temperature_c = (int)s;
	}
	if (get_u64(nv, "critical_warning", &u) && u <= 0xff) {
		h->has_critical_warning = true;
		h->critical_warning = (unsigned)u;
	}
	if ((get_u64(nv, "percentage_used", &u) ||
	     get_u64(obj_get(root, "endurance_used"), "current_percent", &u) ||
	     ata_stat_percent_used(root, &u)) &&
	    u <= 255) {
		h->has_percentage_used = true;
		h->percentage_used = (unsigned)u;
	}
	if (get_u64(nv, "media_errors", &u)) {
		h->has_media_errors = true;
		h->media_errors = u;
	}
	if (get_u64(nv, "unsafe_shutdowns", &u)) {
		h->has_unsafe_shutdowns = true;
		h->unsafe_shutdowns = u;
	}
	if (!h->has_temperature && get_s64(nv, "temperature", &s) && s > -274 && s < 1000) {
		h->has_temperature = true;
		h->temperature_c = (int)s;
	}
	if (!h->has_power_on_hours && get_u64(nv, "power_on_hours", &u)) {
		h->has_power_on_hours = true;
		h->power_on_hours = u;
	}
	/* ATA 5 Reallocated_Sector_Ct and 197 Current_Pending_Sector: raw counts by the
	 * standard's convention; vendors agree on these two */
	if (ata_attr_raw(root, 5, &u)) {
		h->has_reallocated = true;
		h->reallocated_sectors = u;
	}
	if (ata_attr_raw(root, 197, &u)) {
		h->has_pending = true;
		h->pending_sectors = u;
	}
}

static bool health_any_value(const struct probe_health *h)
{
	return h->has_passed || h->has_percentage_used || h->has_power_on_hours ||
	       h->has_media_errors || h->has_reallocated || h->has_pending ||
	       h->has_unsafe_shutdowns || h->has_temperature || h->has_critical_warning;
}

int probe_health_parse(const char *buf, size_t len, struct probe_health *h)
{
	char dtype[sizeof(h->device_type)];
	struct json_tokener *tok;
	struct json_object *root, *sc, *v;
	bool no_smart = false;
	size_t off;
	int64_t es;
	int ret = 0;

	if (len > PROBE_HEALTH_JSON_MAX || len > INT_MAX)
		return -EINVAL;
	str_copy(dtype, sizeof(dtype), h->device_type);
	memset(h, 0, sizeof(*h));
	str_copy(h->device_type, sizeof(h->device_type), dtype);
	tok = json_tokener_new_ex(32);
	if (!tok)
		return -ENOMEM;
	root = json_tokener_parse_ex(tok, buf, (int)len);
	if (!root || json_tokener_get_error(tok) != json_tokener_success) {
		ret = -EINVAL;
		goto out;
	}
	for (off = json_tokener_get_parse_end(tok); off < len; off++)
		if (!strchr(" \t\r\n", buf[off]) || !buf[off]) {
			ret = -EINVAL; /* something after the document */
			goto out;
		}
	sc = obj_get(root, "smartctl");
	if (!sc || !json_object_is_type(sc, json_type_object)) {
		ret = -EINVAL;
		goto out;
	}
	if (get_s64(sc, "exit_status", &es) && es >= 0 && es <= 255) {
		h->has_exit_status = true;
		h->exit_status = (int)es;
	}
	parse_messages(sc, h, &no_smart);
	get_str(obj_get(root, "device"), "type", h->reported_type, sizeof(h->reported_type));
	parse_values(root, h);
	v = obj_get(obj_get(root, "smart_support"), "available");
	if (v && json_object_is_type(v, json_type_boolean) && !json_object_get_boolean(v))
		no_smart = true;
	if (health_any_value(h)) {
		h->state = PROBE_HEALTH_OK;
	} else if (no_smart) {
		h->state = PROBE_HEALTH_NO_SMART;
		str_copy(h->why, sizeof(h->why), "smartctl gets no SMART data through it");
	} else {
		h->state = PROBE_HEALTH_ERROR;
		str_copy(h->why, sizeof(h->why),
			 h->message[0] ? h->message : "smartctl returned no health data");
		str_sanitize(h->why); /* the cut may split a UTF-8 sequence of the message */
	}
out:
	json_object_put(root);
	json_tokener_free(tok);
	return ret;
}

struct snt_bridge {
	uint16_t vid, pid;
	const char *dtype;
};

/* USB->NVMe bridges and the smartctl -d type smartmontools' drivedb.h gives them (USB
 * section, entries "-d sntjmicron", "-d sntasmedia", "-d sntrealtek"). Every other USB
 * mass-storage bridge is asked with -d sat, the SCSI/ATA translation SATA bridges speak. */
/* clang-format off */
static const struct snt_bridge snt_bridges[] = {
	{ 0x0bda, 0x9210, "sntrealtek" },	/* "Realtek RTL9210" */
	{ 0x0dd8, 0x9210, "sntrealtek" },	/* Netac WH51, RTL9210 */
	{ 0x0bda, 0x9211, "sntrealtek" },	/* "Realtek RTL9211" (NVMe or SATA) */
	{ 0x2eb9, 0x9211, "sntrealtek" },	/* Sabrent EC-WPTF, RTL9211 */
	{ 0x0bda, 0x9220, "sntrealtek" },	/* "Realtek RTL9220" */
	{ 0x1de1, 0xe101, "sntrealtek" },	/* "Actions AM8180", rebranded RTL9210 */
	{ 0x152d, 0x0583, "sntjmicron" },	/* "JMicron JMS583" */
	{ 0x152d, 0xa583, "sntjmicron" },	/* "JMicron JMS583" */
	{ 0x174c, 0x2362, "sntasmedia" },	/* "ASMedia ASM236x" */
	{ 0x174c, 0x2364, "sntasmedia" },	/* "ASMedia ASM236x" */
	{ 0x174c, 0x2463, "sntasmedia" },	/* "ASMedia ASM2464PD" */
	{ 0x04e8, 0x4001, "sntasmedia" },	/* Samsung Portable SSD T7, ASM2362 */
	{ 0x04e8, 0x61fb, "sntasmedia" },	/* Samsung T7 Shield */
	{ 0x04e8, 0x61fd, "sntasmedia" },	/* Samsung Portable SSD T9 */
	{ 0x0781, 0x55ae, "sntasmedia" },	/* SanDisk Extreme, ASM2362 */
	{ 0x0781, 0x55af, "sntasmedia" },	/* SanDisk Extreme Pro Portable SSD */
	{ 0x0781, 0x55bb, "sntasmedia" },	/* SanDisk Portable SSD */
	{ 0x0bc2, 0xaa1a, "sntasmedia" },	/* Seagate FireCuda Gaming SSD, ASM2364 */
	{ 0x1058, 0x266e, "sntasmedia" },	/* WD Elements SE SSD, ASM236x */
	{ 0x0b05, 0x1932, "sntasmedia" },	/* Asus ROG Strix Arion, ASM236x */
};
/* clang-format on */

const char *probe_health_dtype(const struct blkdev *d, const char **why)
{
	const struct probe_usb *u;
	size_t i;

	*why = NULL;
	if (!d || d->is_partition)
		return NULL;
	switch (d->transport) {
	case PROBE_TRAN_NVME:
		return "nvme";
	case PROBE_TRAN_SATA:
	case PROBE_TRAN_ATA:
		return "sat";
	case PROBE_TRAN_MMC:
		*why = "SD and eMMC cards have no SMART that smartctl can read";
		return NULL;
	case PROBE_TRAN_USB:
		break;
	default:
		return NULL;
	}
	u = probe_blkdev_usb(d);
	if (!u || !u->has_ids)
		return "sat";
	for (i = 0; i < ARRAY_SIZE(snt_bridges); i++)
		if (snt_bridges[i].vid == u->vid_num && snt_bridges[i].pid == u->pid_num)
			return snt_bridges[i].dtype;
	if (strstr(u->bridge, "SD card reader")) {
		*why = "an SD card reader passes no SMART through";
		return NULL;
	}
	return "sat";
}
