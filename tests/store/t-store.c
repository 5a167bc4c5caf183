/* t-store.c - the result store: round trips, filters, every migration, and the failure paths
 * (locked, opened for reading, corrupt, foreign, newer schema) with nothing stored lost. */
#include <fcntl.h>
#include <math.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include "t.h"
#include "t-helpers.h"
#include "common/json.h"
#include "common/util.h"
#include "store/store-schema.h"
#include "store/store.h"

static const char run_a[] =
	"{\"started_at\":\"2026-11-29T08:00:00Z\",\"profile\":\"default\",\"engine\":\"io_uring\","
	"\"board\":\"Raspberry Pi 4 Model B Rev 1.4\",\"kernel\":\"6.6.51+rpt-rpi-v8\","
	"\"boot_device\":\"mmcblk0p2\",\"device\":{\"name\":\"sda\",\"model\":\"Extreme SSD\","
	"\"serial\":\"S1\",\"transport\":\"usb\",\"fstype\":\"ext4\",\"usb\":{\"vid\":\"152d\","
	"\"pid\":\"0578\",\"speed_mbps\":480,\"driver\":\"uas\",\"bridge\":\"JMicron JMS567\"}},"
	"\"target\":{\"path\":\"/mnt\",\"kind\":\"dir\",\"device\":\"sda1\",\"disk\":\"sda\"},"
	"\"tests\":[{\"name\":\"SEQ1M Q8T1\",\"rw\":\"read\",\"block_bytes\":1048576,"
	"\"queue_depth\":8,\"threads\":1,\"runs\":5,\"ios\":1234,\"bw_bytes_per_s\":36000000,"
	"\"bw_cv\":0.01,\"iops\":34.3,\"lat_p50_us\":230000.5,\"lat_p999_us\":300000,"
	"\"cpu_user_s\":0.25,\"cpu_sys_s\":1.5},"
	"{\"name\":\"RND4K Q1T1\",\"rw\":\"randread\",\"block_bytes\":4096,\"queue_depth\":1,"
	"\"bw_bytes_per_s\":8000000,\"iops\":1953.1},"
	"{\"name\":\"RND4K Q1T1\",\"rw\":\"randwrite\",\"block_bytes\":4096,\"queue_depth\":1,"
	"\"bw_bytes_per_s\":4000000,\"iops\":976.5}],"
	"\"checks\":[],\"findings\":[{\"id\":\"uas-errors\",\"severity\":\"error\"}]}";

static const char run_b[] =
	"{\"started_at\":\"2026-11-30T09:30:00Z\",\"profile\":\"quick\","
	"\"device\":{\"name\":\"nvme0n1\",\"model\":\"WD Blue SN580\",\"transport\":\"nvme\","
	"\"pcie\":{\"link_speed_gts\":5.0,\"link_width\":1}},"
	"\"tests\":[{\"name\":\"SEQ1M Q8T1\",\"rw\":\"read\",\"block_bytes\":1048576,"
	"\"queue_depth\":8,\"bw_bytes_per_s\":420000000}]}";

static char *json_of(const struct run *r)
{
	struct json_object *o = run_to_json(r);
	char *s;

	json_object_object_del(o, "id");
	s = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return s;
}

static void test_round_trip(void)
{
	struct run *in[2] = { t_run(run_a), t_run(run_b) };
	struct store_filter all = { 0 };
	struct run_list l = { 0 };
	struct store *st;
	char db[300], why[400];
	int64_t ids[2];
	size_t i;

	t_path(db, sizeof(db), "sub/dir/results.db");
	T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), -ENOENT);
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), 0);
	T_EQ_INT(store_runs_add(st, in, 2, STORE_ADD_NEW, ids, NULL), 0);
	T_CHECK(ids[0] > 0 && ids[1] == ids[0] + 1);
	store_close(st);

	T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), 0);
	T_EQ_INT(store_runs_query(st, &all, &l), 0);
	T_EQ_INT(l.n, 2);
	if (l.n == 2) {
		/* newest first, and every figure back as it went in */
		for (i = 0; i < 2; i++) {
			char *a = json_of(in[1 - i]), *b = json_of(l.runs[i]);

			T_EQ_STR(b, a);
			free(a);
			free(b);
		}
		T_EQ_INT(l.runs[0]->id, ids[1]);
	}
	/* a store opened for reading does not write */
	T_EQ_INT(store_runs_add(st, in, 1, STORE_ADD_NEW, NULL, NULL), -EROFS);
	run_list_release(&l);
	store_close(st);
	run_free(in[0]);
	run_free(in[1]);
}

