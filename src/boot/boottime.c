// SPDX-License-Identifier: GPL-2.0-or-later
/* boottime.c - this boot's time as systemd measured it, read over D-Bus with sd-bus: the
 * figures `systemd-analyze` prints (its analyze-time.c sums the same Manager properties)
 * and the slowest units (`systemd-analyze blame`). */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#include "boot/boot.h"
#include "common/util.h"

/*
 * libsystemd and the five libraries it pulls in (gcrypt, lzma, zstd, lz4, cap) serve only this
 * file's D-Bus calls: it is opened here, when `boot time` asks, not by every command at start.
 * The names below are sd-bus's own, so the code reads as it would linked directly.
 */
#define SD_LIB "libsystemd.so.0"
static struct {
	int (*open_system)(sd_bus **bus);
	int (*get_property_trivial)(sd_bus *bus, const char *destination, const char *path,
				    const char *interface, const char *member,
				    sd_bus_error *ret_error, char type, void *ret_ptr);
	void (*error_free)(sd_bus_error *e);
	int (*call_method)(sd_bus *bus, const char *destination, const char *path,
			   const char *interface, const char *member, sd_bus_error *ret_error,
			   sd_bus_message **reply, const char *types, ...);
	int (*message_enter_container)(sd_bus_message *m, char type, const char *contents);
	int (*message_read)(sd_bus_message *m, const char *types, ...);
	sd_bus_message *(*message_unref)(sd_bus_message *m);
	sd_bus *(*flush_close_unref)(sd_bus *bus);
} sd;

static int sd_load(void)
{
	static void *lib;
	static const struct {
		const char *name;
		size_t off;
	} fns[] = {
		{ "sd_bus_open_system", offsetof(typeof(sd), open_system) },
		{ "sd_bus_get_property_trivial", offsetof(typeof(sd), get_property_trivial) },
		{ "sd_bus_error_free", offsetof(typeof(sd), error_free) },
		{ "sd_bus_call_method", offsetof(typeof(sd), call_method) },
		{ "sd_bus_message_enter_container", offsetof(typeof(sd), message_enter_container) },
		{ "sd_bus_message_read", offsetof(typeof(sd), message_read) },
		{ "sd_bus_message_unref", offsetof(typeof(sd), message_unref) },
		{ "sd_bus_flush_close_unref", offsetof(typeof(sd), flush_close_unref) },
	};
	size_t i;

	if (lib)
		return 0;
	lib = dlopen(SD_LIB, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return -ELIBACC;
	for (i = 0; i < ARRAY_SIZE(fns); i++) {
		void *f = dlsym(lib, fns[i].name);

		if (!f) {
			dlclose(lib);
			lib = NULL;
			return -ELIBBAD;
		}
		memcpy((char *)&sd + fns[i].off, &f, sizeof(f));
	}
	return 0;
}

#define SD_DEST "org.freedesktop.systemd1"
#define SD_PATH "/org/freedesktop/systemd1"
#define SD_MANAGER "org.freedesktop.systemd1.Manager"
#define SD_UNIT "org.freedesktop.systemd1.Unit"
#define UNITS_MAX 4096 /* units looked at for the slowest: a hostile bus cannot keep us */

static int get_u64(sd_bus *bus, const char *path, const char *iface, const char *name,
		   uint64_t *v)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	int ret;

	ret = sd.get_property_trivial(bus, SD_DEST, path, iface, name, &err, 't', v);
	sd.error_free(&err);
	return ret < 0 ? ret : 0;
}

/* Insert (name, s) into the list of the slowest, longest first. */
static void slowest_add(struct boot_time *bt, const char *name, double s)
{
	size_t i, at = bt->n_units;

	while (at > 0 && bt->units[at - 1].s < s)
		at--;
	if (at >= BOOT_TIME_UNITS_MAX)
		return;
	if (bt->n_units < BOOT_TIME_UNITS_MAX)
		bt->n_units++;
	for (i = bt->n_units - 1; i > at; i--)
		bt->units[i] = bt->units[i - 1];
	str_copy(bt->units[at].name, sizeof(bt->units[at].name), name);
	str_sanitize(bt->units[at].name);
	bt->units[at].s = s;
}

