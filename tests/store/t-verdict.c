/* t-verdict.c - link ceilings, the per-test and per-run verdicts, the boot-drive score
 * (checked against the boot times the seeds measured) and the A1/A2 verdicts. */
#include <math.h>

#include "t.h"
#include "t-helpers.h"
#include "common/util.h"
#include "store/verdict.h"

static void test_ceilings(void)
{
	struct link_ceiling c;

	T_EQ_INT(verdict_usb_ceiling(480, &c), 0);
	T_NEAR(c.bytes_per_s, 40e6, 1);
	T_EQ_STR(c.name, "USB 2.0, 480M");
	T_EQ_INT(verdict_usb_ceiling(5000, &c), 0);
	T_NEAR(c.bytes_per_s, 450e6, 1);
	T_EQ_INT(verdict_usb_ceiling(10000, &c), 0);
	T_NEAR(c.bytes_per_s, 1000e6, 1);
	T_EQ_INT(verdict_usb_ceiling(123, &c), -ENODATA);
	/* PCIe: per-lane rate after encoding, times lanes, times 0.85 */
	T_EQ_INT(verdict_pcie_ceiling(5.0, 1, &c), 0);
	T_NEAR(c.bytes_per_s, 425e6, 1);
	T_EQ_STR(c.name, "PCIe Gen 2 x1");
	T_EQ_INT(verdict_pcie_ceiling(8.0, 4, &c), 0);
	T_NEAR(c.bytes_per_s, 984.6e6 * 4 * 0.85, 1);
	T_EQ_INT(verdict_pcie_ceiling(8.0, 0, &c), -ENODATA);
	T_EQ_INT(verdict_pcie_ceiling(3.0, 1, &c), -ENODATA);
	T_EQ_INT(verdict_mmc_ceiling("sd uhs DDR50", &c), 0);
	T_NEAR(c.bytes_per_s, 45e6, 1);
	T_EQ_INT(verdict_mmc_ceiling("sd uhs SDR104", &c), 0);
	T_NEAR(c.bytes_per_s, 90e6, 1);
	T_EQ_INT(verdict_mmc_ceiling("sd high-speed", &c), 0);
	T_NEAR(c.bytes_per_s, 23e6, 1);
	T_EQ_INT(verdict_mmc_ceiling("mmc HS400 enhanced strobe", &c), 0);
	T_NEAR(c.bytes_per_s, 400e6, 1);
	T_EQ_INT(verdict_mmc_ceiling("mmc HS200", &c), 0);
	T_NEAR(c.bytes_per_s, 200e6, 1);
	T_EQ_INT(verdict_mmc_ceiling(NULL, &c), -ENODATA);
}

/* A run with one sequential read test at mbps over the given device JSON. */
static struct run *seq_run(const char *device, double mbps, const char *findings)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"hdparm\",\"device\":%s,"
		 "\"findings\":%s,\"tests\":[{\"name\":\"hdparm -T cached\",\"rw\":\"read\","
		 "\"block_bytes\":2097152,\"bw_bytes_per_s\":3e9},{\"name\":\"hdparm -t\","
		 "\"rw\":\"read\",\"block_bytes\":2097152,\"bw_bytes_per_s\":%.0f}]}",
		 device, findings ? findings : "null", mbps * 1e6);
	return t_run(buf);
}

static void expect(const char *device, double mbps, const char *findings,
		   enum verdict_limit limit, const char *text)
{
	struct run *r = seq_run(device, mbps, findings);
	struct verdict v;

	T_EQ_INT(verdict_run(r, &v), 0);
	T_EQ_INT(v.limit, limit);
	T_EQ_STR(v.text, text);
	/* the cached figure is memory, never judged */
	T_EQ_INT(verdict_test(r, &r->tests[0], &v), -ENODATA);
	run_free(r);
}