static size_t count(struct store *st, struct store_filter f)
{
	struct run_list l = { 0 };
	size_t n;

	T_EQ_INT(store_runs_query(st, &f, &l), 0);
	n = l.n;
	run_list_release(&l);
	return n;
}

static void test_filters(void)
{
	struct store *st;
	char db[300], why[400];
	struct run_list l = { 0 };
	int64_t ids[3] = { 1, 99, 2 };

	t_path(db, sizeof(db), "sub/dir/results.db");
	T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), 0);
	T_EQ_INT(count(st, (struct store_filter){ .device = "ssd" }), 1);
	T_EQ_INT(count(st, (struct store_filter){ .device = "152D:0578" }), 1);
	T_EQ_INT(count(st, (struct store_filter){ .device = "nvme0" }), 1);
	T_EQ_INT(count(st, (struct store_filter){ .device = "%" }), 0);
	T_EQ_INT(count(st, (struct store_filter){ .profile = "quick" }), 1);
	T_EQ_INT(count(st, (struct store_filter){ .since = "2026-11-30" }), 1);
	T_EQ_INT(count(st, (struct store_filter){ .until = "2026-11-29" }), 1);
	T_EQ_INT(count(st, (struct store_filter){ .until = "2026-11-30" }), 2);
	T_EQ_INT(count(st, (struct store_filter){ .limit = 1 }), 1);
	T_EQ_INT(store_runs_get(st, ids, 3, &l), -ENOENT);
	T_CHECK(strstr(store_strerror(st), "99") != NULL);
	run_list_release(&l);
	T_EQ_INT(store_runs_get(st, (int64_t[]){ 2, 1 }, 2, &l), 0);
	T_EQ_INT(l.n, 2);
	if (l.n == 2)
		T_EQ_INT(l.runs[0]->id, 2);
	run_list_release(&l);
	store_close(st);
}

/* The run make_old_db() stores, as the history JSON. */
#define OLD_RUN_JSON                                                                        \
	"{\"started_at\":\"2025-01-02T03:04:05Z\",\"profile\":\"default\","                \
	"\"device\":{\"name\":\"sda\",\"model\":\"Old SSD\",\"usb\":"                     \
	"{\"vid\":\"174c\",\"pid\":\"55aa\",\"speed_mbps\":5000}},\"tests\":["           \
	"{\"name\":\"SEQ1M Q8T1\",\"rw\":\"read\",\"bw_bytes_per_s\":380000000}]}"

