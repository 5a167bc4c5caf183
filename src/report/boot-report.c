// SPDX-License-Identifier: GPL-2.0-or-later
/* boot-report.c - the boot facts and checks as JSON (schema 1) and as text; both read the
 * same struct boot_facts, so the two cannot disagree. */
#include <string.h>

#include "common/json.h"
#include "common/util.h"
#include "report/boot-report.h"

void boot_order_hex(const struct boot_order *bo, char *buf, size_t cap)
{
	str_fmt(buf, cap, "0x%x", (unsigned)bo->value);
}

static const char *then_name(enum boot_then t)
{
	return t == BOOT_THEN_RESTART ? "restart" : t == BOOT_THEN_STOP ? "stop" : NULL;
}

static const char *soc_name(enum boot_soc s)
{
	switch (s) {
	case BOOT_SOC_2711:
		return "bcm2711";
	case BOOT_SOC_2712:
		return "bcm2712";
	case BOOT_SOC_OLDER_PI:
		return "older-pi";
	default:
		return NULL;
	}
}

static bool is_pi(const struct boot_facts *f)
{
	return f->loader == BOOT_LOADER_RPI_EEPROM;
}

/* What this board does not tell Linux, in one sentence each. */
static void not_known(const struct boot_facts *f, const char **out, size_t *n)
{
	*n = 0;
	if (!f->has_mode)
		out[(*n)++] = "which medium the firmware loaded the kernel from (no "
			      "/chosen/bootloader/boot-mode)";
	if (is_pi(f) && !f->has_eeprom)
		out[(*n)++] = "the EEPROM configuration and BOOT_ORDER (no blconfig nvmem node, "
			      "no vcgencmd)";
	if (is_pi(f) && !f->version[0] && !f->has_build_time)
		out[(*n)++] = "the bootloader's version";
	if (!is_pi(f))
		out[(*n)++] = "the boot order and the firmware's version: this board's firmware "
			      "does not publish them to Linux";
	if (!is_pi(f) && !f->loader_config[0])
		out[(*n)++] = "the boot loader configuration (no extlinux.conf or grub.cfg found; "
			      "a U-Boot environment is not read)";
}

static struct json_object *facts_booted(const struct boot_facts *f)
{
	struct json_object *b = json_object_new_object();

	json_add_u64(b, "mode", f->has_mode, f->mode);
	json_add_str(b, "mode_name", f->has_mode ? boot_mode_name(f->mode) : NULL);
	json_add_u64(b, "partition", f->has_partition, f->partition);
	json_add_bool(b, "tryboot", f->has_tryboot, f->tryboot);
	json_add_u64(b, "usb_version", f->has_usb_version, f->usb_version);
	json_add_str(b, "root_device", f->root_device[0] ? f->root_device : NULL);
	json_add_str(b, "root_disk", f->root_disk[0] ? f->root_disk : NULL);
	json_add_str(b, "cmdline_root", f->cmdline_root[0] ? f->cmdline_root : NULL);
	return b;
}

static struct json_object *facts_bootloader(const struct boot_facts *f)
{
	struct json_object *b = json_object_new_object(), *caps;
	char date[16];
	unsigned i;

	json_add_str(b, "kind", boot_loader_name(f->loader));
	json_add_str(b, "version", f->version[0] ? f->version : NULL);
	boot_date(f->build_time, date, sizeof(date));
	json_add_str(b, "build_date", f->has_build_time ? date : NULL);
	boot_date(f->update_time, date, sizeof(date));
	json_add_str(b, "update_date", f->has_update_time && f->update_time ? date : NULL);
	if (f->has_caps) {
		caps = json_object_new_array();
		for (i = 0; boot_cap_name(i); i++)
			if (f->caps & (1u << i))
				json_object_array_add(caps,
						      json_object_new_string(boot_cap_name(i)));
		json_object_object_add(b, "capabilities", caps);
	} else {
		json_add_null(b, "capabilities");
	}
	json_add_u64(b, "capabilities_value", f->has_caps, f->caps);
	json_add_str(b, "config_file", f->loader_config[0] ? f->loader_config : NULL);
	json_add_str(b, "config_root", f->loader_root[0] ? f->loader_root : NULL);
	return b;
}

static struct json_object *facts_eeprom(const struct boot_facts *f)
{
	struct json_object *e, *o, *modes, *keys;
	const struct boot_order *bo = &f->eeprom.order;
	char hex[16], words[256];
	size_t i;

