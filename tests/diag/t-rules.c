/* t-rules.c - every finding id from a synthetic log (also the ids no public log here shows),
 * the inventory-only rules, and log and inventory together. */
#include <stdio.h>

#include "t.h"
#include "diag/diag.h"
#include "probe/power.h"
#include "common/util.h"

static struct diag_findings fs;

static const struct diag_finding *run(const char *log_text, const struct diag_inventory *inv,
				      const char *id)
{
	struct diag_log *log = NULL;
	size_t i;

	diag_findings_release(&fs);
	if (log_text) {
		T_EQ_INT(diag_log_new(&log), 0);
		T_EQ_INT(diag_log_parse_buf(log, log_text, strlen(log_text)), 0);
	}
	T_EQ_INT(diag_run(log, inv, &fs), 0);
	diag_log_free(log);
	for (i = 0; i < fs.n; i++)
		if (!strcmp(fs.v[i].id, id))
			return &fs.v[i];
	fprintf(stderr, "no %s finding\n", id);
	return NULL;
}

static const struct diag_finding *find(const char *id)
{
	size_t i;

	for (i = 0; i < fs.n; i++)
		if (!strcmp(fs.v[i].id, id))
			return &fs.v[i];
	return NULL;
}

static int count_id(const char *id)
{
	size_t i;
	int n = 0;

	for (i = 0; i < fs.n; i++)
		n += !strcmp(fs.v[i].id, id);
	return n;
}

static bool has_id(const char *id)
{
	size_t i;

	for (i = 0; i < fs.n; i++)
		if (!strcmp(fs.v[i].id, id))
			return true;
	return false;
}

static bool has_cmd(const struct diag_finding *f, const char *cmd)
{
	int i;

	for (i = 0; f && i < f->n_fix_cmds; i++)
		if (!strcmp(f->fix_cmds[i], cmd))
			return true;
	return false;
}

