/* events.h - what one kernel message says about storage: a typed event with its subject
 * (USB port, SCSI host, disk, MMC/NVMe controller, PCI function) and its numbers. */
#ifndef SBCDISK_DIAG_EVENTS_H
#define SBCDISK_DIAG_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Every storage event, one row each: X(KIND, name, category, flags). KIND gives EV_KIND, name
 * is what tests and the docs call it, category the logsum category it counts in (NONE: the
 * summary's note_event() handles it), flags the groups below. A new kernel message is a row
 * here, its recognition in events.c, a line of docs/kernel-messages.md and a test case. */
#define EVF_UAS    0x1u /* the uas driver's trouble: the device runs uas */
#define EVF_HOST   0x2u /* a USB host controller's message, whoever its driver */
#define EVF_MMC    0x4u /* SD/eMMC trouble: counted as CRC errors and timeouts */
#define EVF_SYSTEM 0x8u /* about the machine, not one device */

#define DIAG_EVENTS(X) \
	/* USB attachment */ \
	/* usb 2-1: new SuperSpeed Gen 1 USB device number 2 using ... */ \
	X(USB_NEW, "usb-new", NONE, 0) \
	/* usb 2-1: New USB device found, idVendor=152d, idProduct=0578 */ \
	X(USB_ID, "usb-id", NONE, 0) \
	X(USB_PRODUCT, "usb-product", NONE, 0)                  /* usb 2-1: Product: JMS579 */ \
	X(USB_HUB, "usb-hub", NONE, 0)                          /* hub 1-1:1.0: USB hub found */ \
	/* usb 1-1.3: USB disconnect, device number 3 */ \
	X(USB_DISCONNECT, "usb-disconnect", NONE, 0) \
	/* usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd */ \
	X(USB_RESET, "usb-reset", NONE, 0) \
	/* device descriptor read/64, error -71; unable to enumerate ... */ \
	X(USB_ENUM_ERR, "usb-enum-error", USB, 0) \
	X(SCSI_HOST_UAS, "scsi-host-uas", NONE, 0)              /* scsi host0: uas */ \
	/* scsi host0: usb-storage 2-1:1.0 */ \
	X(SCSI_HOST_BOT, "scsi-host-usb-storage", NONE, 0) \
	/* UAS is blacklisted|ignored for this device, using usb-storage */ \
	X(UAS_IGNORED, "uas-ignored", NONE, 0) \
	/* the host controller lacks streams / scatter-gather for uas */ \
	X(UAS_UNSUPPORTED, "uas-unsupported", NONE, 0) \
	/* usb-storage 2-1:1.0: Quirks match for vid 152d pid 0578: 1800000 */ \
	X(QUIRKS_MATCH, "quirks-match", NONE, 0) \
	/* UAS and xHCI trouble */ \
	/* sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 5 ... */ \
	X(UAS_ABORT, "uas-abort", NONE, EVF_UAS) \
	/* scsi host0: uas_eh_device_reset_handler start */ \
	X(UAS_RESET_START, "uas-reset-start", NONE, EVF_UAS) \
	/* scsi host0: uas_eh_device_reset_handler success */ \
	X(UAS_RESET_OK, "uas-reset-success", NONE, EVF_UAS) \
	/* scsi host0: uas_eh_device_reset_handler FAILED err -19 */ \
	X(UAS_RESET_FAIL, "uas-reset-failed", NONE, EVF_UAS) \
	/* usb 2-1: cmd cmplt err -71 / stat urb: status -71 */ \
	X(UAS_CMD_ERR, "uas-cmd-error", UAS, EVF_UAS) \
	X(UAS_DATA_ERR, "uas-data-error", UAS, EVF_UAS)         /* data cmplt err -75 uas-tag 1 */ \
	/* Set TR Deq Ptr cmd failed | command is pending | Cannot submit */ \
	X(XHCI_TRDEQ, "xhci-set-tr-deq", USB, EVF_HOST) \
	/* xHCI host not responding to stop endpoint command */ \
	X(XHCI_STOP_EP, "xhci-stop-endpoint", USB, EVF_HOST) \
	/* xHCI host controller not responding, assume dead / HC died */ \
	X(XHCI_DEAD, "xhci-dead", HOSTDEAD, EVF_HOST) \
	/* WARN Can't disable streams for endpoint */ \
	X(XHCI_STREAMS, "xhci-streams", USB, EVF_HOST) \
	/* ERROR Transfer event TRB DMA ptr not part of current TD ep_index 1 comp_code 1 */ \
	X(XHCI_EVENT_NOT_IN_TD, "xhci-event-not-in-td", USB, EVF_HOST) \
	/* ERROR Transfer event for disabled endpoint or incorrect stream */ \
	X(XHCI_EP_DISABLED, "xhci-endpoint-disabled", USB, EVF_HOST) \
	/* init 0000:01:00.0 fail, -14 / startup error -19 / probe of ... failed with error */ \
	X(HOST_INIT_FAIL, "usb-host-init-failed", HOSTFAIL, EVF_HOST) \
	/* usb usb5-port1: Cannot set link state / cannot disable (err = -32) / cannot reset */ \
	X(USB_PORT_ERR, "usb-port-error", USB, 0) \
	/* usb usb1-port6: over-current condition / over-current change #1 */ \
	X(USB_OVERCURRENT, "usb-over-current", OVERCURRENT, EVF_SYSTEM) \
	/* usb 1-1: device firmware changed (after a reset: a deliberate mode switch) */ \
	X(USB_FW_CHANGED, "usb-firmware-changed", NONE, 0) \
	/* block layer and file systems */ \
	/* any "sd H:C:T:L: [sdX]" line: maps the SCSI address to a disk */ \
	X(SD_MAP, "sd-map", NONE, 0) \
	/* I/O error, dev sdd, sector ... (all wordings), Medium Error */ \
	X(IO_ERROR, "io-error", IO, 0) \
	X(BUF_IO_ERROR, "buffer-io-error", IO, 0)               /* Buffer I/O error on dev sda1 */ \
	/* EXT4-fs error, I/O error writing, journal aborted, read-only */ \
	X(FS_ERROR, "fs-error", IO, 0) \
	/* EXT4-fs (sda1): group descriptors corrupted! / error loading journal */ \
	X(FS_CORRUPT, "fs-corrupt", FSCORRUPT, 0) \
	/* critical target error, dev sda */ \
	X(CRIT_TARGET, "critical-target-error", IO, 0) \
	/* [sda] Read Capacity(10) failed */ \
	X(READ_CAP_FAIL, "read-capacity-failed", NOTREADY, 0) \
	/* [sda] Synchronize Cache(10) failed */ \
	X(SYNC_CACHE_FAIL, "sync-cache-failed", NONE, 0) \
	/* Sense Key : Not Ready, not responding, timing out command */ \
	X(NOT_READY, "not-ready", NOTREADY, 0) \
	/* Device offlined - not ready after error recovery */ \
	X(SCSI_OFFLINED, "scsi-offlined", NOTREADY, 0) \
	/* power */ \
	/* hwmon hwmon1: Undervoltage detected! / Under-voltage detected! */ \
	X(UNDERVOLT, "undervoltage", POWER, EVF_SYSTEM) \
	X(VOLT_OK, "voltage-normal", NONE, EVF_SYSTEM)          /* Voltage normalised */ \
	/* SD / eMMC */ \
	/* mmc0: timeout waiting for hardware (cmd) interrupt, Data Timeout */ \
	X(MMC_TIMEOUT, "mmc-timeout", MMC, EVF_MMC) \
	/* mmc0: Reset 0x1 never completed. / sdhci: === REGISTER DUMP === */ \
	X(MMC_HOST_ERR, "mmc-host-error", MMC, EVF_MMC) \
	/* mmcblk0: error -110 sending stop command; card never left busy */ \
	X(MMC_ERR, "mmc-error", MMC, EVF_MMC) \
	/* mmc0: error -84 whilst initialising SD card; invalid bus width */ \
	X(MMC_INIT_ERR, "mmc-init-error", MMCINIT, EVF_MMC) \
	/* mmc0: running CQE recovery / cqhci: Failed to halt / spurious TCN for tag 10 */ \
	X(MMC_CQE_RECOVERY, "mmc-cqe-recovery", MMC, EVF_MMC) \
	/* mmc0: new high speed SDHC card at address 59b4 */ \
	X(MMC_CARD_NEW, "mmc-card-new", NONE, 0) \
	/* mmcblk0: mmc0:59b4 00000 3.67 GiB */ \
	X(MMC_BLK, "mmc-blk", NONE, 0) \
	X(MMC_REMOVED, "mmc-removed", NONE, 0)                  /* mmc0: card 59b4 removed */ \
	/* NVMe and PCIe */ \
	/* nvme nvme0: I/O 12 QID 3 timeout, aborting */ \
	X(NVME_TIMEOUT, "nvme-timeout", NVME, 0) \
	/* nvme nvme0: Abort status: 0x0 */ \
	X(NVME_ABORT, "nvme-abort", NVME, 0) \
	/* controller is down; will reset / Disabling device after reset */ \
	X(NVME_DOWN, "nvme-down", NVME, 0) \
	/* Device not ready; aborting initialisation, CSTS=0x0 */ \
	X(NVME_NOT_READY, "nvme-not-ready", NOTREADY, 0) \
	/* Does your device have a faulty power saving mode enabled? */ \
	X(NVME_PS_HINT, "nvme-power-state-hint", NONE, 0) \
	/* nvme nvme0: failed to set APST feature (2) */ \
	X(NVME_APST_FAIL, "nvme-apst-failed", APST, 0) \
	/* Removing after probe failure status: -19 */ \
	X(NVME_REMOVED, "nvme-removed", NOTREADY, 0) \
	/* nvme0n1: I/O Cmd(0x2) @ LBA ..., I/O Error (sct 0x3 / sc 0x71) */ \
	X(NVME_IO_ERR, "nvme-io-error", NVME, 0) \
	/* nvme 0000:01:00.0: can't change power state from D3cold to D0 (config space ...) */ \
	X(PCI_POWER_FAIL, "pci-power-state-failed", NOTREADY, 0) \
	/* nvme nvme0: pci function 0000:01:00.0 */ \
	X(NVME_PCI, "nvme-pci", NONE, 0) \
	/* AER: Corrected error received / PCIe Bus Error: severity=... */ \
	X(PCIE_AER, "pcie-aer", NONE, 0) \
	/* brcm-pcie fd500000.pcie: link up, 5.0 GT/s PCIe x1 (SSC) */ \
	X(PCIE_LINK_UP, "pcie-link-up", NONE, 0) \
	/* brcm-pcie ...: link down / mtk-pcie-gen3 ...: PCIe link down, current LTSSM state */ \
	X(PCIE_LINK_DOWN, "pcie-link-down", PCIEDOWN, 0) \
	/* pcie-starfive ...: failed to get valid pcie domain / Failed to get pcie clocks */ \
	X(PCIE_HOST_FAIL, "pcie-host-failed", PCIEDOWN, 0) \
	/* ... available PCIe bandwidth, limited by 5.0 GT/s PCIe x1 link */ \
	X(PCIE_BW_LIMITED, "pcie-bandwidth-limited", NONE, 0) \
	/* boot and configuration */ \
	/* usb_storage.quirks: string doesn't fit in 127 chars. */ \
	X(QUIRKS_PARAM_BAD, "quirks-param-rejected", QUIRKS, EVF_SYSTEM) \
	X(CMDLINE, "cmdline", NONE, EVF_SYSTEM)                 /* Kernel command line: ... */ \
	/* Machine model: Raspberry Pi 4 Model B Rev 1.4 */ \
	X(MODEL, "model", NONE, EVF_SYSTEM) \
	/* Waiting for root device /dev/mmcblk0p2... */ \
	X(ROOT_WAIT, "root-wait", NONE, EVF_SYSTEM) \
	/* Booting Linux on physical CPU 0x0 / Linux version 6.1.21-v8+ */ \
	X(BOOT, "boot", NONE, EVF_SYSTEM)

enum diag_ev_kind {
	EV_NONE = 0,
#define X(kind, name, cat, flags) EV_##kind,
	DIAG_EVENTS(X)
#undef X
	EV__COUNT
};

/* The flags of an event's row (0 for EV_NONE and out of range). */
unsigned diag_event_flags(enum diag_ev_kind kind);

#define DIAG_NAME_MAX 32

struct diag_event {
	enum diag_ev_kind kind;
	char usb_port[DIAG_NAME_MAX]; /* "2-1.4" */
	int scsi_host;                /* -1 when not named */
	int scsi_lun;                 /* the L of "sd H:C:T:L:", -1 when not named */
	char disk[DIAG_NAME_MAX];     /* "sda", "mmcblk0", "nvme0n1": partitions folded */
	char ctrl[DIAG_NAME_MAX];     /* "mmc0", "nvme0", "hwmon1", "0000:01:00.0" */
	unsigned vid, pid;
	bool has_id;
	unsigned speed_mbps;          /* USB link: 1 (1.5), 12, 480, 5000, 10000, 20000 */
	uint64_t flags;               /* usb-storage quirk flags */
	int err;                      /* -71, -110 ... (0 when none) */
	int aer_fatal;                /* 0 corrected, 1 non-fatal, 2 fatal */
	bool is_write;                /* the failed command wrote (when known) */
	double gts, cap_gts;          /* PCIe link GT/s: trained / capable (0 unknown) */
	int width, cap_width;
	const char *arg;              /* rest of the message where the event has text */
	size_t arg_len;
};

/* Recognise one kernel message (msg NUL-terminated, every prefix removed). Returns true and
 * fills ev when it is a storage event; ev->arg points into msg. */
bool diag_event_parse(const char *msg, size_t len, struct diag_event *ev);

const char *diag_event_name(enum diag_ev_kind kind);

/* Strip the partition from a block device name: sda1 -> sda, mmcblk0p2 -> mmcblk0,
 * nvme0n1p2 -> nvme0n1. In place. */
void diag_disk_fold(char *name);

#endif