/* A database as schema version v made it, holding one run as that version stored it. */
static void make_old_db(const char *path, int v)
{
	sqlite3 *db;

	T_EQ_INT(sqlite3_open(path, &db), SQLITE_OK);
	T_EQ_INT(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
	T_EQ_INT(store_schema_migrate(db, 0, v), 0);
	T_EQ_INT(sqlite3_exec(db,
			      "INSERT INTO runs (id, started_at, profile, dev_name, dev_model,"
			      " device_json) VALUES (7, '2025-01-02T03:04:05Z', 'default', 'sda',"
			      " 'Old SSD', '{\"name\":\"sda\",\"model\":\"Old SSD\",\"usb\":"
			      "{\"vid\":\"174c\",\"pid\":\"55aa\",\"speed_mbps\":5000}}');"
			      "INSERT INTO tests (run_id, seq, name, rw, bw) VALUES"
			      " (7, 0, 'SEQ1M Q8T1', 'read', 380000000);",
			      NULL, NULL, NULL),
		 SQLITE_OK);
	/* what that version's insert did besides */
	if (v >= 3)
		T_EQ_INT(sqlite3_exec(db, "UPDATE runs SET " STORE_ATTACH_SET, NULL, NULL, NULL),
			 SQLITE_OK);
	if (v >= 5) {
		/* schema 5's insert wrote the run's digest */
		struct run *r = t_run(OLD_RUN_JSON);
		char digest[RUN_DIGEST_LEN + 1], sql[200];

		T_EQ_INT(run_digest(r, digest), 0);
		snprintf(sql, sizeof(sql), "UPDATE runs SET digest = '%s' WHERE id = 7", digest);
		T_EQ_INT(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
		run_free(r);
	}
	T_EQ_INT(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void test_migrations(void)
{
	int v;

	for (v = 1; v < STORE_SCHEMA_VERSION; v++) {
		struct store_filter f = { .device = "174c:55aa" };
		struct run_list l = { 0 };
		struct store *st;
		char db[300], why[400], name[32];
		int now = 0;

		snprintf(name, sizeof(name), "v%d.db", v);
		t_path(db, sizeof(db), name);
		make_old_db(db, v);
		/* a read migrates once, then reads */
		T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), 0);
		if (!st)
			continue;
		T_EQ_INT(store_schema_version(st, &now), 0);
		T_EQ_INT(now, STORE_SCHEMA_VERSION);
		/* the device filter uses the VID:PID column that schema 3 filled in */
		T_EQ_INT(store_runs_query(st, &f, &l), 0);
		T_EQ_INT(l.n, 1);
		if (l.n == 1) {
			T_EQ_INT(l.runs[0]->id, 7);
			T_EQ_INT(l.runs[0]->ntests, 1);
			T_NEAR(l.runs[0]->tests[0].bw, 380e6, 0.5);
			T_CHECK(isnan(l.runs[0]->tests[0].cpu_user_s));
		}
		run_list_release(&l);
		store_close(st);
		/* the digest was filled in for the old run: importing it again adds nothing */
		T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), 0);
		if (st) {
			struct run *old = t_run(
OLD_RUN_JSON);
			int64_t id = 0;
			bool dup = false;

			T_EQ_INT(store_runs_add(st, &old, 1, STORE_ADD_IMPORT, &id, &dup), 0);
			T_CHECK(dup);
			T_EQ_INT(id, 7);
			run_free(old);
			store_close(st);
		}
	}
}

static void test_foreign_and_newer(void)
{
	struct store *st;
	char db[300], why[400];
	sqlite3 *h;

	t_path(db, sizeof(db), "foreign.db");
	T_EQ_INT(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_exec(h, "CREATE TABLE photos (x)", NULL, NULL, NULL);
	sqlite3_close(h);
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), -EPROTO);
	T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), -EPROTO);

	t_path(db, sizeof(db), "newer.db");
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), 0);
	store_close(st);
	T_EQ_INT(sqlite3_open(db, &h), SQLITE_OK);
	sqlite3_exec(h, "INSERT INTO schema_migrations VALUES (99, 'x', 'future')", NULL, NULL,
		     NULL);
	sqlite3_close(h);
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), -EPROTO);
	T_CHECK(strstr(why, "newer") != NULL);
	T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), -EPROTO);
}

