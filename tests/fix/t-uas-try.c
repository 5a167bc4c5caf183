/* t-uas-try.c - the driver experiment's steps (flow/uas-try.c) on a Pi 4 tree with a JMS567 on
 * uas: the plan read from the tree, the quirks parameter and the bind files written each way. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "t.h"
#include "t-tree.h"
#include "common/paths.h"
#include "flow/uas-try.h"
#include "store/run.h"

#define DRV "sys/bus/usb/drivers/"
#define INTF "sys/bus/usb/devices/1-1.3:1.0"

static void file_is(const char *rel, const char *want)
{
	char p[PATH_MAX], buf[512] = "";
	FILE *f;
	size_t n = 0;

	f = fopen(t_tree_path(rel, p, sizeof(p)), "r");
	T_CHECK(f != NULL);
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	T_EQ_STR(buf, want);
}

/* The experiment's two runs in a store, by the ids they were stored as: another drive's run
 * between them, and a later run of a drive with the same VID:PID (a second one of the same
 * enclosure, benched meanwhile) that the newest two of the VID:PID would have taken. */
static void test_runs(const struct flow_uas_try_plan *p)
{
	static const char doc[] =
		"{\"schema\": 1, \"runs\": ["
		"{\"started_at\": \"2026-11-20T10:00:00Z\", \"profile\": \"quick\", "
		"\"device\": {\"name\": \"sda\", \"usb\": {\"vid\": \"152d\", \"pid\": \"0578\", "
		"\"driver\": \"uas\"}}, \"tests\": [{\"name\": \"RND4K Q1T1\", \"rw\": \"randread\", "
		"\"bw_bytes_per_s\": 5e6}, {\"name\": \"SEQ1M Q8T1\", \"rw\": \"read\", "
		"\"bw_bytes_per_s\": 38e6}]},"
		"{\"started_at\": \"2026-11-20T10:00:30Z\", \"profile\": \"quick\", "
		"\"device\": {\"name\": \"sdb\", \"usb\": {\"vid\": \"174c\", \"pid\": \"55aa\", "
		"\"driver\": \"uas\"}}, \"tests\": [{\"name\": \"SEQ1M Q8T1\", \"rw\": \"read\", "
		"\"bw_bytes_per_s\": 1e6}]},"
		"{\"started_at\": \"2026-11-20T10:01:00Z\", \"profile\": \"quick\", "
		"\"device\": {\"name\": \"sdc\", \"usb\": {\"vid\": \"152d\", \"pid\": \"0578\", "
		"\"driver\": \"usb-storage\"}}, \"tests\": [{\"name\": \"SEQ1M Q8T1\", "
		"\"rw\": \"read\", \"bw_bytes_per_s\": 270e6}]},"
		"{\"started_at\": \"2026-11-20T10:02:00Z\", \"profile\": \"quick\", "
		"\"device\": {\"name\": \"sdd\", \"usb\": {\"vid\": \"152d\", \"pid\": \"0578\", "
		"\"driver\": \"uas\"}}, \"tests\": [{\"name\": \"SEQ1M Q8T1\", "
		"\"rw\": \"read\", \"bw_bytes_per_s\": 9e6}]}]}";
	struct json_object *j = json_tokener_parse(doc);
	struct run_list l = { 0 };
	struct store *st = NULL;
	char db[PATH_MAX], why[256];
	int64_t ids[4], pair[2];
	double bw[2] = { 0, 0 };

	T_MUST(!j);
	T_MUST(run_list_from_json(j, &l, why, sizeof(why)));
	T_MUST(store_open(t_tree_path("r.db", db, sizeof(db)), STORE_WRITE, STORE_BUSY_MS, &st,
			  why, sizeof(why)));
	T_MUST(store_runs_add(st, l.runs, 4, STORE_ADD_NEW, ids, NULL));
	pair[0] = ids[0];
	pair[1] = ids[2];
	T_EQ_INT(flow_uas_try_runs(st, p, pair, bw), 0);
	T_NEAR(bw[0], 38e6, 1);
	T_NEAR(bw[1], 270e6, 1);
	/* a run that was not stored (0), or not there */
	pair[1] = 0;
	T_EQ_INT(flow_uas_try_runs(st, p, pair, bw), -ENOENT);
	pair[1] = ids[3] + 100;
	T_EQ_INT(flow_uas_try_runs(st, p, pair, bw), -ENOENT);
	/* another drive's run is not the experiment's */
	pair[1] = ids[1];
	T_EQ_INT(flow_uas_try_runs(st, p, pair, bw), -ENOENT);
	store_close(st);
	run_list_release(&l);
	json_object_put(j);
}

