/* t-events.c - every event the parser knows, from a real (or kernel-source) message, with
 * the subject and numbers it must extract; and messages that must not be events. */
#include <stdio.h>

#include "t.h"
#include "diag/events.h"
#include "diag/logsum.h"
#include "common/util.h"

struct ev_case {
	const char *msg;
	enum diag_ev_kind kind;
	const char *port, *disk, *ctrl; /* NULL: not checked */
	int host;                       /* -2: not checked */
	unsigned speed;
	int err;
};

static const struct ev_case cases[] = {
	{ "usb 1-1.3: new high-speed USB device number 3 using xhci_hcd", EV_USB_NEW, "1-1.3",
	  NULL, NULL, -2, 480, 0 },
	{ "usb 2-1: new SuperSpeed Gen 1 USB device number 2 using xhci_hcd", EV_USB_NEW, "2-1",
	  NULL, NULL, -2, 5000, 0 },
	{ "usb 2-1: new SuperSpeed USB device number 2 using xhci_hcd", EV_USB_NEW, "2-1", NULL,
	  NULL, -2, 5000, 0 },
	{ "usb 4-1: new SuperSpeed Plus Gen 2x1 USB device number 2 using xhci_hcd", EV_USB_NEW,
	  "4-1", NULL, NULL, -2, 10000, 0 },
	{ "usb 1-1: new full-speed USB device number 2 using dwc_otg", EV_USB_NEW, "1-1", NULL,
	  NULL, -2, 12, 0 },
	{ "usb 2-1: New USB device found, idVendor=152d, idProduct=0578, bcdDevice= 1.00",
	  EV_USB_ID, "2-1", NULL, NULL, -2, 0, 0 },
	{ "usb 2-1: Product: JMS579", EV_USB_PRODUCT, "2-1", NULL, NULL, -2, 0, 0 },
	{ "hub 1-1:1.0: USB hub found", EV_USB_HUB, "1-1", NULL, NULL, -2, 0, 0 },
	{ "usb 1-1.3: USB disconnect, device number 3", EV_USB_DISCONNECT, "1-1.3", NULL, NULL,
	  -2, 0, 0 },
	{ "usb 2-1.4: reset SuperSpeed USB device number 3 using xhci-hcd", EV_USB_RESET,
	  "2-1.4", NULL, NULL, -2, 5000, 0 },
	{ "usb 1-1: device descriptor read/64, error -71", EV_USB_ENUM_ERR, "1-1", NULL, NULL, -2,
	  0, -71 },
	{ "usb 1-1-port2: unable to enumerate USB device", EV_USB_ENUM_ERR, "1-1.2", NULL, NULL,
	  -2, 0, 0 },
	/* a root hub's port: root hub 1's port 1 holds device 1-1 */
	{ "usb usb1-port1: Cannot enable. Maybe the USB cable is bad?", EV_USB_ENUM_ERR, "1-1",
	  NULL, NULL, -2, 0, 0 },
	{ "usb usb5-port1: cannot disable (err = -32)", EV_USB_PORT_ERR, "5-1", NULL, NULL, -2, 0,
	  -32 },
	{ "usb usb2-port1: Cannot set link state.", EV_USB_PORT_ERR, "2-1", NULL, NULL, -2, 0, 0 },
	{ "xhci-hcd xhci-hcd.3.auto: Cannot set link state.", EV_USB_PORT_ERR, NULL, NULL,
	  "xhci-hcd.3.auto", -2, 0, 0 },
	{ "usb usb1-port6: over-current condition", EV_USB_OVERCURRENT, NULL, NULL, NULL, -2, 0,
	  0 },
	{ "usb 1-1-port2: over-current change #1", EV_USB_OVERCURRENT, NULL, NULL, NULL, -2, 0,
	  0 },
	{ "hub 1-0:1.0: over-current change on port 1", EV_USB_OVERCURRENT, NULL, NULL, NULL, -2,
	  0, 0 },
	{ "usb 1-1.2: device firmware changed", EV_USB_FW_CHANGED, "1-1.2", NULL, NULL, -2, 0, 0 },
	{ "usb usb1: New USB device found, idVendor=1d6b, idProduct=0002", EV_NONE, NULL, NULL,
	  NULL, -2, 0, 0 },
	{ "usb usb6-port1: attempt power cycle", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "scsi host0: uas", EV_SCSI_HOST_UAS, NULL, NULL, NULL, 0, 0, 0 },
	{ "scsi host3: usb-storage 2-1:1.0", EV_SCSI_HOST_BOT, "2-1", NULL, NULL, 3, 0, 0 },
	{ "usb 2-1: UAS is blacklisted for this device, using usb-storage instead",
	  EV_UAS_IGNORED, "2-1", NULL, NULL, -2, 0, 0 },
	{ "usb 2-1: UAS is ignored for this device, using usb-storage instead", EV_UAS_IGNORED,
	  "2-1", NULL, NULL, -2, 0, 0 },
	{ "usb 1-1: USB controller 3f980000.usb does not support streams, which are required by "
	  "the UAS driver.", EV_UAS_UNSUPPORTED, NULL, NULL, NULL, -2, 0, 0 },
	{ "usb-storage 2-1:1.0: Quirks match for vid 152d pid 0578: 1800000", EV_QUIRKS_MATCH,
	  "2-1", NULL, NULL, -2, 0, 0 },
	{ "sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 inflight: CMD OUT ",
	  EV_UAS_ABORT, NULL, "sda", NULL, 0, 0, 0 },
	{ "scsi host0: uas_eh_device_reset_handler start", EV_UAS_RESET_START, NULL, NULL, NULL,
	  0, 0, 0 },
	{ "scsi host0: uas_eh_device_reset_handler success", EV_UAS_RESET_OK, NULL, NULL, NULL, 0,
	  0, 0 },
	{ "scsi host1: uas_eh_device_reset_handler FAILED err -19", EV_UAS_RESET_FAIL, NULL, NULL,
	  NULL, 1, 0, -19 },
	{ "usb 2-1: cmd cmplt err -71", EV_UAS_CMD_ERR, "2-1", NULL, NULL, -2, 0, -71 },
	{ "usb 2-1: stat urb: status -2", EV_UAS_CMD_ERR, "2-1", NULL, NULL, -2, 0, -2 },
	{ "sd 0:0:0:0: [sda] tag#1 data cmplt err -75 uas-tag 1 len 0", EV_UAS_DATA_ERR, NULL,
	  "sda", NULL, 0, 0, -75 },
	{ "xhci_hcd 0000:01:00.0: WARN Cannot submit Set TR Deq Ptr", EV_XHCI_TRDEQ, NULL, NULL,
	  "0000:01:00.0", -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: A Set TR Deq Ptr command is pending.", EV_XHCI_TRDEQ, NULL,
	  NULL, NULL, -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: WARN Set TR Deq Ptr cmd failed due to incorrect slot or ep "
	  "state.", EV_XHCI_TRDEQ, NULL, NULL, NULL, -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: xHCI host not responding to stop endpoint command",
	  EV_XHCI_STOP_EP, NULL, NULL, NULL, -2, 0, 0 },
	/* from public reports (a Surface's and a Precision's controller, in dmesg) */
	{ "xhci_hcd 0000:00:14.0: ERROR Transfer event TRB DMA ptr not part of current TD "
	  "ep_index 1 comp_code 1", EV_XHCI_EVENT_NOT_IN_TD, NULL, NULL, "0000:00:14.0", -2, 0, 0 },
	{ "xhci_hcd 0000:07:00.0: ERROR Transfer event TRB DMA ptr not part of current TD "
	  "ep_index 7 comp_code 1", EV_XHCI_EVENT_NOT_IN_TD, NULL, NULL, "0000:07:00.0", -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: xHCI host controller not responding, assume dead", EV_XHCI_DEAD,
	  NULL, NULL, NULL, -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: HC died; cleaning up", EV_XHCI_DEAD, NULL, NULL, "0000:01:00.0",
	  -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: WARNING: Host System Error", EV_XHCI_DEAD, NULL, NULL, NULL, -2,
	  0, 0 },
	{ "xhci-hcd xhci-hcd.1.auto: ERROR Transfer event for disabled endpoint or incorrect "
	  "stream ring", EV_XHCI_EP_DISABLED, NULL, NULL, "xhci-hcd.1.auto", -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: ERROR Transfer event for disabled endpoint slot 1 ep 4",
	  EV_XHCI_EP_DISABLED, NULL, NULL, NULL, -2, 0, 0 },
	{ "Booting Linux on physical CPU 0x0000000000 [0x410fd083]", EV_BOOT, NULL, NULL, NULL, -2,
	  0, 0 },
	{ "Linux version 6.1.21-v8+ (dom@buildbot) (aarch64-linux-gnu-gcc-8 (Ubuntu/Linaro "
	  "8.4.0-3ubuntu1) 8.4.0, GNU ld (GNU Binutils for Ubuntu) 2.34) #1642 SMP PREEMPT",
	  EV_BOOT, NULL, NULL, NULL, -2, 0, 0 },
	{ "tegra-xusb 3610000.usb: WARN Set TR Deq Ptr cmd failed due to incorrect slot or ep state.",
	  EV_XHCI_TRDEQ, NULL, NULL, "3610000.usb", -2, 0, 0 },
	/* a host controller's message, whoever the driver: keyed on the message */
	{ "tegra-xhci tegra-xhci: Assuming host is dying, halting host.", EV_XHCI_DEAD, NULL,
	  NULL, "tegra-xhci", -2, 0, 0 },
	{ "tegra-xhci tegra-xhci: HC died; cleaning up", EV_XHCI_DEAD, NULL, NULL, "tegra-xhci",
	  -2, 0, 0 },
	{ "xhci-mtk 11200000.usb: xHCI host controller not responding, assume dead",
	  EV_XHCI_DEAD, NULL, NULL, "11200000.usb", -2, 0, 0 },
	{ "ehci-platform 1c1a000.usb: HC died; cleaning up", EV_XHCI_DEAD, NULL, NULL,
	  "1c1a000.usb", -2, 0, 0 },
	{ "dwc3 fe800000.usb: xHCI host not responding to stop endpoint command.",
	  EV_XHCI_STOP_EP, NULL, NULL, "fe800000.usb", -2, 0, 0 },
	{ "xhci-hcd xhci-hcd.3.auto: WARNING: Host System Error", EV_XHCI_DEAD, NULL, NULL,
	  "xhci-hcd.3.auto", -2, 0, 0 },
	{ "nvme 0004:41:00.0: can't change power state from D3cold to D0 (config space "
	  "inaccessible)", EV_PCI_POWER_FAIL, NULL, NULL, "0004:41:00.0", -2, 0, 0 },
	/* a controller that never started */
	{ "xhci_hcd 0000:01:00.0: init 0000:01:00.0 fail, -14", EV_HOST_INIT_FAIL, NULL, NULL,
	  "0000:01:00.0", -2, 0, -14 },
	{ "xhci-hcd xhci-hcd.0.auto: startup error -19", EV_HOST_INIT_FAIL, NULL, NULL,
	  "xhci-hcd.0.auto", -2, 0, -19 },
	{ "xhci_hcd 0000:01:00.0: can't setup: -110", EV_HOST_INIT_FAIL, NULL, NULL,
	  "0000:01:00.0", -2, 0, -110 },
	{ "xhci-hcd: probe of xhci-hcd.0.auto failed with error -110", EV_HOST_INIT_FAIL, NULL,
	  NULL, "xhci-hcd.0.auto", -2, 0, -110 },
	{ "rtl8192cu: probe of 1-1:1.0 failed with error -5", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "xhci-hcd xhci-hcd.0.auto: probe with driver xhci-hcd failed with error -110",
	  EV_HOST_INIT_FAIL, NULL, NULL, "xhci-hcd.0.auto", -2, 0, -110 },
	{ "dwc3 fe800000.usb: failed to initialize core: -110", EV_HOST_INIT_FAIL, NULL, NULL,
	  "fe800000.usb", -2, 0, -110 },
	{ "nvme 0000:01:00.0: probe with driver nvme failed with error -12", EV_NONE, NULL, NULL,
	  NULL, -2, 0, 0 },
	/* older kernels' wording */
	{ "lost page write due to I/O error on sdb1", EV_BUF_IO_ERROR, NULL, "sdb", NULL, -2, 0,
	  0 },
	{ "sd 0:0:0:0: [sdb] Unhandled error code", EV_IO_ERROR, NULL, "sdb", NULL, 0, 0, 0 },
	{ "sd 2:0:0:0: [sdb] Unhandled sense code", EV_IO_ERROR, NULL, "sdb", NULL, 2, 0, 0 },
	{ "end_request: I/O error, dev sda, sector 12423", EV_IO_ERROR, NULL, "sda", NULL, -2, 0,
	  0 },
	{ "blk_update_request: I/O error, dev mmcblk0, sector 1056", EV_IO_ERROR, NULL, "mmcblk0",
	  NULL, -2, 0, 0 },
	/* SD host drivers' wording (core/block.c as bcm2835-sdhost's users see it) */
	{ "mmcblk0: r/w command failed, status = 0x80000900", EV_MMC_ERR, NULL, "mmcblk0", NULL,
	  -2, 0, 0 },
	{ "mmc0: tried to reset card", EV_MMC_ERR, NULL, NULL, "mmc0", -2, 0, 0 },
	{ "mmc0: tried to reset card, got error -110", EV_MMC_ERR, NULL, NULL, "mmc0", -2, 0,
	  -110 },
	{ "scsi 0:0:0:0: [sda] killing request", EV_SD_MAP, NULL, "sda", NULL, 0, 0, 0 },
	{ "scsi 0:0:0:0: rejecting I/O to offline device", EV_IO_ERROR, NULL, NULL, NULL, 0, 0, 0 },
	{ "-- Boot 99386174e13f4e9cb2044baee8704fa6 --", EV_BOOT, NULL, NULL, NULL, -2, 0, 0 },
	{ "sd 0:0:0:0: Device offlined - not ready after error recovery", EV_SCSI_OFFLINED, NULL,
	  NULL, NULL, 0, 0, 0 },
	{ "mmc0: Reset 0x1 never completed.", EV_MMC_HOST_ERR, NULL, NULL, "mmc0", -2, 0, 0 },
	{ "mmc1: sdhci: ============ SDHCI REGISTER DUMP ===========", EV_MMC_HOST_ERR, NULL, NULL,
	  "mmc1", -2, 0, 0 },
	{ "sdhci: =========== REGISTER DUMP (mmc1)===========", EV_MMC_HOST_ERR, NULL, NULL,
	  "mmc1", -2, 0, 0 },
	{ "mmc0: =========== REGISTER DUMP ===========", EV_MMC_HOST_ERR, NULL, NULL, "mmc0", -2,
	  0, 0 },
	{ "mmc1: Data end bit error", EV_MMC_ERR, NULL, NULL, "mmc1", -2, 0, -84 },
	{ "mmc1: Data CRC error", EV_MMC_ERR, NULL, NULL, "mmc1", -2, 0, -84 },
	{ "mmc0: Timeout waiting for hardware cmd interrupt.", EV_MMC_TIMEOUT, NULL, NULL, "mmc0",
	  -2, 0, 0 },
	{ "mmc1: Data Timeout error, intmask: 100000 Interface clock = 200000000Hz",
	  EV_MMC_TIMEOUT, NULL, NULL, "mmc1", -2, 0, 0 },
	{ "nvme nvme0: Device not ready; aborting reset, CSTS=0x1", EV_NVME_DOWN, NULL, NULL,
	  "nvme0", -2, 0, 0 },
	{ "nvme nvme0: Does your device have a faulty power saving mode enabled?", EV_NVME_PS_HINT,
	  NULL, NULL, "nvme0", -2, 0, 0 },
	{ "xhci_hcd 0000:01:00.0: WARN Can't disable streams for endpoint 0x81, streams are being "
	  "disabled already", EV_XHCI_STREAMS, NULL, NULL, NULL, -2, 0, 0 },
	{ "sd 0:0:0:0: [sda] Attached SCSI disk", EV_SD_MAP, NULL, "sda", NULL, 0, 0, 0 },
	{ "I/O error, dev sdd, sector 661993472 op 0x1:(WRITE) flags 0x0 phys_seg 51 prio class 2",
	  EV_IO_ERROR, NULL, "sdd", NULL, -2, 0, 0 },
	{ "blk_update_request: I/O error, dev sda, sector 2048 op 0x0:(READ) flags 0x80700",
	  EV_IO_ERROR, NULL, "sda", NULL, -2, 0, 0 },
	{ "end_request: I/O error, dev mmcblk0, sector 123", EV_IO_ERROR, NULL, "mmcblk0", NULL,
	  -2, 0, 0 },
	{ "print_req_error: I/O error, dev sdb, sector 8", EV_IO_ERROR, NULL, "sdb", NULL, -2, 0,
	  0 },
	{ "blk_update_request: critical target error, dev sda, sector 1234 op 0x1:(WRITE)",
	  EV_CRIT_TARGET, NULL, "sda", NULL, -2, 0, 0 },
	{ "critical target error, dev sdb, sector 5 op 0x0:(READ)", EV_CRIT_TARGET, NULL, "sdb",
	  NULL, -2, 0, 0 },
	{ "Buffer I/O error on device sdd1, logical block 82747392", EV_BUF_IO_ERROR, NULL, "sdd",
	  NULL, -2, 0, 0 },
	{ "Buffer I/O error on dev sda1, logical block 0, lost sync page write", EV_BUF_IO_ERROR,
	  NULL, "sda", NULL, -2, 0, 0 },
	{ "EXT4-fs error (device sda1) in ext4_writepages:2921: Journal has aborted", EV_FS_ERROR,
	  NULL, "sda", NULL, -2, 0, 0 },
	{ "EXT4-fs (mmcblk0p2): Remounting filesystem read-only", EV_FS_ERROR, NULL, "mmcblk0",
	  NULL, -2, 0, 0 },
	{ "EXT4-fs (sda2): mounted filesystem with ordered data mode", EV_NONE, NULL, NULL, NULL,
	  -2, 0, 0 },
	{ "JBD2: Detected IO errors while flushing file data on sda1-8", EV_FS_ERROR, NULL, "sda",
	  NULL, -2, 0, 0 },
	{ "sd 0:0:0:0: [sda] Read Capacity(10) failed: Result: hostbyte=0x07 driverbyte=0x00",
	  EV_READ_CAP_FAIL, NULL, "sda", NULL, 0, 0, 0 },
	{ "sd 0:0:0:0: [sda] Synchronize Cache(10) failed: Result: hostbyte=DID_ERROR",
	  EV_SYNC_CACHE_FAIL, NULL, "sda", NULL, 0, 0, 0 },
	{ "sd 0:0:0:0: [sda] tag#0 Sense Key : Not Ready [current]", EV_NOT_READY, NULL, "sda",
	  NULL, 0, 0, 0 },
	{ "usb 1-1.2: device not responding to setup address", EV_USB_ENUM_ERR, "1-1.2", NULL,
	  NULL, -2, 0, 0 },
	{ "sd 0:0:0:0: [sda] tag#3 timing out command, waited 180s", EV_NOT_READY, NULL, "sda",
	  NULL, 0, 0, 0 },
	{ "hwmon hwmon1: Undervoltage detected!", EV_UNDERVOLT, NULL, NULL, NULL, -2, 0, 0 },
	{ "Under-voltage detected! (0x00050005)", EV_UNDERVOLT, NULL, NULL, NULL, -2, 0, 0 },
	{ "raspberrypi-hwmon raspberrypi-hwmon: Undervoltage detected!", EV_UNDERVOLT, NULL, NULL,
	  NULL, -2, 0, 0 },
	{ "rpi_firmware_get_throttled: Under-voltage detected! (0x00050005)", EV_UNDERVOLT, NULL,
	  NULL, NULL, -2, 0, 0 },
	{ "hwmon hwmon1: Voltage normalised", EV_VOLT_OK, NULL, NULL, NULL, -2, 0, 0 },
	{ "Voltage normalised (0x00000000)", EV_VOLT_OK, NULL, NULL, NULL, -2, 0, 0 },
	{ "mmc0: timeout waiting for hardware interrupt.", EV_MMC_TIMEOUT, NULL, NULL, "mmc0", -2,
	  0, 0 },
	{ "mmc0: Timeout waiting for hardware interrupt - cmd12.", EV_MMC_TIMEOUT, NULL, NULL,
	  "mmc0", -2, 0, 0 },
	{ "mmcblk0: error -110 sending stop command, original cmd response 0x900, card status "
	  "0x900", EV_MMC_ERR, NULL, "mmcblk0", NULL, -2, 0, -110 },
	{ "mmc0: card never left busy state", EV_MMC_ERR, NULL, NULL, "mmc0", -2, 0, 0 },
	{ "mmc0: error -84 whilst initialising SD card", EV_MMC_INIT_ERR, NULL, NULL, "mmc0", -2,
	  0, -84 },
	{ "mmc1: invalid bus width", EV_MMC_INIT_ERR, NULL, NULL, "mmc1", -2, 0, 0 },
	{ "mmc0: error -22 whilst initialising SD card", EV_MMC_INIT_ERR, NULL, NULL, "mmc0", -2,
	  0, -22 },
	{ "mmc0: new high speed SDHC card at address 59b4", EV_MMC_CARD_NEW, NULL, NULL, "mmc0",
	  -2, 0, 0 },
	{ "mmcblk0: mmc0:59b4 00000 3.67 GiB", EV_MMC_BLK, NULL, "mmcblk0", "mmc0", -2, 0, 0 },
	{ "mmc0: card 59b4 removed", EV_MMC_REMOVED, NULL, NULL, "mmc0", -2, 0, 0 },
	{ "mmc0: running CQE recovery", EV_MMC_CQE_RECOVERY, NULL, NULL, "mmc0", -2, 0, 0 },
	{ "mmc0: cqhci: spurious TCN for tag 10", EV_MMC_CQE_RECOVERY, NULL, NULL, "mmc0", -2, 0,
	  0 },
	{ "mmc0: cqhci: Failed to halt", EV_MMC_CQE_RECOVERY, NULL, NULL, "mmc0", -2, 0, 0 },
	{ "mmc0: cqhci: timeout for tag 30, qcnt 1", EV_MMC_CQE_RECOVERY, NULL, NULL, "mmc0", -2,
	  0, 0 },
	{ "mmc0: cqhci: ============ CQHCI REGISTER DUMP ===========", EV_MMC_CQE_RECOVERY,
	  NULL, NULL, "mmc0", -2, 0, 0 },
	{ "EXT4-fs (nvme0n1p1): group descriptors corrupted!", EV_FS_CORRUPT, NULL, "nvme0n1",
	  NULL, -2, 0, 0 },
	{ "EXT4-fs (nvme0n1p1): ext4_check_descriptors: Block bitmap for group 0 overlaps "
	  "superblock", EV_FS_CORRUPT, NULL, "nvme0n1", NULL, -2, 0, 0 },
	{ "EXT4-fs (mmcblk0p2): error loading journal", EV_FS_CORRUPT, NULL, "mmcblk0", NULL, -2,
	  0, 0 },
	{ "F2FS-fs (mmcblk0p2): Can't find valid F2FS filesystem in 1th superblock",
	  EV_FS_CORRUPT, NULL, "mmcblk0", NULL, -2, 0, 0 },
	{ "BTRFS error (device sda1): open_ctree failed", EV_FS_CORRUPT, NULL, "sda", NULL, -2, 0,
	  0 },
	{ "BTRFS error (device sda1): bdev /dev/sda1 errs: wr 0, rd 12, flush 0, corrupt 0, gen "
	  "0", EV_FS_ERROR, NULL, "sda", NULL, -2, 0, 0 },
	{ "BTRFS critical (device sda2): corrupt leaf: root=1 block=2 slot=73, bad key order",
	  EV_FS_ERROR, NULL, "sda", NULL, -2, 0, 0 },
	{ "nvme nvme0: I/O 12 QID 3 timeout, aborting", EV_NVME_TIMEOUT, NULL, NULL, "nvme0", -2,
	  0, 0 },
	{ "nvme nvme0: Abort status: 0x0", EV_NVME_ABORT, NULL, NULL, "nvme0", -2, 0, 0 },
	{ "nvme nvme0: controller is down; will reset: CSTS=0xffffffff, PCI_STATUS=0x10",
	  EV_NVME_DOWN, NULL, NULL, "nvme0", -2, 0, 0 },
	{ "nvme nvme0: Device not ready; aborting initialisation, CSTS=0x0", EV_NVME_NOT_READY,
	  NULL, NULL, "nvme0", -2, 0, 0 },
	{ "nvme nvme0: Removing after probe failure status: -19", EV_NVME_REMOVED, NULL, NULL,
	  "nvme0", -2, 0, -19 },
	{ "nvme0n1: I/O Cmd(0x2) @ LBA 32545872, 8 blocks, I/O Error (sct 0x3 / sc 0x71) ",
	  EV_NVME_IO_ERR, NULL, "nvme0n1", NULL, -2, 0, 0 },
	{ "nvme nvme0: pci function 0000:01:00.0", EV_NVME_PCI, NULL, NULL, "nvme0", -2, 0, 0 },
	{ "nvme nvme0: failed to set APST feature (4)", EV_NVME_APST_FAIL, NULL, NULL, "nvme0",
	  -2, 0, 0 },
	{ "nvme nvme0: failed to set APST feature (-19)", EV_NVME_APST_FAIL, NULL, NULL, "nvme0",
	  -2, 0, 0 },
	{ "pcieport 0000:00:00.0: AER: Corrected error received: 0000:00:00.0", EV_PCIE_AER, NULL,
	  NULL, "0000:00:00.0", -2, 0, 0 },
	{ "pcieport 0000:00:00.0: PCIe Bus Error: severity=Corrected, type=Data Link Layer, "
	  "(Transmitter ID)", EV_PCIE_AER, NULL, NULL, "0000:00:00.0", -2, 0, 0 },
	{ "pcieport 0000:00:00.0: AER: enabled with IRQ 50", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "brcm-pcie fd500000.pcie: link up, 5.0 GT/s PCIe x1 (SSC)", EV_PCIE_LINK_UP, NULL, NULL,
	  "fd500000.pcie", -2, 0, 0 },
	{ "brcm-pcie 1000110000.pcie: link down", EV_PCIE_LINK_DOWN, NULL, NULL, NULL, -2, 0, 0 },
	{ "mtk-pcie-gen3 11290000.pcie: PCIe link down, current LTSSM state: "
	  "polling.compliance (0x3000003", EV_PCIE_LINK_DOWN, NULL, NULL, "11290000.pcie", -2, 0,
	  0 },
	{ "rockchip-dw-pcie a40000000.pcie: Phy link never came up", EV_PCIE_LINK_DOWN, NULL,
	  NULL, "a40000000.pcie", -2, 0, 0 },
	{ "rk-pcie fe190000.pcie: PCIe Link up, LTSSM is 0x130011", EV_PCIE_LINK_UP, NULL, NULL,
	  "fe190000.pcie", -2, 0, 0 },
	{ "pcie-starfive 940000000.pcie: error -ENODEV: failed to get valid pcie domain",
	  EV_PCIE_HOST_FAIL, NULL, NULL, "940000000.pcie", -2, 0, 0 },
	{ "dw-pcie fe190000.pcie: Failed to initialize host", EV_PCIE_HOST_FAIL, NULL, NULL,
	  "fe190000.pcie", -2, 0, 0 },
	{ "dw-pcie: probe of fe190000.pcie failed with error -22", EV_PCIE_HOST_FAIL, NULL, NULL,
	  "fe190000.pcie", -2, 0, -22 },
	{ "platform fe150000.pcie: deferred probe pending", EV_PCIE_HOST_FAIL, NULL, NULL,
	  "fe150000.pcie", -2, 0, 0 },
	{ "rk-pcie fe190000.pcie: invalid prsnt-gpios property in node", EV_NONE, NULL, NULL,
	  NULL, -2, 0, 0 },
	{ "pci 0000:01:00.0: 4.000 Gb/s available PCIe bandwidth, limited by 5.0 GT/s PCIe x1 link "
	  "at 0000:00:00.0 (capable of 31.504 Gb/s with 8.0 GT/s PCIe x4 link)",
	  EV_PCIE_BW_LIMITED, NULL, NULL, "0000:01:00.0", -2, 0, 0 },
	{ "usb_storage.quirks: string doesn't fit in 127 chars.", EV_QUIRKS_PARAM_BAD, NULL, NULL,
	  NULL, -2, 0, 0 },
	{ "Booting kernel: `174c:55aa:u,152d:0578:u' too large for parameter "
	  "`usb-storage.quirks'", EV_QUIRKS_PARAM_BAD, NULL, NULL, NULL, -2, 0, 0 },
	{ "Kernel command line: console=tty1 root=/dev/mmcblk0p2 rootwait", EV_CMDLINE, NULL,
	  NULL, NULL, -2, 0, 0 },
	{ "Machine model: Raspberry Pi 4 Model B Rev 1.4", EV_MODEL, NULL, NULL, NULL, -2, 0, 0 },
	{ "Waiting for root device /dev/mmcblk0p2...", EV_ROOT_WAIT, NULL, "mmcblk0", NULL, -2, 0,
	  0 },
	/* not events */
	{ "usb 1-1: Manufacturer: JMicron", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "scsi 0:0:0:0: Direct-Access     JMicron  Generic          8101 PQ: 0 ANSI: 6", EV_NONE,
	  NULL, NULL, NULL, -2, 0, 0 },
	{ "random: crng init done", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "usb ", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "sd ", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "mmc", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
	{ "nvme ", EV_NONE, NULL, NULL, NULL, -2, 0, 0 },
};

int main(void)
{
	struct diag_event ev;
	size_t i;
	bool seen[EV__COUNT] = { false };

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct ev_case *c = &cases[i];
		bool ok = diag_event_parse(c->msg, strlen(c->msg), &ev);

		if (!ok)
			ev.kind = EV_NONE;
		if (ev.kind != c->kind)
			fprintf(stderr, "case %zu '%s': got %s, expected %s\n", i, c->msg,
				diag_event_name(ev.kind), diag_event_name(c->kind));
		T_EQ_INT(ev.kind, c->kind);
		if (ev.kind != c->kind)
			continue;
		seen[ev.kind] = true;
		if (c->port)
			T_EQ_STR(ev.usb_port, c->port);
		if (c->disk)
			T_EQ_STR(ev.disk, c->disk);
		if (c->ctrl)
			T_EQ_STR(ev.ctrl, c->ctrl);
		if (c->host != -2)
			T_EQ_INT(ev.scsi_host, c->host);
		if (c->speed)
			T_EQ_INT(ev.speed_mbps, c->speed);
		if (c->err)
			T_EQ_INT(ev.err, c->err);
	}
	/* every event kind has a case */
	for (i = 1; i < EV__COUNT; i++) {
		if (!seen[i])
			fprintf(stderr, "no case for %s\n", diag_event_name((enum diag_ev_kind)i));
		T_CHECK(seen[i]);
	}
	/* every row of DIAG_EVENTS: a name of its own, and a category or a handler */
	for (i = 1; i < EV__COUNT; i++) {
		const char *name = diag_event_name((enum diag_ev_kind)i);
		size_t j;

		T_CHECK(name[0] >= 'a' && name[0] <= 'z' &&
			strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(name));
		for (j = 1; j < i; j++)
			T_CHECK(strcmp(name, diag_event_name((enum diag_ev_kind)j)) != 0);
		if (!logsum_event_handled((enum diag_ev_kind)i))
			fprintf(stderr, "%s: no category and no handler\n", name);
		T_CHECK(logsum_event_handled((enum diag_ev_kind)i));
	}
	T_CHECK(!logsum_event_handled(EV_NONE));
	T_EQ_STR(diag_event_name(EV__COUNT), "?");
	/* the numbers */
	T_CHECK(diag_event_parse("usb 2-1: New USB device found, idVendor=152d, idProduct=0578",
				 60, &ev));
	T_EQ_INT(ev.vid, 0x152d);
	T_EQ_INT(ev.pid, 0x0578);
	T_CHECK(diag_event_parse("usb-storage 2-1:1.0: Quirks match for vid 152d pid 0578: 1800000",
				 64, &ev));
	T_EQ_INT(ev.flags, 0x1800000);
	/* numbers go through the strict parsers: no id from garbage, no wrapped-around host */
	T_CHECK(!diag_event_parse("usb 2-1: New USB device found, idVendor=zz2d, idProduct=0578",
				  60, &ev));
	T_CHECK(!diag_event_parse("usb 2-1: New USB device found, idVendor=1152d, idProduct=0578",
				  61, &ev));
	T_CHECK(!diag_event_parse("scsi host99999999999999999999: uas", 35, &ev));
	T_CHECK(!diag_event_parse("usb-storage 2-1:1.0: Quirks match for vid 152d pid 0578: x",
				  58, &ev));
	T_CHECK(diag_event_parse("pci 0000:01:00.0: 4.000 Gb/s available PCIe bandwidth, limited "
				 "by 5.0 GT/s PCIe x1 link at 0000:00:00.0 (capable of 31.504 "
				 "Gb/s with 8.0 GT/s PCIe x4 link)", 150, &ev));
	T_NEAR(ev.gts, 5.0, 0.01);
	T_EQ_INT(ev.width, 1);
	T_NEAR(ev.cap_gts, 8.0, 0.01);
	T_EQ_INT(ev.cap_width, 4);
	T_CHECK(diag_event_parse("sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 10 "
				 "inflight: CMD OUT ", 70, &ev));
	T_CHECK(ev.is_write);
	{
		char n1[] = "sda12", n2[] = "mmcblk0p2", n3[] = "nvme0n1p3", n4[] = "nvme0n1";

		diag_disk_fold(n1);
		diag_disk_fold(n2);
		diag_disk_fold(n3);
		diag_disk_fold(n4);
		T_EQ_STR(n1, "sda");
		T_EQ_STR(n2, "mmcblk0");
		T_EQ_STR(n3, "nvme0n1");
		T_EQ_STR(n4, "nvme0n1");
	}
	return t_done();
}
