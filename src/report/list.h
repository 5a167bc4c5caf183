/* list.h - rendering the inventory: one column descriptor table drives the table, the flat
 * keys of the JSON DEVICE object and the help text (the idea is lsblk's). */
#ifndef SBCDISK_REPORT_LIST_H
#define SBCDISK_REPORT_LIST_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>

#include "probe/probe.h"

#define LIST_JSON_SCHEMA 1
#define LIST_COLUMNS_MAX 64

/* The DEVICE object of the `list --json` contract, children included. The caller puts it. */
struct json_object *list_device_to_json(const struct blkdev *d);
/* The whole `list --json` document. The caller puts it. */
struct json_object *list_inventory_to_json(const struct inventory *inv);

/* Parse "-o NAME,SIZE" or "+COL,..." (appended to the defaults) into column ids.
 * 0, -EINVAL with *bad set to the unknown name (inside spec's copy, valid until the next call),
 * -ENODATA when spec names no column, -E2BIG when there are too many. */
int list_columns_parse(const char *spec, int *ids, size_t max, size_t *n, const char **bad);
/* The default columns. */
size_t list_columns_default(int *ids, size_t max);
/* True when a column among ids needs the drives' health (smartctl). */
bool list_columns_need_health(const int *ids, size_t n);
/* "-o help": one line per column with its description. */
void list_columns_help(FILE *f);

/* The tree table. bytes: exact sizes. On a terminal (text_width()) it is fitted to the
 * width, one line a device; chosen: the columns were named with -o (cut, never dropped,
 * in their long form). 0 or -errno. */
int list_table_print(const struct inventory *inv, const int *ids, size_t n, bool bytes,
		     bool chosen, FILE *f);

#endif