static void test_locked(void)
{
	struct run *r = t_run(run_b);
	struct store_filter all = { 0 };
	struct store *st, *rd;
	char db[300], why[400];
	sqlite3 *h;

	t_path(db, sizeof(db), "sub/dir/results.db");
	T_EQ_INT(store_open(db, STORE_WRITE, 100, &st, why, sizeof(why)), 0);
	T_EQ_INT(sqlite3_open(db, &h), SQLITE_OK);
	T_EQ_INT(sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
	T_EQ_INT(store_runs_add(st, &r, 1, STORE_ADD_NEW, NULL, NULL), -EBUSY);
	T_CHECK(strstr(store_strerror(st), "locked") != NULL);
	/* WAL: readers go on while another process writes */
	T_EQ_INT(store_open(db, STORE_READ, 100, &rd, why, sizeof(why)), 0);
	if (rd) {
		T_EQ_INT(count(rd, all), 2);
		store_close(rd);
	}
	sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(h);
	T_EQ_INT(store_runs_add(st, &r, 1, STORE_ADD_NEW, NULL, NULL), 0);
	T_EQ_INT(count(st, all), 3); /* a new measurement: stored, like as it is to run_b */
	store_close(st);
	run_free(r);
}

static void test_duplicates(void)
{
	struct run *in[3] = { t_run(run_a), t_run(run_b), t_run(run_b) };
	struct store_filter all = { 0 };
	struct store *st;
	char db[300], why[400];
	int64_t ids[3] = { 0 }, first[3] = { 0 };
	bool dup[3];

	t_path(db, sizeof(db), "dups.db");
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), 0);
	/* two identical runs in one file are two runs (ten benches in the same second) */
	T_EQ_INT(store_runs_add(st, in, 3, STORE_ADD_IMPORT, first, dup), 0);
	T_CHECK(!dup[0] && !dup[1] && !dup[2]);
	T_CHECK(first[2] == first[1] + 1);
	T_EQ_INT(count(st, all), 3);
	/* the same file again: nothing new, the old ids, each copy its own */
	T_EQ_INT(store_runs_add(st, in, 3, STORE_ADD_IMPORT, ids, dup), 0);
	T_CHECK(dup[0] && dup[1] && dup[2]);
	T_EQ_INT(ids[0], first[0]);
	T_EQ_INT(ids[1], first[1]);
	T_EQ_INT(ids[2], first[2]);
	T_EQ_INT(count(st, all), 3);
	/* only the engine or a latency differs: another run */
	str_copy(in[2]->engine, sizeof(in[2]->engine), "psync");
	T_EQ_INT(store_runs_add(st, &in[2], 1, STORE_ADD_IMPORT, ids, dup), 0);
	T_CHECK(!dup[0]);
	in[1]->tests[0].lat_p99_us = 1234;
	T_EQ_INT(store_runs_add(st, &in[1], 1, STORE_ADD_IMPORT, ids, dup), 0);
	T_CHECK(!dup[0]);
	T_EQ_INT(count(st, all), 5);
	/* a new measurement is never a duplicate, however alike */
	T_EQ_INT(store_runs_add(st, &in[0], 1, STORE_ADD_NEW, ids, dup), 0);
	T_CHECK(!dup[0] && ids[0] > first[2]);
	T_EQ_INT(count(st, all), 6);
	store_close(st);
	run_free(in[0]);
	run_free(in[1]);
	run_free(in[2]);
}

static void file_bytes(const char *path, char *buf, size_t cap, ssize_t *n)
{
	int fd = open(path, O_RDONLY);

	*n = fd < 0 ? -1 : read(fd, buf, cap);
	if (fd >= 0)
		close(fd);
}