static void test_verdicts(void)
{
	static const char usb2_ssd[] = "{\"model\":\"USB SSD\",\"transport\":\"usb\","
				       "\"usb\":{\"vid\":\"152d\",\"pid\":\"0578\",\"speed_mbps\":480}}";
	static const char usb3_ssd[] = "{\"model\":\"USB SSD\",\"transport\":\"usb\","
				       "\"usb\":{\"speed_mbps\":5000,\"driver\":\"uas\"}}";
	static const char usb3_hdd[] = "{\"model\":\"ST1000\",\"transport\":\"usb\","
				       "\"rotational\":true,\"usb\":{\"speed_mbps\":5000}}";
	static const char nvme_nolink[] = "{\"model\":\"ADATA LEGEND 700\",\"transport\":\"nvme\","
					  "\"pcie\":null}";
	static const char nvme_gen2[] = "{\"transport\":\"nvme\",\"pcie\":{\"link_speed_gts\":5,"
					"\"link_width\":1}}";
	static const char sd_ddr50[] = "{\"transport\":\"mmc\",\"mmc\":{\"type\":\"SD\","
				       "\"timing\":\"sd uhs DDR50\"}}";
	static const char uas[] = "[{\"id\":\"uas-errors\",\"severity\":\"error\"}]";

	/* the seeds: the USB 2.0 SSD at 32.47 hdparm-MB/s, the Jetson NVMe at 21.9 */
	expect(usb2_ssd, 32.47 * 1.048576, NULL, VERDICT_LINK,
	       "limited by the link (USB 2.0, 480M)");
	expect(nvme_nolink, 21.9 * 1.048576, NULL, VERDICT_PROBLEM,
	       "far below what the link allows — run sbcdisk doctor");
	expect(nvme_nolink, 175, NULL, VERDICT_UNKNOWN, "no ceiling known (PCIe link not recorded)");
	expect(usb3_ssd, 35, uas, VERDICT_PROBLEM,
	       "far below what the link allows — see doctor: uas-errors");
	expect(usb3_ssd, 420, uas, VERDICT_LINK, "limited by the link (USB 3 Gen 1, 5000M)");
	/* a finding about another drive does not explain this one */
	expect("{\"name\":\"sda\",\"model\":\"USB SSD\",\"usb\":{\"speed_mbps\":5000,"
	       "\"vid\":\"152d\",\"pid\":\"0578\"}}",
	       35, "[{\"id\":\"uas-errors\",\"severity\":\"error\",\"device\":\"sdb\"},"
	       "{\"id\":\"uas-errors\",\"severity\":\"error\",\"usb_id\":\"174c:55aa\"},"
	       "{\"id\":\"undervoltage\",\"severity\":\"info\"}]",
	       VERDICT_PROBLEM, "far below what the link allows — run sbcdisk doctor");
	expect("{\"name\":\"sda\",\"model\":\"Stick\",\"usb\":{\"speed_mbps\":5000,"
	       "\"vid\":\"152d\",\"pid\":\"0578\"}}",
	       35, "[{\"id\":\"uas-errors\",\"severity\":\"warning\",\"device\":\"sda2\","
	       "\"usb_id\":\"152D:0578\"}]",
	       VERDICT_PROBLEM, "far below what the link allows — see doctor: uas-errors");
	expect(usb3_ssd, 213, NULL, VERDICT_DEVICE, "limited by the device");
	/* a slow disk that spins is just slow */
	expect(usb3_hdd, 90, NULL, VERDICT_DEVICE, "limited by the device");
	expect(nvme_gen2, 410, NULL, VERDICT_LINK, "limited by the link (PCIe Gen 2 x1)");
	expect(sd_ddr50, 43.9, NULL, VERDICT_LINK, "limited by the link (SD DDR50)");
	expect(sd_ddr50, 20, NULL, VERDICT_DEVICE, "limited by the device");
	expect("{\"model\":\"x\"}", 20, NULL, VERDICT_UNKNOWN,
	       "no ceiling known for how the drive is attached");
}

/* CrystalDiskMark figures of seed 003 (RND4K Q1T1 and Q32T1 IOPS, SEQ1M Q8T1 MB/s, read and
 * write) and the seed's boot-to-desktop times of the same drives on a Pi 4 (mean of five). */