static void test_log_rules(void)
{
	const struct diag_finding *f;

	f = run("[ 5.0] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n"
		"[ 5.1] usb 2-1: New USB device found, idVendor=174c, idProduct=55aa\n"
		"[ 5.2] scsi host0: uas\n"
		"[ 5.3] sd 0:0:0:0: [sda] Attached SCSI disk\n"
		"[ 9.0] usb 2-1: cmd cmplt err -71\n"
		"[ 9.1] scsi host0: uas_eh_device_reset_handler FAILED err -19\n",
		NULL, "uas-errors");
	T_CHECK(f && f->sev == DIAG_ERROR && !strcmp(f->device, "sda"));
	T_CHECK(f && !strcmp(f->usb_id, "174c:55aa"));
	T_CHECK(has_cmd(f, "sbcdisk fix uas 174c:55aa --apply"));
	T_CHECK(has_cmd(f, "sbcdisk fix uas 174c:55aa"));

	f = run("[ 1.0] usb 1-1: USB controller 3f980000.usb does not support streams, which are "
		"required by the UAS driver.\n", NULL, "uas-disabled");
	T_CHECK(f && f->sev == DIAG_INFO);

	f = run("[ 1.0] usb 2-2: new SuperSpeed USB device number 2 using xhci_hcd\n"
		"[ 1.1] usb 2-2: New USB device found, idVendor=2109, idProduct=0711\n"
		"[ 1.2] scsi host0: uas\n", NULL, "uas-known-quirky");
	T_CHECK(f && f->sev == DIAG_INFO && !strcmp(f->usb_id, "2109:0711"));
	T_CHECK(has_cmd(f, "sbcdisk fix uas 2109:0711"));
	T_CHECK(!has_cmd(f, "sbcdisk fix uas 2109:0711 --apply"));

	f = run("[ 1.0] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n"
		"[ 1.1] usb 1-1: New USB device found, idVendor=1234, idProduct=5678\n"
		"[ 1.2] scsi host0: uas\n", NULL, "usb-link-slow");
	T_CHECK(f && f->sev == DIAG_WARNING);
	/* the same device later on a USB 3 port: no finding */
	T_CHECK(!run("[ 1.0] usb 1-1: new high-speed USB device number 2 using xhci_hcd\n"
		     "[ 1.1] usb 1-1: New USB device found, idVendor=1234, idProduct=5678\n"
		     "[ 1.2] scsi host0: uas\n"
		     "[ 2.0] usb 1-1: USB disconnect, device number 2\n"
		     "[ 3.0] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n"
		     "[ 3.1] usb 2-1: New USB device found, idVendor=1234, idProduct=5678\n",
		     NULL, "usb-link-slow"));

	f = run("[ 1.0] usb 1-1: device descriptor read/64, error -71\n"
		"[ 1.5] usb 1-1: device not accepting address 3, error -71\n", NULL, "usb-errors");
	T_CHECK(f && f->sev == DIAG_WARNING);
	/* the same errors, then the device came up: transient, info */
	f = run("[ 1.0] usb 1-1: device descriptor read/64, error -71\n"
		"[ 1.5] usb 1-1: device descriptor read/64, error -71\n"
		"[ 1.7] usb 1-1: new high-speed USB device number 3 using xhci_hcd\n"
		"[ 1.8] usb 1-1: New USB device found, idVendor=1234, idProduct=5678\n", NULL,
		"usb-errors");
	T_CHECK(f && f->sev == DIAG_INFO);
	f = run("[ 1.0] xhci_hcd 0000:01:00.0: xHCI host controller not responding, assume dead\n",
		NULL, "usb-host-died");
	T_CHECK(f && f->sev == DIAG_ERROR && f->n_fix_cmds == 0);
	/* texts that fit the device: an NVMe drive removed after a failed reset is told in
	 * PCIe words, without USB spin-up or bridge advice */
	f = run("[ 1.0] nvme nvme0: pci function 0004:41:00.0\n"
		"[ 40.9] nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS "
		"read failed (134)\n"
		"[ 43.5] nvme 0004:41:00.0: can't change power state from D3cold to D0 (config "
		"space inaccessible)\n"
		"[ 43.6] nvme nvme0: Removing after probe failure status: -19\n", NULL,
		"device-not-ready");
	T_CHECK(f && strstr(f->title, "removed"));
	T_CHECK(f && strstr(f->explanation, "D3cold") && !strstr(f->explanation, "spin") &&
		!strstr(f->explanation, "bridge") && !strstr(f->fix_summary, "powered adapter"));
	T_CHECK(has_id("nvme-errors") && !has_id("usb-errors"));
	/* io-errors on a usb-storage drive does not blame UAS */
	f = run("[ 1.0] usb 1-1: new high-speed USB device number 2 using dwc_otg\n"
		"[ 1.1] usb 1-1: New USB device found, idVendor=0bc2, idProduct=2322\n"
		"[ 1.2] scsi host0: usb-storage 1-1:1.0\n"
		"[ 2.0] sd 0:0:0:0: [sda] Attached SCSI disk\n"
		"[ 9.0] blk_update_request: I/O error, dev sda, sector 2048\n", NULL, "io-errors");
	T_CHECK(f && !strstr(f->explanation, "UAS trouble") &&
		strstr(f->explanation, "usb-storage"));
	/* uas-disabled: whole sentences, and no claim the log cannot back */
	f = run("[ 1.0] usb-storage 2-1:1.0: Quirks match for vid 1234 pid 5678: 800000\n", NULL,
		"uas-disabled");
	T_CHECK(f && !strstr(f->explanation, "device IGNORE_UAS") &&
		strstr(f->explanation, "cannot tell"));
	f = run("[ 0.0] Kernel command line: console=tty1 usb-storage.quirks=1234:5678:u\n"
		"[ 1.0] usb-storage 2-1:1.0: Quirks match for vid 1234 pid 5678: 800000\n", NULL,
		"uas-disabled");
	T_CHECK(f && strstr(f->explanation, "parameter names this device") &&
		!strstr(f->explanation, "cannot tell"));
	f = run("[ 1.0] usb 2-1: UAS is blacklisted for this device, using usb-storage "
		"instead\n", NULL, "uas-disabled");
	T_CHECK(f && strstr(f->explanation, "for this device. "));

	/* one enclosure with two LUNs: one finding naming both disks */
	f = run("[ 1.0] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n"
		"[ 1.1] usb 2-1: New USB device found, idVendor=174c, idProduct=55aa\n"
		"[ 1.2] scsi host0: uas\n"
		"[ 1.3] sd 0:0:0:0: [sdc] Attached SCSI disk\n"
		"[ 1.4] sd 0:0:0:1: [sdd] Attached SCSI disk\n"
		"[ 9.0] sd 0:0:0:1: [sdd] tag#1 uas_eh_abort_handler 0 uas-tag 2 inflight: CMD OUT\n"
		"[ 9.1] scsi host0: uas_eh_device_reset_handler start\n"
		"[ 9.5] blk_update_request: I/O error, dev sdd, sector 2048 op 0x1:(WRITE)\n"
		"[ 9.6] blk_update_request: I/O error, dev sdc, sector 2048 op 0x1:(WRITE)\n",
		NULL, "uas-errors");
	T_CHECK(f && strstr(f->title, "sdc and sdd") && strstr(f->title, "one USB enclosure"));
	f = find("io-errors");
	T_CHECK(f && strstr(f->title, "sdc and sdd") && strstr(f->title, "(2 lines)"));
	T_EQ_INT(count_id("io-errors"), 1);

	/* a controller that never started is a finding, not "no problems" */
	f = run("[ 1.0] xhci_hcd 0000:01:00.0: init 0000:01:00.0 fail, -14\n", NULL,
		"usb-host-failed");
	T_CHECK(f && f->sev == DIAG_ERROR && !strcmp(f->device, "0000:01:00.0"));
	f = run("[ 1.0] xhci-hcd: probe of xhci-hcd.0.auto failed with error -110\n", NULL,
		"usb-host-failed");
	T_CHECK(f && strstr(f->title, "xhci-hcd.0.auto"));

	f = run("[ 1.0] nvme nvme0: pci function 0000:01:00.0\n"
		"[ 1.1] pci 0000:01:00.0: 4.000 Gb/s available PCIe bandwidth, limited by 5.0 GT/s "
		"PCIe x1 link at 0000:00:00.0 (capable of 31.504 Gb/s with 8.0 GT/s PCIe x4 link)\n",
		NULL, "pcie-link-limited");
	T_CHECK(f && f->sev == DIAG_INFO && !strcmp(f->device, "nvme0n1"));
	/* from a log alone: what the link trained at, not what the slot allows; no Pi advice
	 * without a Pi */
	T_CHECK(f && strstr(f->title, "trained at 5.0 GT/s x1") &&
		strstr(f->explanation, "whether the slot allows more is not in the log"));
	T_CHECK(f && !strstr(f->explanation, "pciex1_gen") && !strstr(f->explanation, "Raspberry"));
	f = run("[ 0.0] Machine model: Raspberry Pi 5 Model B Rev 1.0\n"
		"[ 1.0] nvme nvme0: pci function 0000:01:00.0\n"
		"[ 1.1] pci 0000:01:00.0: 4.000 Gb/s available PCIe bandwidth, limited by 5.0 GT/s "
		"PCIe x1 link at 0000:00:00.0 (capable of 31.504 Gb/s with 8.0 GT/s PCIe x4 link)\n",
		NULL, "pcie-link-limited");
	T_CHECK(f && strstr(f->explanation, "pciex1_gen=3") && strstr(f->title, "ceiling"));
	/* NVMe timeouts hours after boot: power states */
	f = run("[ 9000.0] nvme nvme0: I/O 12 QID 3 timeout, aborting\n", NULL, "nvme-errors");
	T_CHECK(f && strstr(f->explanation, "hours after boot") &&
		strstr(f->fix_summary, "nvme_core.default_ps_max_latency_us=0 pcie_aspm=off"));
	f = run("[ 9.0] nvme nvme0: I/O 12 QID 3 timeout, aborting\n", NULL, "nvme-errors");
	T_CHECK(f && !strstr(f->explanation, "hours after boot"));

	f = run("[ 9.0] pcieport 0000:00:00.0: AER: Corrected error received: 0000:00:00.0\n"
		"[ 9.0] pcieport 0000:00:00.0: PCIe Bus Error: severity=Corrected, type=Physical "
		"Layer, (Receiver ID)\n", NULL, "pcie-errors");
	T_CHECK(f && f->sev == DIAG_WARNING);
	f = run("[ 9.0] pcieport 0000:00:00.0: AER: Uncorrected (Non-Fatal) error received: "
		"0000:01:00.0\n", NULL, "pcie-errors");
	T_CHECK(f && f->sev == DIAG_ERROR);

	f = run("[ 9.0] nvme nvme0: I/O 12 QID 3 timeout, aborting\n"
		"[ 9.1] nvme nvme0: Abort status: 0x0\n", NULL, "nvme-errors");
	T_CHECK(f && f->sev == DIAG_ERROR && !strcmp(f->device, "nvme0n1"));

	f = run("[ 9.0] mmc0: card never left busy state\n", NULL, "mmc-errors");
	T_CHECK(f && f->sev == DIAG_WARNING);
	f = run("[ 1.0] mmc1: invalid bus width\n[ 1.1] mmc1: error -110 whilst initialising MMC "
		"card\n", NULL, "mmc-errors");
	T_CHECK(f && f->sev == DIAG_ERROR); /* it never came up */

	f = run("[ 9.0] blk_update_request: critical target error, dev sdb, sector 8 op "
		"0x1:(WRITE)\n", NULL, "io-errors");
	T_CHECK(f && f->sev == DIAG_ERROR && !strcmp(f->device, "sdb"));

	f = run("[ 9.0] sd 0:0:0:0: [sda] Read Capacity(16) failed: Result: hostbyte=0x07\n", NULL,
		"device-not-ready");
	T_CHECK(f && f->sev == DIAG_ERROR && !strcmp(f->device, "sda"));

	f = run("[ 9.0] Under-voltage detected! (0x00050005)\n"
		"[ 9.5] Voltage normalised (0x00000000)\n", NULL, "undervoltage");
	T_CHECK(f && f->sev == DIAG_WARNING);

	f = run("[ 0.0] usb_storage.quirks: string doesn't fit in 127 chars.\n", NULL,
		"quirks-param-invalid");
	T_CHECK(f && f->sev == DIAG_ERROR);
	f = run("[ 0.0] Kernel command line: console=tty1 usb-storage.quirks=152d:0578:u "
		"usb-storage.quirks=174c:55aa:u root=/dev/sda2\n", NULL, "quirks-param-invalid");
	T_CHECK(f && strstr(f->explanation, "more than once"));

	f = run("[ 0.0] Kernel command line: console=tty1 root=/dev/mmcblk0p2 rootwait\n"
		"[ 2.0] sd 0:0:0:0: [sda] Attached SCSI disk\n", NULL, "root-on-sd");
	T_CHECK(f && f->sev == DIAG_INFO && !strcmp(f->device, "mmcblk0"));

	/* a healthy boot */
	T_CHECK(!run("[ 1.0] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n"
		     "[ 1.1] usb 2-1: New USB device found, idVendor=1234, idProduct=5678\n"
		     "[ 1.2] scsi host0: uas\n"
		     "[ 1.3] sd 0:0:0:0: [sda] Attached SCSI disk\n", NULL, "none"));
	T_EQ_INT(fs.n, 0);
	/* unplugging: the failed cache flush of a gone drive is no I/O error */
	T_CHECK(!run("[ 1.0] usb 1-1: new high-speed USB device number 3 using xhci_hcd\n"
		     "[ 1.1] usb 1-1: New USB device found, idVendor=1234, idProduct=5678\n"
		     "[ 1.2] scsi host0: usb-storage 1-1:1.0\n"
		     "[ 1.3] sd 0:0:0:0: [sda] Attached SCSI disk\n"
		     "[ 5.0] usb 1-1: USB disconnect, device number 3\n"
		     "[ 5.1] sd 0:0:0:0: [sda] Synchronize Cache(10) failed: Result: hostbyte=0x07\n",
		     NULL, "io-errors"));
}

