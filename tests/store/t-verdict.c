/* t-verdict.c - link ceilings, the path model's ranges, the per-test and per-run verdicts, the
 * bench's closing line, the boot-drive score (against the seeds' boot times) and A1/A2. */
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

/* A run on board with one sequential read test at mbps over the given device JSON. */
static struct run *board_run(const char *board, const char *device, double mbps,
			     const char *findings)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"hdparm\",\"board\":\"%s\","
		 "\"device\":%s,"
		 "\"findings\":%s,\"tests\":[{\"name\":\"hdparm -T cached\",\"rw\":\"read\","
		 "\"block_bytes\":2097152,\"bw_bytes_per_s\":3e9},{\"name\":\"hdparm -t\","
		 "\"rw\":\"read\",\"block_bytes\":2097152,\"bw_bytes_per_s\":%.0f}]}",
		 board, device, findings ? findings : "null", mbps * 1e6);
	return t_run(buf);
}

static struct run *seq_run(const char *device, double mbps, const char *findings)
{
	return board_run("", device, mbps, findings);
}

static void expect(const char *device, double mbps, const char *findings,
		   enum verdict_limit limit, const char *text)
{
	struct run *r = seq_run(device, mbps, findings);
	struct verdict v;

	T_EQ_INT(verdict_run(r, &v), 0);
	T_EQ_INT(v.limit, limit);
	T_EQ_STR(v.text, text);
	/* the cached figure is memory, never judged against the disk */
	T_EQ_INT(verdict_test(r, &r->tests[0], &v), 0);
	T_EQ_INT(v.limit, VERDICT_MEMORY);
	T_CHECK(isnan(v.ceiling) && isnan(v.expect_lo) && isnan(v.expect_hi));
	T_EQ_STR(verdict_limit_name(v.limit), "memory");
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
	       "far below this path — check its PCIe link: sbcdisk list");
	expect(nvme_nolink, 175, NULL, VERDICT_UNKNOWN, "no ceiling known (PCIe link not recorded)");
	/* its link known and far above the figure: the drive itself (a drive that throttles) */
	expect(nvme_gen2, 40, NULL, VERDICT_PROBLEM,
	       "far below this path — check its temperature and health: "
	       "sbcdisk list -o +TEMP,HEALTH,WEAR");
	expect(usb3_ssd, 35, uas, VERDICT_PROBLEM,
	       "far below this path — see doctor: uas-errors; try sbcdisk fix uas DEVICE --try");
	expect(usb3_ssd, 420, uas, VERDICT_LINK, "limited by the link (USB 3 Gen 1, 5000M)");
	/* a finding about another drive does not explain this one */
	expect("{\"name\":\"sda\",\"model\":\"USB SSD\",\"usb\":{\"speed_mbps\":5000,"
	       "\"vid\":\"152d\",\"pid\":\"0578\"}}",
	       35, "[{\"id\":\"uas-errors\",\"severity\":\"error\",\"device\":\"sdb\"},"
	       "{\"id\":\"uas-errors\",\"severity\":\"error\",\"usb_id\":\"174c:55aa\"},"
	       "{\"id\":\"undervoltage\",\"severity\":\"info\"}]",
	       VERDICT_PROBLEM, "far below this path — try sbcdisk fix uas sda --try");
	expect("{\"name\":\"sda\",\"model\":\"Stick\",\"usb\":{\"speed_mbps\":5000,"
	       "\"vid\":\"152d\",\"pid\":\"0578\"}}",
	       35, "[{\"id\":\"uas-errors\",\"severity\":\"warning\",\"device\":\"sda2\","
	       "\"usb_id\":\"152D:0578\"}]",
	       VERDICT_PROBLEM,
	       "far below this path — see doctor: uas-errors; try sbcdisk fix uas sda --try");
	expect(usb3_ssd, 213, NULL, VERDICT_DEVICE, "limited by the device");
	/* a slow disk that spins is just slow */
	expect(usb3_hdd, 90, NULL, VERDICT_DEVICE, "limited by the device (a spinning disk)");
	expect(nvme_gen2, 410, NULL, VERDICT_LINK, "limited by the link (PCIe Gen 2 x1)");
	expect(sd_ddr50, 43.9, NULL, VERDICT_LINK, "limited by the link (SD DDR50)");
	expect(sd_ddr50, 20, NULL, VERDICT_DEVICE, "limited by the device");
	expect("{\"model\":\"x\"}", 20, NULL, VERDICT_UNKNOWN,
	       "no ceiling known for how the drive is attached");
}