int main(void)
{
	const char *src = getenv("SBCDISK_SRCDIR");
	struct flow_uas_try_plan p;
	struct inventory *inv = NULL;
	struct sysroot *sr = NULL;
	char cmd[PATH_MAX * 3], why[512] = "", disk[64] = "";

	if (!src)
		return T_SKIP;
	t_tree_new("t-uas-try");
	str_fmt(cmd, sizeof(cmd), "python3 %s/tools/mksysroot %s/tests/sysroots/"
		"pi4-sd-jms567-usb2.desc %s >/dev/null", src, src, t_root);
	rmdir(t_root); /* mksysroot makes it */
	T_MUST(system(cmd));
	t_tree_put(DRV "uas/bind", "");
	t_tree_put(DRV "uas/unbind", "");
	t_tree_put(DRV "usb-storage/bind", "");
	t_tree_put(DRV "usb-storage/unbind", "");
	T_MUST(sysroot_open(t_root, &sr));
	T_MUST(probe_inventory_load(sr, &inv));

	/* the plan: the disk's interface and driver, the quirks each way */
	T_EQ_INT(flow_uas_try_plan_make(sr, inv, "sda", &p, why, sizeof(why)), 0);
	T_EQ_STR(p.disk, "sda");
	T_EQ_STR(p.interface, "1-1.3:1.0");
	T_EQ_STR(p.driver, "uas");
	T_EQ_STR(p.other, "usb-storage");
	T_EQ_INT(p.id.vid, 0x152d);
	T_EQ_INT(p.id.pid, 0x0578);
	T_EQ_INT(p.running, 0);
	T_EQ_INT(p.quirks_loaded, 1);
	T_EQ_STR(p.quirks_before, "");
	T_EQ_STR(p.quirks_with, "152d:0578:u");
	T_EQ_STR(p.quirks_without, "");
	/* the SD card is not on USB: no driver to try */
	T_EQ_INT(flow_uas_try_plan_make(sr, inv, "mmcblk0", &p, why, sizeof(why)), -ENODEV);
	T_EQ_INT(flow_uas_try_plan_make(sr, inv, "sdz", &p, why, sizeof(why)) < 0, 1);
	T_EQ_INT(flow_uas_try_plan_make(sr, inv, "sda", &p, why, sizeof(why)), 0);

	/* the disk is on uas now, not on usb-storage */
	T_EQ_INT(flow_uas_try_find(sr, &p, "uas", disk, sizeof(disk)), 0);
	T_EQ_STR(disk, "sda");
	T_EQ_INT(flow_uas_try_find(sr, &p, "usb-storage", disk, sizeof(disk)), -ENOENT);

	/* to usb-storage: the u entry first, then unbind from uas and bind to usb-storage */
	T_EQ_INT(flow_uas_try_switch(sr, &p, "usb-storage", why, sizeof(why)), 0);
	file_is("sys/module/usb_storage/parameters/quirks", "152d:0578:u");
	file_is(DRV "uas/unbind", "1-1.3:1.0");
	file_is(DRV "usb-storage/bind", "1-1.3:1.0");
	file_is(DRV "usb-storage/unbind", "");

	/* the kernel bound it: the way back restores the list and binds uas again */
	T_MUST(unlink(t_tree_path(INTF "/driver", cmd, sizeof(cmd))));
	T_MUST(symlink("../../../../../../../../../../../bus/usb/drivers/usb-storage", cmd));
	t_tree_put(DRV "uas/unbind", "");
	t_tree_put(DRV "usb-storage/bind", "");
	T_EQ_INT(flow_uas_try_find(sr, &p, "usb-storage", disk, sizeof(disk)), 0);
	T_EQ_INT(flow_uas_try_switch(sr, &p, "uas", why, sizeof(why)), 0);
	file_is("sys/module/usb_storage/parameters/quirks", "\n");
	file_is(DRV "usb-storage/unbind", "1-1.3:1.0");
	file_is(DRV "uas/bind", "1-1.3:1.0");
	file_is(DRV "uas/unbind", "");

	/* a bind that fails (here: no bind file): said, nonzero */
	T_MUST(unlink(t_tree_path(INTF "/driver", cmd, sizeof(cmd))));
	T_MUST(symlink("../../../../../../../../../../../bus/usb/drivers/uas", cmd));
	T_MUST(unlink(t_tree_path(DRV "usb-storage/bind", cmd, sizeof(cmd))));
	why[0] = '\0';
	T_EQ_INT(flow_uas_try_switch(sr, &p, "usb-storage", why, sizeof(why)), -ENOENT);
	T_CHECK(strstr(why, "usb-storage did not take 1-1.3:1.0") != NULL);

	test_runs(&p);
	probe_inventory_free(inv);
	sysroot_free(sr);
	t_tree_remove();
	return t_done();
}