static void test_corrupt(void)
{
	static const char junk[] = "this is not a database, it is a shopping list\n";
	struct run *r = t_run(run_b);
	char db[300], why[400], before[4096], after[4096];
	struct store_filter all = { 0 };
	struct run_list l = { 0 };
	struct store *st;
	ssize_t n1, n2;
	FILE *f;
	int ret;

	t_path(db, sizeof(db), "junk.db");
	f = fopen(db, "w");
	fputs(junk, f);
	fclose(f);
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), -EBADMSG);
	T_CHECK(strstr(why, "left as it is") != NULL);
	T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), -EBADMSG);
	file_bytes(db, after, sizeof(after), &n2);
	T_EQ_INT(n2, (ssize_t)strlen(junk));
	T_CHECK(n2 > 0 && !memcmp(after, junk, (size_t)n2));

	/* a real database whose table pages were overwritten */
	t_path(db, sizeof(db), "damaged.db");
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), 0);
	T_EQ_INT(store_runs_add(st, &r, 1, STORE_ADD_NEW, NULL, NULL), 0);
	store_close(st);
	f = fopen(db, "r+");
	fseek(f, 4096, SEEK_SET);
	for (n1 = 0; n1 < 3 * 4096; n1++)
		fputc(0xa5, f);
	fclose(f);
	file_bytes(db, before, sizeof(before), &n1);
	ret = store_open(db, STORE_READ, 0, &st, why, sizeof(why));
	if (!ret) {
		ret = store_runs_query(st, &all, &l);
		run_list_release(&l);
		store_close(st);
	}
	T_EQ_INT(ret, -EBADMSG);
	ret = store_open(db, STORE_WRITE, 0, &st, why, sizeof(why));
	if (!ret) {
		ret = store_runs_add(st, &r, 1, STORE_ADD_NEW, NULL, NULL);
		store_close(st);
	}
	T_EQ_INT(ret, -EBADMSG);
	file_bytes(db, after, sizeof(after), &n2);
	T_CHECK(n1 == n2 && n1 > 0 && !memcmp(before, after, (size_t)n1));
	run_free(r);
}

/* One boot of the drive of run_a (serial S1), attached as dev says, total t. */
static int add_boot(struct store *st, const char *id, const char *dev, double kernel,
		    double initrd, double total, bool *added)
{
	struct store_boot b = { .kernel_s = kernel, .initrd_s = initrd, .total_s = total,
				.userspace_s = total - kernel - (isnan(initrd) ? 0 : initrd),
				.firmware_s = NAN, .loader_s = NAN };
	const char *err;
	int ret;

	snprintf(b.boot_id, sizeof(b.boot_id), "%s", id);
	b.device = dev ? json_parse_buf(dev, strlen(dev), &err) : NULL;
	ret = store_boot_add(st, &b, added, NULL, 0);
	json_object_put(b.device);
	return ret;
}

#define DEV_UAS                                                                             \
	"{\"name\":\"sda\",\"model\":\"Extreme SSD\",\"serial\":\"S1\",\"transport\":\"usb\","   \
	"\"usb\":{\"vid\":\"152d\",\"pid\":\"0578\",\"speed_mbps\":5000,\"driver\":\"uas\"}}"
#define DEV_STORAGE                                                                         \
	"{\"name\":\"sdb\",\"model\":\"Extreme SSD\",\"serial\":\"S1\",\"transport\":\"usb\","   \
	"\"usb\":{\"vid\":\"152d\",\"pid\":\"0578\",\"speed_mbps\":5000,"                     \
	"\"driver\":\"usb-storage\"}}"
#define DEV_SD "{\"name\":\"mmcblk0\",\"transport\":\"mmc\",\"mmc\":{\"name\":\"SR64G\"," \
	"\"serial\":\"0x1234\"}}"

/* boot times: once per boot id, grouped by drive and attachment, the figures exact, the
 * drives of given runs only, bad figures refused */