static void test_mapping(void)
{
	const struct diag_finding *f;
	char *big = malloc(200 * 200 + 1024);
	size_t n = 0;
	int i;

	/* a long log with many re-plugs: the device in trouble keeps its identity */
	for (i = 0; i < 200; i++)
		n += (size_t)snprintf(big + n, 300,
				      "[ %d.0] usb 1-1.%d: new high-speed USB device number %d using "
				      "xhci_hcd\n[ %d.1] usb 1-1.%d: New USB device found, "
				      "idVendor=abcd, idProduct=%04x\n[ %d.2] usb 1-1.%d: USB "
				      "disconnect, device number %d\n", i, i % 7, i, i, i % 7, i, i,
				      i % 7, i);
	str_copy(big + n, 1024,
		 "[ 900.0] usb 2-1: new SuperSpeed USB device number 9 using xhci_hcd\n"
		 "[ 900.1] usb 2-1: New USB device found, idVendor=152d, idProduct=0578\n"
		 "[ 900.2] scsi host0: uas\n"
		 "[ 930.0] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n");
	f = run(big, NULL, "uas-errors");
	T_CHECK(f && !strcmp(f->usb_id, "152d:0578") && !strcmp(f->device, "sda"));
	free(big);

	/* a keyboard enumerated after the disk does not take its SCSI host */
	f = run("[ 1.0] usb 1-1.2: new high-speed USB device number 3 using xhci_hcd\n"
		"[ 1.1] usb 1-1.2: New USB device found, idVendor=152d, idProduct=0578\n"
		"[ 1.2] usb 1-1.4: new low-speed USB device number 4 using xhci_hcd\n"
		"[ 1.3] usb 1-1.4: New USB device found, idVendor=046d, idProduct=c31c\n"
		"[ 1.4] scsi host0: uas\n"
		"[ 9.0] scsi host0: uas_eh_device_reset_handler start\n", NULL, "uas-errors");
	T_CHECK(f && !strcmp(f->usb_id, "152d:0578"));

	/* a uas reset running on one drive does not claim another drive's USB reset */
	f = run("[ 1.0] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n"
		"[ 1.1] usb 2-1: New USB device found, idVendor=152d, idProduct=0578\n"
		"[ 1.2] scsi host0: uas\n"
		"[ 1.3] usb 2-2: new SuperSpeed USB device number 3 using xhci_hcd\n"
		"[ 1.4] usb 2-2: New USB device found, idVendor=0bc2, idProduct=ab5a\n"
		"[ 1.5] scsi host1: uas\n"
		"[ 9.0] scsi host0: uas_eh_device_reset_handler start\n"
		"[ 9.1] usb 2-2: reset SuperSpeed USB device number 3 using xhci_hcd\n"
		"[ 9.2] usb 2-2: reset SuperSpeed USB device number 3 using xhci_hcd\n", NULL,
		"usb-errors");
	T_CHECK(f && !strcmp(f->usb_id, "0bc2:ab5a"));

	/* SD init errors on mmc1 before its disk is named: one finding, for mmcblk0 */
	f = run("[ 1.0] mmc1: error -84 whilst initialising SD card\n"
		"[ 1.2] mmc1: new ultra high speed DDR50 SDXC card at address aaaa\n"
		"[ 1.3] mmcblk0: mmc1:aaaa SC64G 59.5 GiB\n", NULL, "mmc-errors");
	T_CHECK(f && f->sev == DIAG_INFO && !strcmp(f->device, "mmcblk0"));
	T_EQ_INT(fs.n, 1);

	/* a pasted log in a quote, wrapped by a mail client, with CRLF */
	f = run("> [ 1524.725084] sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 5\r\n"
		"> inflight: CMD IN\r\n", NULL, "uas-errors");
	T_CHECK(f && f->n_evidence == 1 && f->evidence[0].line == 1);
}