	if (!f->has_eeprom)
		return NULL;
	e = json_object_new_object();
	json_add_str(e, "text", f->eeprom_text);
	json_add_str(e, "source", f->eeprom_source);
	o = json_object_new_object();
	boot_order_hex(bo, hex, sizeof(hex));
	json_add_str(o, "value", hex);
	modes = json_object_new_array();
	for (i = 0; i < bo->n; i++)
		json_object_array_add(modes, json_object_new_string(boot_mode_name(bo->modes[i])));
	json_object_object_add(o, "modes", modes);
	json_add_str(o, "then", then_name(bo->then));
	json_add_bool(o, "default", true, bo->is_default);
	boot_order_describe(bo, words, sizeof(words));
	json_add_str(o, "text", words);
	json_object_object_add(e, "boot_order", o);
	keys = json_object_new_array();
	for (i = 0; i < f->eeprom.n_keys; i++) {
		const char *help = boot_eeprom_key_help(f->eeprom.keys[i].key);
		struct json_object *k;

		if (!help || !strcmp(f->eeprom.keys[i].key, "BOOT_ORDER"))
			continue;
		k = json_object_new_object();
		json_add_str(k, "key", f->eeprom.keys[i].key);
		json_add_str(k, "value", f->eeprom.keys[i].value);
		json_add_str(k, "meaning", help);
		json_object_array_add(keys, k);
	}
	json_object_object_add(e, "storage_keys", keys);
	return e;
}

static struct json_object *time_json(const struct boot_time *bt)
{
	struct json_object *t = json_object_new_object(), *units;
	size_t i;

	json_add_double(t, "firmware_s", bt->has_firmware, bt->firmware_s);
	json_add_double(t, "loader_s", bt->has_loader, bt->loader_s);
	json_add_double(t, "kernel_s", true, bt->kernel_s);
	json_add_double(t, "initrd_s", bt->has_initrd, bt->initrd_s);
	json_add_double(t, "userspace_s", true, bt->userspace_s);
	json_add_double(t, "total_s", true, bt->total_s);
	json_add_str(t, "target", bt->target[0] ? bt->target : NULL);
	json_add_str(t, "boot_device", bt->boot_device[0] ? bt->boot_device : NULL);
	units = json_object_new_array();
	for (i = 0; i < bt->n_units; i++) {
		struct json_object *u = json_object_new_object();

		json_add_str(u, "unit", bt->units[i].name);
		json_add_double(u, "time_s", true, bt->units[i].s);
		json_object_array_add(units, u);
	}
	json_object_object_add(t, "slowest_units", units);
	return t;
}

int boot_report_time(const struct boot_time *bt, FILE *out)
{
	size_t i;

	fprintf(out, "Startup finished in ");
	if (bt->has_firmware)
		fprintf(out, "%.3fs (firmware) + ", bt->firmware_s);
	if (bt->has_loader)
		fprintf(out, "%.3fs (loader) + ", bt->loader_s);
	fprintf(out, "%.3fs (kernel) + ", bt->kernel_s);
	if (bt->has_initrd)
		fprintf(out, "%.3fs (initrd) + ", bt->initrd_s);
	fprintf(out, "%.3fs (userspace) = %.3fs\n", bt->userspace_s, bt->total_s);
	if (bt->target[0])
		fprintf(out, "%s reached after %.3fs in userspace.\n", bt->target,
			bt->userspace_s);
	fprintf(out, "Boot device: %s\n", bt->boot_device[0] ? bt->boot_device : "-");
	if (!bt->has_firmware)
		fprintf(out, "Not counted: the firmware's own time before the kernel, which Linux "
			"cannot see on a Raspberry Pi.\n");
	if (bt->n_units)
		fprintf(out, "Slowest units:\n");
	for (i = 0; i < bt->n_units; i++)
		fprintf(out, "  %8.3fs %s\n", bt->units[i].s, bt->units[i].name);
	return ferror(out) ? -EIO : 0;
}

struct json_object *boot_report_json(const struct boot_facts *f, const struct boot_checks *c,
				     const struct boot_time *bt)
{
	struct json_object *o = json_object_new_object(), *board, *arr, *e;
	const char *nk[8];
	size_t i, n;

	if (!o)
		return NULL;
	json_add_i64(o, "schema", true, BOOT_SCHEMA);
	board = json_object_new_object();
	json_add_str(board, "model", f->model[0] ? f->model : NULL);
	json_add_str(board, "soc", soc_name(f->soc));
	json_add_bool(board, "compute_module", f->soc != BOOT_SOC_NONE, f->compute_module);
	json_add_bool(board, "hat_plus", is_pi(f), f->has_hat);
	json_object_object_add(o, "board", board);
	json_object_object_add(o, "booted_from", facts_booted(f));
	json_object_object_add(o, "bootloader", facts_bootloader(f));
	e = facts_eeprom(f);
	if (e)
		json_object_object_add(o, "eeprom_config", e);
	else
		json_add_null(o, "eeprom_config");
	not_known(f, nk, &n);
	arr = json_object_new_array();
	for (i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_string(nk[i]));
	json_object_object_add(o, "not_known", arr);
	if (c) {
		arr = json_object_new_array();
		for (i = 0; i < c->n; i++) {
			const struct boot_check_item *it = &c->item[i];

			e = json_object_new_object();
			json_add_str(e, "disk", it->disk);
			json_add_str(e, "id", it->id);
			json_add_str(e, "result", boot_result_name(it->result));
			json_add_str(e, "text", it->text);
			json_add_str(e, "fix", it->fix[0] ? it->fix : NULL);
			json_object_array_add(arr, e);
		}
		json_object_object_add(o, "checks", arr);
	} else {
		json_add_null(o, "checks");
	}
	if (bt)
		json_object_object_add(o, "boot_time", time_json(bt));
	else
		json_add_null(o, "boot_time");
	return o;
}

