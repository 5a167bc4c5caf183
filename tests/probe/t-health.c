/* t-health.c - the smartctl --json parser on real captured outputs (tests/probe/smartctl/) and
 * on garbage, and the -d type chosen from the attachment. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t.h"
#include "probe/health.h"

static char *slurp(const char *name, size_t *len)
{
	char path[1024];
	const char *src = getenv("SBCDISK_SRCDIR");
	FILE *f;
	char *buf;

	snprintf(path, sizeof(path), "%s/tests/probe/smartctl/%s", src ? src : ".", name);
	f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		exit(1);
	}
	buf = malloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void parse_file(const char *name, struct probe_health *h)
{
	size_t len;
	char *buf = slurp(name, &len);

	memset(h, 0, sizeof(*h));
	T_EQ_INT(probe_health_parse(buf, len, h), 0);
	free(buf);
}

static void test_sat_ssd(void)
{
	struct probe_health h;

	parse_file("sat-ssd-samsung860.json", &h);
	T_EQ_INT(h.state, PROBE_HEALTH_OK);
	T_EQ_STR(h.reported_type, "sat");
	T_CHECK(h.has_passed && h.passed);
	T_CHECK(h.has_power_on_hours && h.power_on_hours == 14551);
	T_CHECK(h.has_temperature && h.temperature_c == 36);
	T_CHECK(h.has_reallocated && h.reallocated_sectors == 0);
	T_CHECK(!h.has_pending);
	T_CHECK(!h.has_media_errors && !h.has_unsafe_shutdowns && !h.has_critical_warning);
	/* from the device statistics, not the vendor-specific 177 Wear_Leveling_Count */
	T_CHECK(h.has_percentage_used && h.percentage_used == 19);
}

static void test_failing_hdd(void)
{
	struct probe_health h;

	parse_file("usbjmicron-hdd-failing.json", &h);
	T_EQ_INT(h.state, PROBE_HEALTH_OK);
	T_EQ_STR(h.reported_type, "usbjmicron");
	T_CHECK(h.has_passed && !h.passed);
	T_CHECK(h.has_reallocated && h.reallocated_sectors == 1975);
	T_CHECK(h.has_pending && h.pending_sectors == 8);
	T_CHECK(h.has_power_on_hours && h.power_on_hours == 65592);
	T_CHECK(h.has_temperature && h.temperature_c == 25);
	T_CHECK(h.has_exit_status && h.exit_status == 216);
}

static void test_nvme(void)
{
	struct probe_health h;

	parse_file("nvme-mp510.json", &h);
	T_EQ_INT(h.state, PROBE_HEALTH_OK);
	T_CHECK(h.has_passed && h.passed);
	T_CHECK(h.has_critical_warning && h.critical_warning == 0);
	T_CHECK(h.has_percentage_used && h.percentage_used == 1);
	T_CHECK(h.has_media_errors && h.media_errors == 0);
	T_CHECK(h.has_unsafe_shutdowns && h.unsafe_shutdowns == 4);
	T_CHECK(h.has_power_on_hours && h.power_on_hours == 6487);
	T_CHECK(h.has_temperature && h.temperature_c == 38);
	T_CHECK(!h.has_reallocated && !h.has_pending);

	parse_file("nvme-970evo.json", &h);
	T_CHECK(h.has_media_errors && h.media_errors == 7);
	T_CHECK(h.has_percentage_used && h.percentage_used == 3);
}

static void test_no_smart(void)
{
	struct probe_health h;

	parse_file("usb-unknown-bridge.json", &h);
	T_EQ_INT(h.state, PROBE_HEALTH_NO_SMART);
	T_CHECK(strstr(h.message, "Unknown USB bridge [0x048d:0x1234") != NULL);
	T_CHECK(!h.has_passed && !h.has_temperature);
	T_CHECK(h.has_exit_status && h.exit_status == 1);

	parse_file("error-open-failed.json", &h);
	T_EQ_INT(h.state, PROBE_HEALTH_ERROR);
	T_CHECK(strstr(h.why, "Open failed") != NULL);
	T_CHECK(h.has_exit_status && h.exit_status == 2);
}