static void test_inventory_rules(void)
{
	struct diag_dev devs[3];
	struct diag_inventory inv = { .devs = devs, .n = 2, .fastest_usb_root_mbps = 5000 };
	const struct diag_finding *f;

	memset(devs, 0, sizeof(devs));
	str_copy(devs[0].name, sizeof(devs[0].name), "mmcblk0");
	devs[0].transport = DIAG_T_MMC;
	devs[0].is_root = devs[0].is_sd = true;
	str_copy(devs[1].name, sizeof(devs[1].name), "sda");
	devs[1].transport = DIAG_T_USB;
	devs[1].has_usb = true;
	devs[1].vid = 0x152d;
	devs[1].pid = 0x0578;
	devs[1].speed_mbps = 480;
	devs[1].version_bcd = 0x0210; /* a USB 3 device at high speed shows its USB 2 face */
	devs[1].driver = USB_DRIVER_UAS;
	str_copy(devs[1].usb_port, sizeof(devs[1].usb_port), "1-1.3");

	f = run(NULL, &inv, "usb-link-slow");
	T_CHECK(f && f->sev == DIAG_WARNING && !strcmp(f->device, "sda"));
	T_CHECK(f && f->n_evidence == 1 && f->evidence[0].line == 0);
	/* seed 000: a bridge known for UAS trouble on uas at 480M: the quirk into the drive's
	 * own cmdline.txt first, then the move to a USB 3 port */
	T_CHECK(f && f->n_fix_cmds == 2 &&
		!strcmp(f->fix_cmds[0], "sbcdisk fix uas 152d:0578 --disk sda") &&
		!strcmp(f->fix_cmds[1], "sbcdisk list") &&
		!strncmp(f->fix_summary, "First add 152d:0578:u", 21));
	/* the drive that holds the running system: its own file is the running one */
	devs[1].is_root = true;
	f = run(NULL, &inv, "usb-link-slow");
	T_CHECK(f && f->n_fix_cmds == 2 && !strcmp(f->fix_cmds[0], "sbcdisk fix uas 152d:0578"));
	devs[1].is_root = false;
	/* on usb-storage already: only the move */
	devs[1].driver = USB_DRIVER_STORAGE;
	f = run(NULL, &inv, "usb-link-slow");
	T_CHECK(f && f->n_fix_cmds == 1 && !strncmp(f->fix_summary, "Plug the drive", 14));
	devs[1].driver = USB_DRIVER_UAS;
	T_CHECK(run(NULL, &inv, "root-on-sd") != NULL);
	T_CHECK(run(NULL, &inv, "uas-known-quirky") != NULL);
	/* the running kernel's quirks list keeps it off uas */
	devs[1].driver = USB_DRIVER_STORAGE;
	inv.quirks_param = "174c:55aa:u,152d:0578:u";
	f = run(NULL, &inv, "uas-disabled");
	T_CHECK(f && f->sev == DIAG_INFO && !strcmp(f->usb_id, "152d:0578"));
	T_CHECK(!run(NULL, &inv, "uas-known-quirky"));
	inv.quirks_param = NULL;
	devs[1].driver = USB_DRIVER_UAS;
	/* slow, no error: the last stored run far below its path is a finding, and the
	 * known-quirky bridge's finding offers the experiment */
	T_CHECK(!run(NULL, &inv, "run-far-below"));
	devs[1].last_run_far = true;
	devs[1].last_run_id = 12;
	str_copy(devs[1].last_run_line, sizeof(devs[1].last_run_line),
		 "Pi 4 USB 3 Gen 1 (VL805) → uas: large reads should reach 330–400 MB/s; measured "
		 "38 MB/s: far below — try sbcdisk fix uas sda --try");
	f = run(NULL, &inv, "run-far-below");
	T_CHECK(f && f->sev == DIAG_WARNING && !strcmp(f->device, "sda"));
	T_CHECK(f && f->n_evidence == 1 && strstr(f->evidence[0].text, "run #12: Pi 4 USB 3"));
	T_CHECK(f && f->n_fix_cmds == 1 && !strcmp(f->fix_cmds[0], "sbcdisk fix uas sda --try"));
	f = run(NULL, &inv, "uas-known-quirky");
	T_CHECK(f && f->n_fix_cmds > 0 &&
		!strcmp(f->fix_cmds[f->n_fix_cmds - 1], "sbcdisk fix uas sda --try"));
	devs[1].driver = USB_DRIVER_STORAGE;
	f = run(NULL, &inv, "run-far-below");
	T_CHECK(f && f->n_fix_cmds == 1 && !strcmp(f->fix_cmds[0], "sbcdisk list"));
	devs[1].driver = USB_DRIVER_UAS;
	devs[1].last_run_far = false;
	/* on a board with USB 2 only there is no faster port */
	inv.fastest_usb_root_mbps = 480;
	T_CHECK(!run(NULL, &inv, "usb-link-slow"));

	/* log and inventory together: the log names no id, the inventory gives the fix */
	inv.log_is_local = true;
	f = run("[ 9.0] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n",
		&inv, "uas-errors");
	T_CHECK(f && !strcmp(f->usb_id, "152d:0578"));
	T_CHECK(has_cmd(f, "sbcdisk fix uas 152d:0578 --apply"));
	/* the drive is on usb-storage now: history, no command */
	devs[1].driver = USB_DRIVER_STORAGE;
	f = run("[ 9.0] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n",
		&inv, "uas-errors");
	T_CHECK(f && f->sev == DIAG_WARNING && f->n_fix_cmds == 0 && f->has_fix);
	devs[1].driver = USB_DRIVER_UAS;
	/* ... but not when the log was pasted from another machine */
	inv.log_is_local = false;
	f = run("[ 9.0] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 uas-tag 1 inflight: CMD IN\n",
		&inv, "uas-errors");
	T_CHECK(f && !f->usb_id[0]);

	/* PCIe: degraded below both ends, then at the Pi 5's ceiling */
	memset(devs, 0, sizeof(devs));
	str_copy(devs[0].name, sizeof(devs[0].name), "nvme0n1");
	devs[0].transport = DIAG_T_NVME;
	devs[0].has_pcie = true;
	devs[0].cur_gts = 2.5;
	devs[0].cur_width = 1;
	devs[0].max_gts = 8;
	devs[0].max_width = 4;
	devs[0].port_max_gts = 5;
	devs[0].port_max_width = 1;
	inv.n = 1;
	str_copy(inv.board, sizeof(inv.board), "Raspberry Pi 5 Model B Rev 1.0");
	f = run(NULL, &inv, "pcie-link-degraded");
	T_CHECK(f && f->sev == DIAG_WARNING);
	devs[0].cur_gts = 5;
	T_CHECK(!run(NULL, &inv, "pcie-link-degraded"));
	f = run(NULL, &inv, "pcie-link-limited");
	T_CHECK(f && f->sev == DIAG_INFO);
	T_CHECK(has_cmd(f, "sbcdisk fix pcie-gen 3"));
	/* forced Gen 3 and AER errors: back to Gen 2 */
	devs[0].cur_gts = 8;
	devs[0].port_max_gts = 8;
	f = run("[ 9.0] pcieport 0001:00:00.0: AER: Corrected error received: 0001:01:00.0\n", &inv,
		"pcie-errors");
	T_CHECK(has_cmd(f, "sbcdisk fix pcie-gen 2"));

	/* the running kernel's command line */
	inv.n = 0;
	inv.cmdline = "console=tty1 usb-storage.quirks=152d:0578 rootwait";
	f = run(NULL, &inv, "quirks-param-invalid");
	T_CHECK(f && f->evidence[0].line == 0);
}

