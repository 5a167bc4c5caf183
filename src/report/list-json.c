/* list-json.c - the `sbcdisk list --json` contract (schema 1): board, root, boot_config and the
 * device tree. Keys are never renamed; unknown values are null. */
#include "common/json.h"
#include "report/list-int.h"
#include "common/util.h"

#define LIST_JSON_DEPTH_MAX 16 /* holders can nest; a hostile tree must not recurse forever */
#define LIST_NODES_MAX 5000    /* nor fan out: a holder below many slaves is repeated under each */

/* Mbit/s and GT/s: an integer when whole (480), else a fraction (1.5). */
static void add_num(struct json_object *o, const char *key, bool has, double v)
{
	if (has && v >= 0 && v < 1e15 && v == (double)(uint64_t)v)
		json_add_u64(o, key, true, (uint64_t)v);
	else
		json_add_double(o, key, has, v);
}

static const char *str_or_null(const char *s)
{
	return s && *s ? s : NULL;
}

static struct json_object *usb_to_json(const struct probe_usb *u)
{
	struct json_object *o = json_object_new_object(), *hubs = json_object_new_array();
	size_t i;

	json_add_str(o, "port", str_or_null(u->port));
	json_add_str(o, "vid", u->has_ids ? u->vid : NULL);
	json_add_str(o, "pid", u->has_ids ? u->pid : NULL);
	json_add_str(o, "manufacturer", str_or_null(u->manufacturer));
	json_add_str(o, "product", str_or_null(u->product));
	json_add_str(o, "serial", str_or_null(u->serial));
	add_num(o, "speed_mbps", u->has_speed, u->speed_mbps);
	json_add_str(o, "usb_version", u->has_usb_version ? u->usb_version : NULL);
	json_add_str(o, "driver", str_or_null(u->driver));
	json_add_str(o, "bridge", str_or_null(u->bridge));
	json_add_u64(o, "max_power_ma", u->has_max_power, u->max_power_ma);
	add_num(o, "root_hub_speed_mbps", u->has_root_hub_speed, u->root_hub_speed_mbps);
	for (i = 0; i < u->n_hubs; i++) {
		const struct probe_usb_hub *h = &u->hubs[i];
		struct json_object *ho = json_object_new_object();

		json_add_str(ho, "port", str_or_null(h->port));
		json_add_str(ho, "vid", str_or_null(h->vid));
		json_add_str(ho, "pid", str_or_null(h->pid));
		json_add_str(ho, "product", str_or_null(h->product));
		add_num(ho, "speed_mbps", h->has_speed, h->speed_mbps);
		json_add_str(ho, "usb_version", str_or_null(h->usb_version));
		json_object_array_add(hubs, ho);
	}
	json_object_object_add(o, "hubs", hubs);
	return o;
}

static struct json_object *pcie_to_json(const struct probe_pcie *p)
{
	struct json_object *o = json_object_new_object();

	json_add_str(o, "address", str_or_null(p->address));
	json_add_double(o, "link_speed_gts", p->has_link_speed, p->link_speed_gts);
	json_add_u64(o, "link_width", p->has_link_width, p->link_width);
	json_add_double(o, "max_link_speed_gts", p->has_max_link_speed, p->max_link_speed_gts);
	json_add_u64(o, "max_link_width", p->has_max_link_width, p->max_link_width);
	json_add_double(o, "port_max_link_speed_gts", p->has_port_max_link_speed,
			p->port_max_link_speed_gts);
	json_add_u64(o, "port_max_link_width", p->has_port_max_link_width, p->port_max_link_width);
	return o;
}

static struct json_object *nvme_to_json(const struct probe_nvme *n)
{
	struct json_object *o = json_object_new_object();

	json_add_str(o, "model", str_or_null(n->model));
	json_add_str(o, "serial", str_or_null(n->serial));
	json_add_str(o, "firmware", str_or_null(n->firmware));
	return o;
}

static struct json_object *mmc_to_json(const struct probe_mmc *m)
{
	static const char *const app[] = {NULL, "A1", "A2"};
	struct json_object *o = json_object_new_object();

	json_add_str(o, "type", str_or_null(m->type));
	json_add_str(o, "name", str_or_null(m->name));
	json_add_str(o, "manfid", m->has_manfid ? m->manfid : NULL);
	json_add_str(o, "manufacturer", str_or_null(m->manufacturer));
	json_add_str(o, "oemid", str_or_null(m->oemid));
	json_add_str(o, "date", str_or_null(m->date));
	json_add_str(o, "serial", str_or_null(m->serial));
	json_add_u64(o, "speed_class", m->has_speed_class, m->speed_class);
	json_add_u64(o, "uhs_grade", m->has_uhs_grade, m->uhs_grade);
	json_add_u64(o, "video_class", m->has_video_class, m->video_class);
	json_add_str(o, "app_class",
		     m->has_app_class && m->app_class <= 2 ? app[m->app_class] : NULL);
	json_add_str(o, "timing", str_or_null(m->timing));
	return o;
}