static void test_garbage(void)
{
	static const char *const bad[] = {
	    "", "{", "[]", "null", "42", "{\"smartctl\": 1}", "{\"a\":{}}",
	    "{\"smartctl\":{}} trailing",
	};
	struct probe_health h;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&h, 0, sizeof(h));
		T_EQ_INT(probe_health_parse(bad[i], strlen(bad[i]), &h), -22);
	}
	/* wrong types and hostile values are unknown, not errors */
	{
		const char *s = "{\"smartctl\":{\"exit_status\":-5,\"messages\":[1,{\"string\":2}]},"
				"\"smart_status\":{\"passed\":1},\"temperature\":{\"current\":1e9},"
				"\"power_on_time\":{\"hours\":-1},\"nvme_smart_health_information_log\":"
				"{\"percentage_used\":99999,\"media_errors\":\"7\"},"
				"\"ata_smart_attributes\":{\"table\":[{\"id\":5},{\"id\":197,\"raw\":"
				"{\"value\":3}}]}}";

		memset(&h, 0, sizeof(h));
		T_EQ_INT(probe_health_parse(s, strlen(s), &h), 0);
		T_CHECK(!h.has_exit_status && !h.has_passed && !h.has_temperature);
		T_CHECK(!h.has_power_on_hours && !h.has_percentage_used && !h.has_media_errors);
		T_CHECK(!h.has_reallocated && h.has_pending && h.pending_sectors == 3);
	}
	/* smartctl's own "SMART support is: Unavailable" */
	{
		const char *s = "{\"smartctl\":{\"exit_status\":4},\"device\":{\"type\":\"scsi\"},"
				"\"smart_support\":{\"available\":false,\"enabled\":false}}";

		memset(&h, 0, sizeof(h));
		T_EQ_INT(probe_health_parse(s, strlen(s), &h), 0);
		T_EQ_INT(h.state, PROBE_HEALTH_NO_SMART);
	}
	/* the -d type the caller set survives the parse */
	memset(&h, 0, sizeof(h));
	strcpy(h.device_type, "sntrealtek");
	T_EQ_INT(probe_health_parse("{\"smartctl\":{}}", 15, &h), 0);
	T_EQ_STR(h.device_type, "sntrealtek");
	T_EQ_INT(h.state, PROBE_HEALTH_ERROR);
}

static void test_dtype(void)
{
	struct probe_usb u = {.has_ids = true};
	struct probe_mmc m = {0};
	struct blkdev d = {0};
	const char *why;

	d.transport = PROBE_TRAN_NVME;
	T_EQ_STR(probe_health_dtype(&d, &why), "nvme");
	d.transport = PROBE_TRAN_USB;
	d.usb = &u;
	u.vid_num = 0x152d, u.pid_num = 0x0578;
	T_EQ_STR(probe_health_dtype(&d, &why), "sat");
	u.vid_num = 0x0bda, u.pid_num = 0x9210;
	T_EQ_STR(probe_health_dtype(&d, &why), "sntrealtek");
	u.vid_num = 0x152d, u.pid_num = 0x0583;
	T_EQ_STR(probe_health_dtype(&d, &why), "sntjmicron");
	u.vid_num = 0x174c, u.pid_num = 0x2362;
	T_EQ_STR(probe_health_dtype(&d, &why), "sntasmedia");
	u.vid_num = 0x05e3, u.pid_num = 0x0749;
	strcpy(u.bridge, "Genesys Logic SD card reader");
	T_CHECK(probe_health_dtype(&d, &why) == NULL && why != NULL);
	d.usb = NULL;
	d.transport = PROBE_TRAN_MMC;
	d.mmc = &m;
	T_CHECK(probe_health_dtype(&d, &why) == NULL && why && strstr(why, "SD"));
	d.transport = PROBE_TRAN_LOOP;
	T_CHECK(probe_health_dtype(&d, &why) == NULL && why == NULL);
	d.transport = PROBE_TRAN_NVME;
	d.is_partition = true;
	T_CHECK(probe_health_dtype(&d, &why) == NULL);
}

int main(void)
{
	test_sat_ssd();
	test_failing_hdd();
	test_nvme();
	test_no_smart();
	test_garbage();
	test_dtype();
	return t_done();
}