/* An event belongs to a device only through the kernel's chain, within one boot. */
static void test_linkage(void)
{
	const struct diag_finding *f;

	/* a network adapter with an id, then a disk whose arrival printed none: the disk's
	 * trouble is not the adapter's, and no fix names the adapter's id */
	f = run("[    1.720166] usb 1-1.1: new high-speed USB device number 3 using xhci_hcd\n"
		"[    1.850490] usb 1-1.1: New USB device found, idVendor=0424, idProduct=ec00\n"
		"[    1.944109] smsc95xx 1-1.1:1.0 eth0: register 'smsc95xx' at usb-1.1\n"
		"[    8.665627] usb 2-1: new SuperSpeed USB device number 3 using xhci_hcd\n"
		"[    8.724382] scsi host0: uas\n"
		"[   30.145040] sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 "
		"inflight: CMD OUT\n"
		"[   30.146000] scsi host0: uas_eh_device_reset_handler start\n"
		"[   30.200000] usb 2-1: reset SuperSpeed USB device number 3 using xhci_hcd\n"
		"[   30.250000] scsi host0: uas_eh_device_reset_handler success\n", NULL, "uas-errors");
	T_CHECK(f != NULL);
	T_CHECK(f && !f->usb_id[0] && f->n_fix_cmds == 0 && strstr(f->fix_summary, "lsusb"));
	T_CHECK(f && !strstr(f->title, "0424") && !strstr(f->explanation, "0424"));
	T_CHECK(!has_id("usb-link-slow"));

	/* two boots: the same names are new devices; the last boot's findings come first and
	 * the earlier boot's say so */
	f = run("[    0.000000] Booting Linux on physical CPU 0x0\n"
		"[    0.000000] Linux version 5.10.17-v7l+ (dom@buildbot) #1403 SMP\n"
		"[    2.000000] usb 2-1: new SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n"
		"[    2.100000] usb 2-1: New USB device found, idVendor=152d, idProduct=0578\n"
		"[    2.200000] scsi host0: uas\n"
		"[   30.145040] sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 "
		"inflight: CMD OUT\n"
		"[    0.000000] Booting Linux on physical CPU 0x0\n"
		"[    0.000000] Linux version 5.10.17-v7l+ (dom@buildbot) #1403 SMP\n"
		"[    2.000000] usb 2-1: new SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n"
		"[    2.200000] scsi host0: uas\n"
		"[   40.000000] blk_update_request: I/O error, dev sda, sector 2048 op 0x1:(WRITE)\n",
		NULL, "uas-errors");
	T_CHECK(f && f->earlier_boot && strstr(f->title, "in an earlier boot") &&
		!strcmp(f->usb_id, "152d:0578"));
	T_CHECK(fs.n >= 2 && !strcmp(fs.v[0].id, "io-errors") && !fs.v[0].earlier_boot);
	/* the second boot's disk has no id: nothing of the first boot's id reaches it */
	T_CHECK(fs.n >= 2 && !fs.v[0].usb_id[0] && fs.v[0].n_fix_cmds == 0);
	/* the time since boot going back to zero splits as well */
	f = run("[ 5000.000000] usb 2-1: new SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n"
		"[ 5000.100000] usb 2-1: New USB device found, idVendor=152d, idProduct=0578\n"
		"[ 5000.200000] scsi host0: uas\n"
		"[ 5030.145040] sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 "
		"inflight: CMD OUT\n"
		"[    2.000000] usb 2-1: new SuperSpeed Gen 1 USB device number 2 using xhci_hcd\n"
		"[    2.200000] scsi host0: uas\n", NULL, "uas-errors");
	T_CHECK(f && f->earlier_boot);
}