static void test_boot_times(void)
{
	struct store_boot_filter all = { 0 }, by_dev = { .device = "mmcblk" };
	struct store_boot_group *g = NULL;
	struct run *r = t_run(run_a);
	struct store *st;
	char db[300], why[400];
	int64_t id = 0, none = 999;
	bool added = false;
	size_t n = 0;

	t_path(db, sizeof(db), "boots.db");
	T_EQ_INT(store_open(db, STORE_WRITE, 0, &st, why, sizeof(why)), 0);
	if (!st)
		return;
	T_EQ_INT(add_boot(st, "b1", DEV_UAS, 6.0, NAN, 27.70, &added), 0);
	T_CHECK(added);
	T_EQ_INT(add_boot(st, "b1", DEV_UAS, 6.0, NAN, 99.0, &added), 0);
	T_CHECK(!added); /* the same boot again: nothing changes */
	T_EQ_INT(add_boot(st, "b2", DEV_UAS, 6.5, NAN, 28.03, &added), 0);
	T_EQ_INT(add_boot(st, "b3", DEV_UAS, 5.5, NAN, 27.49, &added), 0);
	T_EQ_INT(add_boot(st, "b4", DEV_STORAGE, 4.0, 2.0, 29.5, &added), 0);
	T_EQ_INT(add_boot(st, "b5", DEV_STORAGE, 4.0, 3.0, 30.5, &added), 0);
	T_EQ_INT(add_boot(st, "b6", DEV_SD, 5.0, NAN, 31.2, &added), 0);
	T_EQ_INT(add_boot(st, "", DEV_SD, 5.0, NAN, 31.2, &added), -EINVAL);
	T_EQ_INT(add_boot(st, "b7", DEV_SD, 5.0, NAN, NAN, &added), -EINVAL);
	T_EQ_INT(add_boot(st, "b8", DEV_SD, 5.0, NAN, -1, &added), -EINVAL);
	T_EQ_INT(store_boot_groups(st, &all, &g, &n), 0);
	T_EQ_INT(n, 3);
	if (n == 3) {
		/* fastest first */
		T_EQ_STR(g[0].device, "Extreme SSD");
		T_EQ_STR(g[0].attachment, "usb 5000M uas 152d:0578");
		T_EQ_INT(g[0].boots, 3);
		T_NEAR(g[0].total.mean, (27.70 + 28.03 + 27.49) / 3, 1e-9);
		T_NEAR(g[0].total.min, 27.49, 1e-9);
		T_NEAR(g[0].total.max, 28.03, 1e-9);
		T_NEAR(g[0].kernel.mean, 6.0, 1e-9);
		T_EQ_INT(g[0].initrd.n, 0);
		T_EQ_STR(g[1].attachment, "usb 5000M usb-storage 152d:0578");
		T_EQ_STR(g[1].dev_name, "sdb");
		T_EQ_INT(g[1].boots, 2);
		T_NEAR(g[1].total.mean, 30.0, 1e-9);
		T_EQ_INT(g[1].initrd.n, 2);
		T_NEAR(g[1].initrd.mean, 2.5, 1e-9);
		T_NEAR(g[1].userspace.max, 23.5, 1e-9);
		T_EQ_STR(g[2].device, "SR64G");
		T_EQ_INT(g[2].boots, 1);
	}
	free(g);
	T_EQ_INT(store_boot_groups(st, &by_dev, &g, &n), 0);
	T_EQ_INT(n, 1);
	free(g);
	/* the drives of a run: run_a is serial S1 (both attachments), an unknown run none */
	T_EQ_INT(store_runs_add(st, &r, 1, STORE_ADD_NEW, &id, NULL), 0);
	{
		struct store_boot_filter of_run = { .runs = &id, .n_runs = 1 };
		struct store_boot_filter of_none = { .runs = &none, .n_runs = 1 };

		T_EQ_INT(store_boot_groups(st, &of_run, &g, &n), 0);
		T_EQ_INT(n, 2);
		free(g);
		T_EQ_INT(store_boot_groups(st, &of_none, &g, &n), 0);
		T_EQ_INT(n, 0);
		free(g);
	}
	store_close(st);
	/* read-only: no add */
	T_EQ_INT(store_open(db, STORE_READ, 0, &st, why, sizeof(why)), 0);
	if (st) {
		T_EQ_INT(add_boot(st, "b9", DEV_SD, 5.0, NAN, 31.0, &added), -EROFS);
		store_close(st);
	}
	run_free(r);
}

int main(void)
{
	t_dir_make();
	T_EQ_INT(store_sqlite_load(NULL, 0), 0); /* the test opens databases itself too */
	test_round_trip();
	test_filters();
	test_migrations();
	test_foreign_and_newer();
	test_locked();
	test_duplicates();
	test_corrupt();
	test_boot_times();
	return t_done();
}
