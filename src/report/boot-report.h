/* boot-report.h - `sbcdisk boot` and `boot check`: one JSON document (the contract,
 * schema 1) and the table for people, both from the boot layer's facts and checks. */
#ifndef SBCDISK_REPORT_BOOT_H
#define SBCDISK_REPORT_BOOT_H

#include <json-c/json.h>
#include <stdio.h>

#include "boot/boot.h"

#define BOOT_SCHEMA 1

/* The whole document; checks NULL gives "checks": null (not run), bt NULL "boot_time": null. The caller frees it with
 * json_object_put(). NULL on ENOMEM. */
struct json_object *boot_report_json(const struct boot_facts *f, const struct boot_checks *c,
				     const struct boot_time *bt);
/* `boot time` for people. 0 or -EIO. */
int boot_report_time(const struct boot_time *bt, FILE *out);

/* The facts for people. 0 or -EIO. */
int boot_report_table(const struct boot_facts *f, FILE *out);
/* The checks for people, one block per disk, and a last line per disk. 0 or -EIO. */
int boot_report_checks(const struct boot_checks *c, FILE *out);

/* `boot order LIST`, before anything is applied: bo against the order now, and the diff of the
 * EEPROM configuration now against config_new (sanitised) at line (replaced: the old line
 * goes). 0 or -EIO. */
int boot_report_order(const struct boot_facts *f, const struct boot_order *bo,
		      const char *config_new, size_t line, bool replaced, FILE *out);
/* The same as a document ("applied": false); the caller frees it with json_object_put().
 * NULL on ENOMEM. */
struct json_object *boot_report_order_json(const struct boot_facts *f,
					   const struct boot_order *bo, const char *config_new);
/* How to set BOOT_ORDER v by hand on the board: raspi-config's preset when one writes it,
 * rpi-eeprom-config --edit. 0 or -EIO. */
int boot_report_order_manual(const struct boot_facts *f, uint32_t v, FILE *out);

/* "0xf461" */
void boot_order_hex(const struct boot_order *bo, char *buf, size_t cap);

#endif