/* Two UAS enclosures there before the uas module: it probes them in the order they arrived,
 * so the first host is the first device's (a real kernel's log: Debian's 6.1 under QEMU). */
static void test_uas_coldplug(void)
{
	static const char log[] =
		"[    8.097895] usb 2-2: new SuperSpeed USB device number 2 using xhci_hcd\n"
		"[    8.118328] usb 2-2: New USB device found, idVendor=174c, idProduct=55aa, bcdDevice= 0.00\n"
		"[    8.550359] usb 3-2: new high-speed USB device number 3 using ehci-pci\n"
		"[    8.732303] usb 3-2: New USB device found, idVendor=152d, idProduct=0578, bcdDevice= 0.00\n"
		"[    9.259143] scsi host2: uas\n"
		"[    9.274100] scsi host3: uas\n"
		"[    9.275853] usbcore: registered new interface driver uas\n"
		"[   10.263618] sd 2:0:0:0: [sda] Attached SCSI disk\n"
		"[   10.274423] sd 3:0:0:0: [sdb] Attached SCSI disk\n"
		"[   30.145040] sd 3:0:0:0: [sdb] tag#28 uas_eh_abort_handler 0 uas-tag 10 inflight: CMD OUT\n";
	struct diag_dev devs[2];
	struct diag_inventory inv = { .devs = devs, .n = 2, .fastest_usb_root_mbps = 5000,
				      .log_is_local = true };
	const struct diag_finding *f;

	f = run(log, NULL, "uas-errors");
	T_CHECK(f && !strcmp(f->device, "sdb") && !strcmp(f->usb_id, "152d:0578"));
	T_CHECK(f && !strstr(f->title, "174c"));
	/* the slow one is the second; the first, at 5000M, has no finding */
	f = run(log, NULL, "usb-link-slow");
	T_CHECK(f && !strcmp(f->device, "sdb"));
	T_EQ_INT(count_id("usb-link-slow"), 1);

	/* two enclosures of one bridge (one VID:PID): this system's log in this boot is matched
	 * to its drive by the USB port, not to the first drive with that id */
	memset(devs, 0, sizeof(devs));
	for (int i = 0; i < 2; i++) {
		str_copy(devs[i].name, sizeof(devs[i].name), i ? "sdb" : "sda");
		devs[i].transport = DIAG_T_USB;
		devs[i].has_usb = true;
		devs[i].vid = 0x46f4;
		devs[i].pid = 0x0003;
		devs[i].driver = USB_DRIVER_UAS;
	}
	devs[0].speed_mbps = 5000;
	devs[0].version_bcd = 0x0300;
	str_copy(devs[0].usb_port, sizeof(devs[0].usb_port), "2-2");
	devs[1].speed_mbps = 480;
	devs[1].version_bcd = 0x0210;
	str_copy(devs[1].usb_port, sizeof(devs[1].usb_port), "3-2");
	f = run("[    8.550359] usb 3-2: new high-speed USB device number 3 using ehci-pci\n"
		"[    8.732303] usb 3-2: New USB device found, idVendor=46f4, idProduct=0003\n",
		&inv, "usb-link-slow");
	T_CHECK(f && !strcmp(f->device, "sdb"));
	/* its arrival in the log is the evidence (the drive matched by id alone was sda at
	 * 5000M: the log's line was dropped as that drive's history) */
	T_CHECK(f && f->n_evidence == 2 && (f->evidence[0].line > 0 || f->evidence[1].line > 0));
	T_EQ_INT(count_id("usb-link-slow"), 1);
}