int boot_report_table(const struct boot_facts *f, FILE *out)
{
	const struct boot_order *bo = &f->eeprom.order;
	char date[16], words[256], hex[16];
	const char *nk[8];
	size_t i, n;

	fprintf(out, "Board:         %s\n", f->model[0] ? f->model : "-");
	if (f->has_mode)
		fprintf(out, "Booted from:   %s (boot-mode %u)", boot_mode_words(f->mode) ?
			boot_mode_words(f->mode) : "an unknown medium", f->mode);
	else
		fprintf(out, "Booted from:   -");
	if (f->has_partition)
		fprintf(out, ", partition %u", f->partition);
	if (f->has_tryboot)
		fprintf(out, ", tryboot %s", f->tryboot ? "yes" : "no");
	fputc('\n', out);
	if (f->has_usb_version)
		fprintf(out, "               the bootloader saw the drive at USB %u\n",
			f->usb_version);
	fprintf(out, "Root:          %s", f->root_device[0] ? f->root_device : "-");
	if (f->root_disk[0] && strcmp(f->root_disk, f->root_device))
		fprintf(out, " on disk %s", f->root_disk);
	if (f->cmdline_root[0])
		fprintf(out, " (root=%s)", f->cmdline_root);
	fputc('\n', out);
	fprintf(out, "Bootloader:    %s", boot_loader_name(f->loader) ?
		boot_loader_name(f->loader) : "-");
	if (f->version[0])
		fprintf(out, ", version %s", f->version);
	if (f->has_build_time) {
		boot_date(f->build_time, date, sizeof(date));
		fprintf(out, ", built %s", date);
	}
	if (f->has_update_time && f->update_time) {
		boot_date(f->update_time, date, sizeof(date));
		fprintf(out, ", updated %s", date);
	}
	fputc('\n', out);
	if (f->loader_config[0])
		fprintf(out, "Configuration: %s, root=%s\n", f->loader_config,
			f->loader_root[0] ? f->loader_root : "-");
	if (f->has_caps) {
		fprintf(out, "Capabilities:  0x%02x", f->caps);
		for (i = 0; boot_cap_name((unsigned)i); i++)
			if (f->caps & (1u << i))
				fprintf(out, " %s", boot_cap_name((unsigned)i));
		fputc('\n', out);
	}
	if (f->has_eeprom) {
		boot_order_describe(bo, words, sizeof(words));
		boot_order_hex(bo, hex, sizeof(hex));
		fprintf(out, "BOOT_ORDER:    %s%s: %s\n", hex,
			bo->is_default ? (f->eeprom.bad_order ? " (unreadable value: the default)" :
					  " (not set: the default)") : "", words);
		for (i = 0; i < f->eeprom.n_keys; i++) {
			const struct boot_eeprom_key *k = &f->eeprom.keys[i];
			const char *help = boot_eeprom_key_help(k->key);

			if (help && strcmp(k->key, "BOOT_ORDER"))
				fprintf(out, "  %s=%s: %s\n", k->key, k->value, help);
		}
		fprintf(out, "EEPROM configuration (%s):\n", f->eeprom_source);
		for (const char *l = f->eeprom_text; *l;) {
			size_t ll = strcspn(l, "\n");

			if (ll)
				fprintf(out, "  %.*s\n", (int)ll, l);
			l += ll + (l[ll] ? 1 : 0);
		}
	}
	not_known(f, nk, &n);
	for (i = 0; i < n; i++)
		fprintf(out, "%s%s\n", i ? "               " : "Not known:     ", nk[i]);
	if (is_pi(f))
		fprintf(out, "Note: the time the firmware spends before the kernel is not visible "
			"to Linux on a Raspberry Pi.\n");
	return ferror(out) ? -EIO : 0;
}

int boot_report_checks(const struct boot_checks *c, FILE *out)
{
	static const char *const tag[] = { "PASS", "WARN", "FAIL" };
	const char *disk = NULL;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct boot_check_item *it = &c->item[i];

		if (!disk || strcmp(disk, it->disk)) {
			if (disk)
				fputc('\n', out);
			disk = it->disk;
			fprintf(out, "%s: %s\n", disk,
				boot_checks_worst(c, disk) == BOOT_FAIL ? "will not boot" :
				boot_checks_worst(c, disk) == BOOT_WARN ? "may boot (see the warnings)" :
				"will boot");
		}
		fprintf(out, "  %s  %-16s %s\n", tag[it->result], it->id, it->text);
		if (it->fix[0])
			fprintf(out, "        fix: %s\n", it->fix);
	}
	if (!c->n)
		fprintf(out, "No disk to check.\n");
	return ferror(out) ? -EIO : 0;
}
