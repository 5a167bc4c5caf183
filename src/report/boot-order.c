// SPDX-License-Identifier: GPL-2.0-or-later
/* boot-order.c - `sbcdisk boot order LIST`: the new BOOT_ORDER against the one now, the EEPROM
 * configuration's diff, the JSON document, and how to make the change by hand. */
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "report/boot-report.h"

/* The raspi-config preset that writes this order, or NULL (do_boot_order: B1 SD card boot,
 * B2 NVMe/USB boot, B3 network boot). */
static const char *raspi_config_preset(const struct boot_facts *f, uint32_t v)
{
	bool pi5 = f->soc == BOOT_SOC_2712;

	if (v == (pi5 ? 0xf461u : 0xf41u))
		return "B1";
	if (v == (pi5 ? 0xf146u : 0xf14u))
		return "B2";
	if (v == 0xf21u)
		return "B3";
	return NULL;
}

int boot_report_order_manual(const struct boot_facts *f, uint32_t v, FILE *out)
{
	const char *preset = raspi_config_preset(f, v);

	fprintf(out, "Do it by hand on the board:\n");
	if (preset)
		fprintf(out, "  sudo raspi-config nonint do_boot_order %s\n", preset);
	fprintf(out, "  sudo -E rpi-eeprom-config --edit     (set BOOT_ORDER=0x%x, save, reboot)\n",
		(unsigned)v);
	return ferror(out) ? -EIO : 0;
}

/* old and new as shown (sanitised: a line stays a line) */
static void order_diff(const char *old, const char *new, size_t line, bool replaced, FILE *out)
{
	const char *o = old, *n = new;
	size_t no = 0;

	fprintf(out, "--- EEPROM configuration (now)\n+++ EEPROM configuration (new)\n");
	for (;;) {
		size_t ol = strcspn(o, "\n"), nl = strcspn(n, "\n");

		if (!*o && !*n)
			break;
		if (no == line) {
			if (replaced && *o)
				fprintf(out, "-%.*s\n", (int)ol, o);
			fprintf(out, "+%.*s\n", (int)nl, n);
			n += nl + (n[nl] ? 1 : 0);
			if (replaced) {
				o += ol + (o[ol] ? 1 : 0);
			}
			no++;
			continue;
		}
		if (*o)
			fprintf(out, " %.*s\n", (int)ol, o);
		o += ol + (o[ol] ? 1 : 0);
		n += nl + (n[nl] ? 1 : 0);
		no++;
	}
}

int boot_report_order(const struct boot_facts *f, const struct boot_order *bo,
		      const char *config_new, size_t line, bool replaced, FILE *out)
{
	char now[256], want[256];

	boot_order_describe(bo, want, sizeof(want));
	if (f->has_eeprom) {
		boot_order_describe(&f->eeprom.order, now, sizeof(now));
		fprintf(out, "BOOT_ORDER now: 0x%x%s (%s)\n", (unsigned)f->eeprom.order.value,
			f->eeprom.order.is_default ? ", the default" : "", now);
	} else {
		fprintf(out, "BOOT_ORDER now: not known (the EEPROM configuration cannot be read "
			"here)\n");
	}
	fprintf(out, "BOOT_ORDER new: 0x%x (%s)\n", (unsigned)bo->value, want);
	if (f->has_eeprom)
		order_diff(f->eeprom_text, config_new, line, replaced, out);
	return ferror(out) ? -EIO : 0;
}

struct json_object *boot_report_order_json(const struct boot_facts *f,
					   const struct boot_order *bo, const char *config_new)
{
	struct json_object *doc = json_object_new_object(), *modes;
	char hex[16], want[256];
	size_t i;

	if (!doc)
		return NULL;
	json_add_i64(doc, "schema", true, BOOT_SCHEMA);
	boot_order_hex(bo, hex, sizeof(hex));
	json_add_str(doc, "boot_order", hex);
	modes = json_object_new_array();
	for (i = 0; i < bo->n; i++)
		json_object_array_add(modes, json_object_new_string(boot_mode_name(bo->modes[i])));
	json_object_object_add(doc, "modes", modes);
	boot_order_describe(bo, want, sizeof(want));
	json_add_str(doc, "text", want);
	boot_order_hex(&f->eeprom.order, hex, sizeof(hex));
	json_add_str(doc, "current", f->has_eeprom ? hex : NULL);
	json_add_str(doc, "config_now", f->has_eeprom ? f->eeprom_text : NULL);
	json_add_str(doc, "config_new", config_new);
	json_add_bool(doc, "applied", true, false);
	return doc;
}