/* A dead host controller is the cause; what fails after it is its consequence. */
static void test_host_died(void)
{
	const struct diag_finding *f;

	f = run("[    1.0] usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd\n"
		"[    1.1] usb 2-1: New USB device found, idVendor=152d, idProduct=0578\n"
		"[    1.2] scsi host0: uas\n"
		"[  100.0] xhci_hcd 0000:01:00.0: xHCI host not responding to stop endpoint command\n"
		"[  100.1] xhci_hcd 0000:01:00.0: xHCI host controller not responding, assume dead\n"
		"[  100.2] xhci_hcd 0000:01:00.0: HC died; cleaning up\n"
		"[  100.3] sd 0:0:0:0: [sda] tag#1 uas_eh_abort_handler 0 uas-tag 2 inflight: CMD\n"
		"[  100.4] blk_update_request: I/O error, dev sda, sector 2048 op 0x1:(WRITE)\n",
		NULL, "usb-host-died");
	T_CHECK(f && f->sev == DIAG_ERROR && f->n_fix_cmds == 0);
	T_CHECK(f && strstr(f->explanation, "consequence") && strstr(f->fix_summary, "power"));
	T_CHECK(!has_id("uas-errors") && !has_id("io-errors"));
}

/* the power leg: the firmware's flags as the inventory carries them (probe/power.h) */
static void test_power_rules(void)
{
	struct diag_dev dev = { .transport = DIAG_T_USB, .has_usb = true };
	struct probe_power pw = { .has_uv_alarm = true, .uv_alarm = true };
	struct diag_inventory inv = { .devs = &dev, .n = 1, .power = &pw };
	const struct diag_finding *f;

	str_copy(dev.name, sizeof(dev.name), "sda");
	str_copy(pw.uv_path, sizeof(pw.uv_path), "/sys/class/hwmon/hwmon0/in0_lcrit_alarm");
	f = run(NULL, &inv, "undervoltage-now");
	T_CHECK(f && f->sev == DIAG_ERROR && f->n_evidence == 1 &&
		strstr(f->evidence[0].text, "hwmon0/in0_lcrit_alarm = 1"));
	T_CHECK(!find("usb-current-limited"));
	/* the flag clear: nothing; a Pi 5 with the high limit: nothing */
	pw.uv_alarm = false;
	pw.has_usb_limit = true;
	pw.usb_max_current_enable = 1;
	run(NULL, &inv, "none");
	T_CHECK(!find("undervoltage-now") && !find("usb-current-limited"));
	/* the low limit: a warning with a USB drive, info without, an error after over-current */
	pw.usb_max_current_enable = 0;
	pw.has_max_current = true;
	pw.max_current_ma = 3000;
	f = run(NULL, &inv, "usb-current-limited");
	T_CHECK(f && f->sev == DIAG_WARNING && !strcmp(f->device, "sda") && f->n_evidence == 2 &&
		strstr(f->evidence[1].text, "max_current = 3000 mA") && f->n_fix_cmds == 1 &&
		!strcmp(f->fix_cmds[0], "sbcdisk fix usb-current"));
	inv.n = 0;
	f = run(NULL, &inv, "usb-current-limited");
	T_CHECK(f && f->sev == DIAG_INFO && !f->device[0]);
	pw.has_usb_over_current = true;
	pw.usb_over_current = 1;
	f = run(NULL, &inv, "usb-current-limited");
	T_CHECK(f && f->sev == DIAG_ERROR && f->n_evidence == 3);
	/* no power facts read: no power finding */
	inv.power = NULL;
	run(NULL, &inv, "none");
	T_CHECK(!find("usb-current-limited"));
}

/* The faults of issue 36: CQE recovery, a root port that no longer obeys, over-current, a
 * link that never trained, APST refused, a damaged file system, and a mode switch. */