static const struct {
	const char *drive;
	double q1r, q1w, q32r, q32w, seqr, seqw;
	double boot_s;
} cdm[] = {
	{ "microSD", 2414.8, 1240.5, 2763.7, 1291.5, 97.460, 31.884, 31.01 },
	{ "HDD", 128.4, 383.5, 315.9, 380.6, 136.838, 135.377, 46.44 },
	{ "SATA SSD", 5551.3, 7835.2, 18612.1, 16753.4, 423.096, 360.256, 27.72 },
	{ "NVMe SSD", 7206.3, 7527.8, 18850.1, 17184.6, 960.665, 683.108, 27.76 },
};

static struct run *cdm_run(size_t i)
{
	char buf[1500];

	snprintf(buf, sizeof(buf),
		 "{\"started_at\":\"2023-02-04T00:00:00Z\",\"profile\":\"default\",\"tests\":["
		 "{\"name\":\"RND4K Q1T1\",\"rw\":\"randread\",\"iops\":%g},"
		 "{\"name\":\"RND4K Q1T1\",\"rw\":\"randwrite\",\"iops\":%g},"
		 "{\"name\":\"RND4K Q32T1\",\"rw\":\"randread\",\"iops\":%g},"
		 "{\"name\":\"RND4K Q32T1\",\"rw\":\"randwrite\",\"iops\":%g},"
		 "{\"name\":\"SEQ1M Q8T1\",\"rw\":\"read\",\"bw_bytes_per_s\":%g},"
		 "{\"name\":\"SEQ1M Q8T1\",\"rw\":\"write\",\"bw_bytes_per_s\":%g}]}",
		 cdm[i].q1r, cdm[i].q1w, cdm[i].q32r, cdm[i].q32w, cdm[i].seqr * 1e6,
		 cdm[i].seqw * 1e6);
	return t_run(buf);
}

static void test_score(void)
{
	double score[ARRAY_SIZE(cdm)];
	struct run *r;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(cdm); i++) {
		r = cdm_run(i);
		score[i] = verdict_score(r);
		T_CHECK(isfinite(score[i]));
		run_free(r);
	}
	/* A drive that boots clearly faster (by more than 1 s) scores higher. */
	for (i = 0; i < ARRAY_SIZE(cdm); i++)
		for (j = 0; j < ARRAY_SIZE(cdm); j++)
			if (cdm[i].boot_s + 1 < cdm[j].boot_s)
				T_CHECK(score[i] > score[j]);
	/* exactly the floor of A1 everywhere scores 100 */
	r = t_run("{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"x\",\"tests\":["
		  "{\"name\":\"RND4K Q1T1\",\"rw\":\"randread\",\"iops\":1500},"
		  "{\"name\":\"RND4K Q1T1\",\"rw\":\"randwrite\",\"bw_bytes_per_s\":2048000,"
		  "\"block_bytes\":4096},"
		  "{\"name\":\"SEQ1M Q1T1\",\"rw\":\"write\",\"bw_bytes_per_s\":1e7}]}");
	T_NEAR(verdict_score(r), 100, 1e-6);
	/* without the low-queue-depth random figures there is no score */
	r->ntests = 1;
	T_CHECK(isnan(verdict_score(r)));
	run_free(r);
}

static void test_app_class(void)
{
	struct run *r;
	char buf[200];

	r = t_run("{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"sdcard\","
		  "\"device\":{\"mmc\":{\"app_class\":\"A2\"}},\"tests\":[],\"checks\":["
		  "{\"name\":\"A1 random read\",\"pass\":true},"
		  "{\"name\":\"A1 random write\",\"pass\":true},"
		  "{\"name\":\"A2 random read\",\"pass\":true},"
		  "{\"name\":\"A2 random write\",\"pass\":false}]}");
	T_EQ_INT(verdict_app_class(r, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "A1 met, A2 not met (random write); the card claims A2");
	run_free(r);
	r = t_run("{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"x\",\"tests\":[]}");
	T_EQ_INT(verdict_app_class(r, buf, sizeof(buf)), -ENODATA);
	run_free(r);
}

int main(void)
{
	test_ceilings();
	test_verdicts();
	test_score();
	test_app_class();
	return t_done();
}