/* ListUnits, then each unit's activation: ActiveEnter - InactiveExit (blame's figure). */
static int read_units(sd_bus *bus, struct boot_time *bt)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	const char *name, *path;
	size_t seen = 0;
	int ret;

	ret = sd.call_method(bus, SD_DEST, SD_PATH, SD_MANAGER, "ListUnits", &err, &reply,
				 "");
	sd.error_free(&err);
	if (ret < 0)
		return ret;
	ret = sd.message_enter_container(reply, 'a', "(ssssssouso)");
	while (ret >= 0 && seen++ < UNITS_MAX) {
		uint64_t start = 0, end = 0;

		ret = sd.message_read(reply, "(ssssssouso)", &name, NULL, NULL, NULL, NULL,
					  NULL, &path, NULL, NULL, NULL);
		if (ret <= 0)
			break;
		if (get_u64(bus, path, SD_UNIT, "InactiveExitTimestampMonotonic", &start) ||
		    get_u64(bus, path, SD_UNIT, "ActiveEnterTimestampMonotonic", &end) ||
		    !start || end <= start)
			continue;
		slowest_add(bt, name, (double)(end - start) / 1e6);
	}
	sd.message_unref(reply);
	return ret < 0 ? ret : 0;
}

int boot_time_read(struct boot_time *bt)
{
	sd_bus_error err = SD_BUS_ERROR_NULL;
	sd_bus_message *reply = NULL;
	uint64_t fw = 0, loader = 0, initrd = 0, user = 0, finish = 0;
	const char *target = NULL;
	sd_bus *bus = NULL;
	int ret;

	memset(bt, 0, sizeof(*bt));
	ret = sd_load();
	if (ret)
		return ret;
	/* the system bus, or the one DBUS_SYSTEM_BUS_ADDRESS names */
	ret = sd.open_system(&bus);
	if (ret < 0)
		return -ENOENT;
	if (get_u64(bus, SD_PATH, SD_MANAGER, "UserspaceTimestampMonotonic", &user) ||
	    get_u64(bus, SD_PATH, SD_MANAGER, "FinishTimestampMonotonic", &finish)) {
		ret = -ENOENT;
		goto out;
	}
	get_u64(bus, SD_PATH, SD_MANAGER, "FirmwareTimestampMonotonic", &fw);
	get_u64(bus, SD_PATH, SD_MANAGER, "LoaderTimestampMonotonic", &loader);
	get_u64(bus, SD_PATH, SD_MANAGER, "InitRDTimestampMonotonic", &initrd);
	if (!finish) {
		ret = -EINPROGRESS; /* "Bootup is not yet finished" */
		goto out;
	}
	/* analyze-time.c: the kernel runs from monotonic 0 until the initrd (or userspace)
	 * starts; firmware and loader times count back from the kernel's start (UEFI only) */
	if (fw || loader) {
		bt->has_firmware = bt->has_loader = true;
		bt->firmware_s = fw > loader ? (double)(fw - loader) / 1e6 : 0;
		bt->loader_s = (double)loader / 1e6;
	}
	bt->kernel_s = (double)(initrd ? initrd : user) / 1e6;
	bt->has_initrd = initrd != 0;
	bt->initrd_s = initrd && user > initrd ? (double)(user - initrd) / 1e6 : 0;
	bt->userspace_s = finish > user ? (double)(finish - user) / 1e6 : 0;
	bt->total_s = bt->firmware_s + bt->loader_s + (double)finish / 1e6;
	if (sd.call_method(bus, SD_DEST, SD_PATH, SD_MANAGER, "GetDefaultTarget", &err,
			       &reply, "") >= 0 &&
	    sd.message_read(reply, "s", &target) > 0 && target) {
		str_copy(bt->target, sizeof(bt->target), target);
		str_sanitize(bt->target);
	}
	sd.error_free(&err);
	sd.message_unref(reply);
	ret = read_units(bus, bt);
	if (ret == -ENOMEM)
		goto out;
	ret = 0;
out:
	sd.flush_close_unref(bus);
	return ret;
}