static void test_faults(void)
{
	const struct diag_finding *f;

	f = run("[    0.0] Machine model: Raspberry Pi 5 Model B Rev 1.0\n"
		"[  100.0] mmc0: running CQE recovery\n"
		"[  101.0] mmc0: running CQE recovery\n"
		"[  102.0] mmc0: cqhci: spurious TCN for tag 10\n", NULL, "mmc-errors");
	T_CHECK(f && f->sev == DIAG_WARNING && strstr(f->explanation, "CQE"));
	T_CHECK(f && strstr(f->fix_summary, "dtparam=sd_cqe=off"));
	T_CHECK(f && has_cmd(f, "sbcdisk fix sd-cqe") && has_cmd(f, "sbcdisk fix sd-cqe --apply"));
	/* with I/O errors after it, an error, and no Pi 5 advice on another board */
	f = run("[    0.0] Machine model: Radxa ROCK 5B\n"
		"[  100.0] mmc0: running CQE recovery\n"
		"[  100.1] mmcblk0: mmc0:0001 A3A551 115 GiB\n"
		"[  101.0] I/O error, dev mmcblk0, sector 8 op 0x1:(WRITE) flags 0x800 phys_seg 1\n",
		NULL, "mmc-errors");
	T_CHECK(f && f->sev == DIAG_ERROR && !strstr(f->fix_summary, "sd_cqe"));

	f = run("[ 134.5] usb usb3-port1: Cannot enable. Maybe the USB cable is bad?\n"
		"[ 136.2] usb usb3-port1: Cannot enable. Maybe the USB cable is bad?\n"
		"[ 137.4] usb usb3-port1: cannot disable (err = -32)\n", NULL, "usb-errors");
	T_CHECK(f && f->sev == DIAG_WARNING && strstr(f->title, "3-1") &&
		strstr(f->explanation, "port itself"));

	f = run("[ 865.2] usb usb3-port1: over-current condition\n"
		"[ 865.4] usb usb4-port2: over-current condition\n", NULL, "usb-over-current");
	T_CHECK(f && f->sev == DIAG_ERROR && strstr(f->fix_summary, "power"));

	f = run("[ 1.95] brcm-pcie fd500000.pcie: link down\n", NULL, "pcie-link-down");
	T_CHECK(f && f->sev == DIAG_WARNING && !strcmp(f->device, "fd500000.pcie"));
	/* a link that came up later (another driver took the controller) is no fault */
	run("[ 7.62] dw-pcie fe190000.pcie: Failed to initialize host\n"
	    "[ 7.62] dw-pcie: probe of fe190000.pcie failed with error -22\n"
	    "[ 7.91] rk-pcie fe190000.pcie: PCIe Link up, LTSSM is 0x130011\n", NULL, "pcie-link-down");
	T_CHECK(!has_id("pcie-link-down"));
	f = run("[ 1.2] pcie-starfive 940000000.pcie: error -ENODEV: failed to get valid pcie "
		"domain\n", NULL, "pcie-link-down");
	T_CHECK(f && f->sev == DIAG_ERROR && strstr(f->title, "never started"));

	f = run("[ 6.05] nvme nvme0: failed to set APST feature (4)\n", NULL, "nvme-apst-failed");
	T_CHECK(f && f->sev == DIAG_WARNING &&
		strstr(f->fix_summary, "nvme_core.default_ps_max_latency_us=0"));
	T_CHECK(f && f->n_fix_cmds == 0); /* no cmdline.txt to edit on an unknown board */
	f = run("[ 0.0] Machine model: Raspberry Pi 5 Model B Rev 1.0\n"
		"[ 6.05] nvme nvme0: failed to set APST feature (4)\n", NULL, "nvme-apst-failed");
	T_CHECK(f && has_cmd(f, "sbcdisk fix nvme-apst"));

	f = run("[ 15.56] EXT4-fs (nvme0n1p1): ext4_check_descriptors: Block bitmap for group 0 "
		"overlaps superblock\n"
		"[ 15.57] EXT4-fs (nvme0n1p1): group descriptors corrupted!\n", NULL, "fs-corrupt");
	T_CHECK(f && f->sev == DIAG_ERROR && !strcmp(f->device, "nvme0n1") &&
		strstr(f->fix_summary, "fsck"));
	T_CHECK(!has_id("io-errors"));

	/* a reset, "device firmware changed", and the port's next device is another: a mode
	 * switch, not a USB error */
	run("[ 5.0] usb 1-1.2: new high-speed USB device number 4 using dwc_otg\n"
	    "[ 5.1] usb 1-1.2: New USB device found, idVendor=0bda, idProduct=1a2b\n"
	    "[ 9.0] usb 1-1.2: reset high-speed USB device number 4 using dwc_otg\n"
	    "[ 9.1] usb 1-1.2: device firmware changed\n"
	    "[ 9.1] usb 1-1.2: USB disconnect, device number 4\n"
	    "[ 9.5] usb 1-1.2: new high-speed USB device number 5 using dwc_otg\n"
	    "[ 9.6] usb 1-1.2: New USB device found, idVendor=0bda, idProduct=c811\n", NULL, "usb-errors");
	T_CHECK(!has_id("usb-errors"));
	/* the same words from a drive that never comes back stay a reset */
	run("[ 9.0] usb 1-1.2: reset high-speed USB device number 7 using dwc_otg\n"
	    "[ 9.1] usb 1-1.2: device firmware changed\n"
	    "[ 9.1] usb 1-1.2: USB disconnect, device number 7\n", NULL, "usb-errors");
	T_CHECK(has_id("usb-errors"));
}

int main(void)
{
	const struct diag_rule_info *r;
	size_t i;

	test_log_rules();
	test_mapping();
	test_inventory_rules();
	test_power_rules();
	/* the table has exactly the fixed ids */
	for (i = 0; (r = diag_rule_get(i)); i++)
		T_CHECK(r->id && r->summary);
	T_EQ_INT(i, 32); /* 25, the four boot findings (rules-boot.c), the two power ones, run-far-below */
	diag_findings_release(&fs);
	test_linkage();
	test_faults();
	test_uas_coldplug();
	test_host_died();
	return t_done();
}