/* One large read at mbps with queue depth qd on board over device. */
static struct run *qd_run(const char *board, const char *device, double qd, double mbps)
{
	char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"default\",\"board\":\"%s\","
		 "\"device\":%s,\"tests\":[{\"name\":\"SEQ1M Q%gT1\",\"rw\":\"read\","
		 "\"block_bytes\":1048576,\"queue_depth\":%g,\"bw_bytes_per_s\":%.0f}]}",
		 board, device, qd, qd, mbps * 1e6);
	return t_run(buf);
}

static void expect_path(const char *board, const char *device, double qd, double mbps,
			enum verdict_limit limit, double lo, double hi)
{
	struct run *r = qd_run(board, device, qd, mbps);
	struct verdict v;

	T_EQ_INT(verdict_test(r, &r->tests[0], &v), 0);
	T_EQ_INT(v.limit, limit);
	if (isnan(lo)) {
		T_CHECK(isnan(v.expect_lo) && isnan(v.expect_hi));
	} else {
		T_NEAR(v.expect_lo, lo * 1e6, 1);
		T_NEAR(v.expect_hi, hi * 1e6, 1);
	}
	run_free(r);
}

/* The path model on the seeds' own paths (docs/paths.md says where each range is from). */
static void test_paths(void)
{
	static const char pi4[] = "Raspberry Pi 4 Model B Rev 1.4";
	static const char jms_uas[] = "{\"name\":\"sda\",\"model\":\"Samsung SSD 870\","
				      "\"transport\":\"usb\",\"rotational\":false,\"usb\":{"
				      "\"vid\":\"152d\",\"pid\":\"0578\",\"speed_mbps\":5000,"
				      "\"driver\":\"uas\",\"bridge\":\"JMicron JMS567/JMS578\"}}";
	static const char via_bot[] = "{\"name\":\"sda\",\"model\":\"M.2 SATA SSD\","
				      "\"transport\":\"usb\",\"usb\":{\"vid\":\"2109\",\"pid\":\"0715\","
				      "\"speed_mbps\":5000,\"driver\":\"usb-storage\"}}";
	/* seed 003: the SATA SSD behind a Gen 1 bridge, speed not recorded on the PC */
	static const char pc_ssd[] = "{\"model\":\"ADATA ASU650SS-120GT SATA SSD\",\"transport\":"
				     "\"usb\",\"rotational\":false,\"usb\":{\"vid\":\"152d\","
				     "\"pid\":\"0576\",\"speed_mbps\":null}}";
	static const char pi_ssd[] = "{\"model\":\"ADATA ASU650SS-120GT SSD\",\"transport\":"
				     "\"usb\",\"usb\":{\"vid\":\"152d\",\"pid\":\"0576\","
				     "\"speed_mbps\":5000}}";
	static const char hdd[] = "{\"model\":\"Seagate ST1000LM048 HDD\",\"transport\":\"usb\","
				  "\"rotational\":true,\"usb\":{\"speed_mbps\":5000}}";
	static const char nvme[] = "{\"name\":\"nvme0n1\",\"model\":\"ADATA LEGEND 700 NVMe\","
				   "\"transport\":\"nvme\",\"rotational\":false,\"pcie\":null}";
	static const char nvme_g2[] = "{\"transport\":\"nvme\",\"model\":\"Crucial P3 Plus\","
				      "\"pcie\":{\"link_speed_gts\":5,\"link_width\":1}}";
	static const char emmc[] = "{\"transport\":\"mmc\",\"model\":\"eMMC\",\"mmc\":{\"type\":"
				   "\"MMC\",\"timing\":\"mmc HS400 enhanced strobe\"}}";
	struct run *r;
	struct verdict v;
	struct path_expect e;
	char line[256];

	/* seed 004: usb-storage on the Pi 4's USB 3 port at 260-280 MB/s is the protocol's limit */
	expect_path(pi4, via_bot, 1, 283, VERDICT_PROTOCOL, 180, 290);
	expect_path("Raspberry Pi 5 Model B Rev 1.0", via_bot, 1, 283, VERDICT_PROTOCOL, 180, 300);
	/* the same drive on uas at tens of MB/s: far below, and the experiment is the next step */
	r = qd_run(pi4, jms_uas, 1, 38);
	T_EQ_INT(verdict_run(r, &v), 0);
	T_EQ_INT(v.limit, VERDICT_PROBLEM);
	T_EQ_INT(verdict_run_line(r, line, sizeof(line)), 0);
	T_EQ_STR(line, "Pi 4 USB 3 Gen 1 (VL805) → JMS567/JMS578 → uas, a SATA SSD: large reads "
		       "should reach "
		       "330–400 MB/s; measured 38 MB/s: far below — try sbcdisk fix uas sda --try");
	run_free(r);
	expect_path(pi4, jms_uas, 32, 370, VERDICT_LINK, 330, 400);
	/* seed 003: the SATA SSD at queue depth 1 is the drive's pace on the PC (310 MB/s) and on
	 * the Pi 4 (315 MB/s) alike; at queue depth 8 the PC reaches its link (423 MB/s) */
	expect_path("Windows 11 PC", pc_ssd, 1, 309.8, VERDICT_DEVICE, 380, 440);
	expect_path("Raspberry Pi 4B", pi_ssd, 1, 315.4, VERDICT_DEVICE, 330, 400);
	expect_path("Windows 11 PC", pc_ssd, 8, 423.1, VERDICT_LINK, 380, 440);
	/* seed 003: the HDD is its own limit on either host */
	expect_path("Raspberry Pi 4B", hdd, 1, 130.5, VERDICT_DEVICE, 80, 250);
	/* seed 002: the NVMe drive on the Orin, link not recorded: the board's Gen 4 x4 slot */
	r = qd_run("Jetson AGX Orin", nvme, 1, 23);
	T_EQ_INT(verdict_test(r, &r->tests[0], &v), 0);
	T_EQ_INT(v.limit, VERDICT_PROBLEM);
	T_CHECK(strstr(v.text, "sbcdisk list") != NULL);
	T_NEAR(v.expect_lo, 1500e6, 1);
	T_EQ_INT(verdict_path(r, &e), 0);
	T_EQ_STR(e.link, "PCIe Gen 4 x4, the board's slot");
	run_free(r);
	/* Pi 5 NVMe at Gen 2 x1 (442 MB/s published): the link */
	expect_path("Raspberry Pi 5 Model B Rev 1.0", nvme_g2, 32, 442, VERDICT_LINK, 400, 450);
	/* an eMMC is an eMMC, never an SD card */
	r = qd_run("Jetson AGX Orin", emmc, 1, 204);
	T_EQ_INT(verdict_path(r, &e), 0);
	T_EQ_INT(e.medium, PATH_MEDIUM_EMMC);
	T_EQ_STR(path_medium_name(e.medium), "an eMMC");
	T_EQ_STR(e.link, "eMMC HS400");
	run_free(r);
	/* a USB link not recorded: a figure USB 2.0 cannot carry proves at least USB 3 Gen 1;
	 * one it can carry proves nothing, and an unknown bridge says nothing either */
	expect_path("", "{\"model\":\"x\",\"transport\":\"usb\",\"usb\":{\"speed_mbps\":null}}", 1,
		    300, VERDICT_DEVICE, 380, 440);
	expect_path("", "{\"model\":\"x\",\"transport\":\"usb\",\"usb\":{\"speed_mbps\":null}}", 1,
		    30, VERDICT_UNKNOWN, NAN, NAN);
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

/* A small transfer below the link's ceiling is not judged, wherever the verdict is read
 * (the bench's table said "-" while history, compare and the report said "device"). */
static void test_small_unjudged(void)
{
	struct run *r = t_run(
		"{\"started_at\":\"2026-11-30T10:00:00Z\",\"profile\":\"default\","
		"\"device\":{\"name\":\"sda\",\"transport\":\"usb\",\"usb\":{\"vid\":\"152d\","
		"\"pid\":\"0578\",\"speed_mbps\":5000,\"driver\":\"uas\"}},\"tests\":["
		"{\"name\":\"RND4K Q1T1\",\"rw\":\"randread\",\"block_bytes\":4096,"
		"\"queue_depth\":1,\"bw_bytes_per_s\":30e6},"
		"{\"name\":\"SEQ128K Q1T1\",\"rw\":\"write\",\"block_bytes\":131072,"
		"\"queue_depth\":1,\"bw_bytes_per_s\":150e6}]}");
	struct verdict v;
	size_t i;

	for (i = 0; i < 2; i++) {
		T_EQ_INT(verdict_test(r, &r->tests[i], &v), 0);
		T_EQ_INT(v.limit, VERDICT_UNKNOWN);
		T_CHECK(strstr(v.text, "not judged") != NULL);
	}
	/* nor does the run's line rest on them */
	T_EQ_INT(verdict_run(r, &v), 0);
	T_EQ_INT(v.limit, VERDICT_UNKNOWN);
	run_free(r);
}

int main(void)
{
	test_small_unjudged();
	test_ceilings();
	test_verdicts();
	test_paths();
	test_score();
	test_app_class();
	return t_done();
}
