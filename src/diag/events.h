/* events.h - what one kernel message says about storage: a typed event with its subject
 * (USB port, SCSI host, disk, MMC/NVMe controller, PCI function) and its numbers. */
#ifndef SBCDISK_DIAG_EVENTS_H
#define SBCDISK_DIAG_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum diag_ev_kind {
	EV_NONE = 0,
	/* USB attachment */
	EV_USB_NEW,          /* usb 2-1: new SuperSpeed Gen 1 USB device number 2 using ... */
	EV_USB_ID,           /* usb 2-1: New USB device found, idVendor=152d, idProduct=0578 */
	EV_USB_PRODUCT,      /* usb 2-1: Product: JMS579 */
	EV_USB_HUB,          /* hub 1-1:1.0: USB hub found */
	EV_USB_DISCONNECT,   /* usb 1-1.3: USB disconnect, device number 3 */
	EV_USB_RESET,        /* usb 2-1: reset SuperSpeed USB device number 2 using xhci_hcd */
	EV_USB_ENUM_ERR,     /* device descriptor read/64, error -71; unable to enumerate ... */
	EV_SCSI_HOST_UAS,    /* scsi host0: uas */
	EV_SCSI_HOST_BOT,    /* scsi host0: usb-storage 2-1:1.0 */
	EV_UAS_IGNORED,      /* UAS is blacklisted|ignored for this device, using usb-storage */
	EV_UAS_UNSUPPORTED,  /* the host controller lacks streams / scatter-gather for uas */
	EV_QUIRKS_MATCH,     /* usb-storage 2-1:1.0: Quirks match for vid 152d pid 0578: 1800000 */
	/* UAS and xHCI trouble */
	EV_UAS_ABORT,        /* sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 5 ... */
	EV_UAS_RESET_START,  /* scsi host0: uas_eh_device_reset_handler start */
	EV_UAS_RESET_OK,     /* scsi host0: uas_eh_device_reset_handler success */
	EV_UAS_RESET_FAIL,   /* scsi host0: uas_eh_device_reset_handler FAILED err -19 */
	EV_UAS_CMD_ERR,      /* usb 2-1: cmd cmplt err -71 / stat urb: status -71 */
	EV_UAS_DATA_ERR,     /* data cmplt err -75 uas-tag 1 */
	EV_XHCI_TRDEQ,       /* Set TR Deq Ptr cmd failed | command is pending | Cannot submit */
	EV_XHCI_STOP_EP,     /* xHCI host not responding to stop endpoint command */
	EV_XHCI_DEAD,        /* xHCI host controller not responding, assume dead / HC died */
	EV_XHCI_STREAMS,     /* WARN Can't disable streams for endpoint */
	EV_XHCI_EP_DISABLED, /* ERROR Transfer event for disabled endpoint or incorrect stream */
	/* block layer and file systems */
	EV_SD_MAP,           /* any "sd H:C:T:L: [sdX]" line: maps the SCSI address to a disk */
	EV_IO_ERROR,         /* I/O error, dev sdd, sector ... (all wordings), Medium Error */
	EV_BUF_IO_ERROR,     /* Buffer I/O error on dev sda1 */
	EV_FS_ERROR,         /* EXT4-fs error, I/O error writing, journal aborted, read-only */
	EV_CRIT_TARGET,      /* critical target error, dev sda */
	EV_READ_CAP_FAIL,    /* [sda] Read Capacity(10) failed */
	EV_SYNC_CACHE_FAIL,  /* [sda] Synchronize Cache(10) failed */
	EV_NOT_READY,        /* Sense Key : Not Ready, not responding, timing out command */
	EV_SCSI_OFFLINED,    /* Device offlined - not ready after error recovery */
	/* power */
	EV_UNDERVOLT,        /* hwmon hwmon1: Undervoltage detected! / Under-voltage detected! */
	EV_VOLT_OK,          /* Voltage normalised */
	/* SD / eMMC */
	EV_MMC_TIMEOUT,      /* mmc0: timeout waiting for hardware (cmd) interrupt, Data Timeout */
	EV_MMC_HOST_ERR,     /* mmc0: Reset 0x1 never completed. / sdhci: === REGISTER DUMP === */
	EV_MMC_ERR,          /* mmcblk0: error -110 sending stop command; card never left busy */
	EV_MMC_INIT_ERR,     /* mmc0: error -84 whilst initialising SD card; invalid bus width */
	EV_MMC_CARD_NEW,     /* mmc0: new high speed SDHC card at address 59b4 */
	EV_MMC_BLK,          /* mmcblk0: mmc0:59b4 00000 3.67 GiB */
	EV_MMC_REMOVED,      /* mmc0: card 59b4 removed */
	/* NVMe and PCIe */
	EV_NVME_TIMEOUT,     /* nvme nvme0: I/O 12 QID 3 timeout, aborting */
	EV_NVME_ABORT,       /* nvme nvme0: Abort status: 0x0 */
	EV_NVME_DOWN,        /* controller is down; will reset / Disabling device after reset */
	EV_NVME_NOT_READY,   /* Device not ready; aborting initialisation, CSTS=0x0 */
	EV_NVME_PS_HINT,     /* Does your device have a faulty power saving mode enabled? */
	EV_NVME_REMOVED,     /* Removing after probe failure status: -19 */
	EV_NVME_IO_ERR,      /* nvme0n1: I/O Cmd(0x2) @ LBA ..., I/O Error (sct 0x3 / sc 0x71) */
	EV_NVME_PCI,         /* nvme nvme0: pci function 0000:01:00.0 */
	EV_PCIE_AER,         /* AER: Corrected error received / PCIe Bus Error: severity=... */
	EV_PCIE_LINK_UP,     /* brcm-pcie fd500000.pcie: link up, 5.0 GT/s PCIe x1 (SSC) */
	EV_PCIE_LINK_DOWN,   /* brcm-pcie ...: link down */
	EV_PCIE_BW_LIMITED,  /* ... available PCIe bandwidth, limited by 5.0 GT/s PCIe x1 link */
	/* boot and configuration */
	EV_QUIRKS_PARAM_BAD, /* usb_storage.quirks: string doesn't fit in 127 chars. */
	EV_CMDLINE,          /* Kernel command line: ... */
	EV_MODEL,            /* Machine model: Raspberry Pi 4 Model B Rev 1.4 */
	EV_ROOT_WAIT,        /* Waiting for root device /dev/mmcblk0p2... */
	EV_BOOT,             /* Booting Linux on physical CPU 0x0 / Linux version 6.1.21-v8+ */
	EV__COUNT
};

#define DIAG_NAME_MAX 32

struct diag_event {
	enum diag_ev_kind kind;
	char usb_port[DIAG_NAME_MAX]; /* "2-1.4" */
	int scsi_host;                /* -1 when not named */
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
