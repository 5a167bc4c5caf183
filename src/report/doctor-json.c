/* doctor-json.c - `sbcdisk doctor --json`: the findings as the documented contract.
 * Unknown values are null; evidence from the system (not the log) has "line": null. */
#include "report/doctor.h"
#include "common/json.h"
#include "common/util.h"

static struct json_object *finding_json(const struct diag_finding *f)
{
	struct json_object *o = json_object_new_object(), *ev = json_object_new_array();
	int i;

	json_add_str(o, "id", f->id);
	json_add_str(o, "severity", diag_sev_name(f->sev));
	json_add_str(o, "device", f->device[0] ? f->device : NULL);
	json_add_str(o, "usb_id", f->usb_id[0] ? f->usb_id : NULL);
	json_add_str(o, "title", f->title);
	json_add_str(o, "explanation", f->explanation);
	for (i = 0; i < f->n_evidence; i++) {
		struct json_object *e = json_object_new_object();

		json_add_u64(e, "line", f->evidence[i].line != 0, f->evidence[i].line);
		if (f->evidence[i].last_line > f->evidence[i].line)
			json_add_u64(e, "last_line", true, f->evidence[i].last_line);
		json_add_str(e, "text", f->evidence[i].text);
		json_object_array_add(ev, e);
	}
	json_object_object_add(o, "evidence", ev);
	json_add_u64(o, "evidence_more", true, f->more_evidence);
	if (f->has_fix) {
		struct json_object *fix = json_object_new_object(), *cmds = json_object_new_array();

		json_add_str(fix, "summary", f->fix_summary);
		for (i = 0; i < f->n_fix_cmds; i++)
			json_object_array_add(cmds, json_object_new_string(f->fix_cmds[i]));
		json_object_object_add(fix, "commands", cmds);
		json_object_object_add(o, "fix", fix);
	} else {
		json_add_null(o, "fix");
	}
	return o;
}

struct json_object *doctor_json_findings(const struct diag_findings *fs)
{
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < fs->n; i++)
		json_object_array_add(a, finding_json(&fs->v[i]));
	return a;
}

struct json_object *doctor_json(const struct diag_findings *fs)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "schema", json_object_new_int(DOCTOR_JSON_SCHEMA));
	json_object_object_add(o, "findings", doctor_json_findings(fs));
	return o;
}