static struct json_object *queue_to_json(const struct probe_queue *q)
{
	struct json_object *o = json_object_new_object();

	json_add_u64(o, "logical_block_bytes", q->has_logical_block, q->logical_block_bytes);
	json_add_u64(o, "physical_block_bytes", q->has_physical_block, q->physical_block_bytes);
	json_add_u64(o, "max_sectors_kib", q->has_max_sectors, q->max_sectors_kib);
	json_add_u64(o, "read_ahead_kib", q->has_read_ahead, q->read_ahead_kib);
	json_add_str(o, "scheduler", str_or_null(q->scheduler));
	return o;
}

static void add_column(struct json_object *o, const struct list_column *c, const struct blkdev *d)
{
	struct list_value v;
	size_t i;

	if (c->type == LIST_MOUNTS) {
		struct json_object *a = json_object_new_array();

		for (i = 0; i < d->n_mountpoints; i++)
			json_object_array_add(a, json_object_new_string(d->mountpoints[i]));
		json_object_object_add(o, c->json_key, a);
		return;
	}
	list_value_get(c, d, &v);
	switch (c->type) {
	case LIST_STR:
		json_add_str(o, c->json_key, v.known ? v.s : NULL);
		break;
	case LIST_U64:
	case LIST_SIZE:
		json_add_u64(o, c->json_key, v.known, v.u);
		break;
	case LIST_BOOL:
		json_add_bool(o, c->json_key, v.known, v.b);
		break;
	case LIST_MOUNTS:
		break;
	}
}

static struct json_object *device_to_json(const struct blkdev *d, int depth, size_t *budget)
{
	struct json_object *o = json_object_new_object(), *children = json_object_new_array();
	size_t i;

	for (i = 0; i < list_n_columns; i++)
		if (list_columns[i].json_key)
			add_column(o, &list_columns[i], d);
	json_object_object_add(o, "queue", queue_to_json(&d->queue));
	json_object_object_add(o, "usb", d->usb ? usb_to_json(d->usb) : NULL);
	json_object_object_add(o, "pcie", d->pcie ? pcie_to_json(d->pcie) : NULL);
	json_object_object_add(o, "nvme", d->nvme ? nvme_to_json(d->nvme) : NULL);
	json_object_object_add(o, "mmc", d->mmc ? mmc_to_json(d->mmc) : NULL);
	/* only where smartctl was asked: live systems, whole drives */
	if (d->health)
		json_object_object_add(o, "health", list_health_to_json(d->health));
	for (i = 0; i < d->n_children && depth < LIST_JSON_DEPTH_MAX && *budget; i++) {
		(*budget)--;
		json_object_array_add(children, device_to_json(d->children[i], depth + 1, budget));
	}
	json_object_object_add(o, "children", children);
	return o;
}

struct json_object *list_device_to_json(const struct blkdev *d)
{
	size_t budget = LIST_NODES_MAX;

	return device_to_json(d, 0, &budget);
}

struct json_object *list_inventory_to_json(const struct inventory *inv)
{
	struct json_object *doc = json_object_new_object(), *o, *devices;
	size_t i;

	json_object_object_add(doc, "schema", json_object_new_int(LIST_JSON_SCHEMA));
	o = json_object_new_object();
	json_add_str(o, "model", str_or_null(inv->board.model));
	json_add_str(o, "kernel", str_or_null(inv->board.kernel));
	json_object_object_add(doc, "board", o);
	if (inv->root) {
		o = json_object_new_object();
		json_add_str(o, "device", inv->root->name);
		json_add_str(o, "disk", probe_blkdev_disk(inv->root)->name);
		json_object_object_add(doc, "root", o);
	} else {
		json_add_null(doc, "root");
	}
	if (inv->cmdline_txt[0]) {
		o = json_object_new_object();
		json_add_str(o, "cmdline_txt", inv->cmdline_txt);
		json_object_object_add(doc, "boot_config", o);
	} else {
		json_add_null(doc, "boot_config");
	}
	devices = json_object_new_array();
	for (i = 0; i < inv->n_top; i++)
		json_object_array_add(devices, list_device_to_json(inv->top[i]));
	json_object_object_add(doc, "devices", devices);
	/* entries of /sys/block (or of a disk) not read because a limit was reached: 0 when
	 * "devices" is the whole inventory */
	json_add_u64(doc, "devices_left_out", true, inv->n_left_out);
	return doc;
}
