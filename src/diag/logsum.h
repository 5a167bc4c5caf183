/* logsum.h - the bounded summary of a kernel log: one subject per device seen, event counts
 * and a few evidence lines per category. Shared by logsum.c and the rules (rules.c). */
#ifndef SBCDISK_DIAG_LOGSUM_H
#define SBCDISK_DIAG_LOGSUM_H

#include "diag/diag.h"
#include "diag/events.h"
#include "diag/kmsg.h"

/* Evidence kept per category: the first few lines and the latest one. */
#define CAT_KEEP 5

enum diag_cat {
	CAT_NONE = -1, /* an event handled by note_event() (logsum.c) alone */
	CAT_UAS,      /* uas aborts, uas resets, uas command errors */
	CAT_UASOFF,   /* uas not used: quirk, kernel table, host without streams */
	CAT_LINK,     /* enumeration line (speed) */
	CAT_USB,      /* USB resets, enumeration errors, xHCI trouble */
	CAT_IO,       /* block I/O errors, file system errors */
	CAT_NOTREADY, /* device not ready / not responding / read capacity failed */
	CAT_MMC,      /* SD/eMMC errors after the card was up */
	CAT_MMCINIT,  /* SD/eMMC errors while initialising */
	CAT_NVME,     /* NVMe timeouts, aborts, controller down */
	CAT_AER,      /* PCIe AER reports */
	CAT_PCIE,     /* PCIe link lines */
	CAT_POWER,    /* under-voltage */
	CAT_QUIRKS,   /* the quirks parameter rejected or malformed */
	CAT_HOSTDEAD, /* the USB host controller died (HC died, Host System Error) */
	CAT_HOSTFAIL, /* a USB host controller never started (init or probe failed) */
	CAT_OVERCURRENT, /* a USB port reported over-current */
	CAT_PCIEDOWN, /* a PCIe link that never trained, a PCIe host that never started */
	CAT_APST,     /* an NVMe drive refused the power-state table (APST) */
	CAT_FSCORRUPT, /* a file system found damaged at mount */
	CAT__COUNT
};

struct cat_stat {
	unsigned long count;
	unsigned long first_line, last_line;
	int n;                               /* samples kept (<= CAT_KEEP) */
	struct diag_evidence ev[CAT_KEEP];   /* [CAT_KEEP-1] is replaced by the latest */
};

#define LOG_LUNS_MAX 4

enum subj_kind { SUBJ_USB, SUBJ_DISK, SUBJ_MMC, SUBJ_NVME, SUBJ_PCI, SUBJ_XHCI, SUBJ_SYSTEM };

struct diag_subject {
	enum subj_kind kind;
	char usb_port[DIAG_NAME_MAX];
	char disk[DIAG_NAME_MAX];
	int disk_lun;               /* the SCSI LUN of disk, -1 unknown */
	char lun_disk[LOG_LUNS_MAX][DIAG_NAME_MAX]; /* the enclosure's other disks (LUNs) */
	int n_lun_disks;
	char disks_label[LOG_LUNS_MAX * (DIAG_NAME_MAX + 2) + 8]; /* "sdc and sdd" */
	char ctrl[DIAG_NAME_MAX];   /* mmc0, nvme0, xHCI or PCI address */
	char pci[DIAG_NAME_MAX];    /* an NVMe controller's PCI function */
	unsigned vid, pid;
	bool has_id;
	char product[64];
	unsigned speed_mbps;
	enum usb_driver driver;     /* USB_DRIVER_UAS, _STORAGE, _UNKNOWN (common/usb.h) */
	int scsi_host;              /* -1 unknown */
	bool is_hub, gone;          /* a hub; disconnected */
	bool uas_ignored, uas_unsupported;
	uint64_t quirk_flags;
	bool has_quirk_flags;
	bool mmc_up;                /* the card came up ("new ... card at address") */
	unsigned long mmc_up_line;
	char mmc_mode[48];          /* "high speed SDHC" */
	unsigned long mmc_crc;      /* SD/eMMC lines with error -84 (CRC) */
	unsigned long mmc_timeout;  /* SD/eMMC lines with a timeout (-110, no interrupt) */
	bool mmc_recovery_failed;   /* "recovery failed" */
	unsigned long mmc_init_failed; /* "error -N whilst initialising": failed attempts */
	double gts, cap_gts;        /* PCIe: trained and capable (from the kernel's words) */
	int width, cap_width;
	unsigned long aer_uncorrected;
	unsigned long nvme_reset_failed; /* "Device not ready; aborting reset" */
	unsigned long nvme_polled;  /* "timeout, completion polled": the interrupt was lost */
	double nvme_first_ts;       /* seconds since boot of the first NVMe error (0 unknown) */
	unsigned long uas_write_aborts; /* aborted commands that were writes (CMD OUT) */
	int boot;                   /* 0-based boot of the log it was seen in */
	unsigned long first_line;
	unsigned long id_line;      /* the last "New USB device found" line */
	unsigned long fw_changed_line; /* "device firmware changed" after a reset */
	unsigned long n_ev[EV__COUNT];
	struct cat_stat cat[CAT__COUNT];
};

#define LOG_SUBJECTS_MAX 64
#define LOG_HOSTS_MAX 32
#define LOG_BOOTS_MAX 32

struct diag_log {
	struct diag_subject *subj[LOG_SUBJECTS_MAX];
	size_t n_subj;
	struct diag_subject *sys;   /* power, quirks parameter, board: device-less facts */
	struct { int host; struct diag_subject *s; } hosts[LOG_HOSTS_MAX];
	size_t n_hosts;
	int pending_uas_reset_host; /* a uas reset started on this host, -1 when none */
	/* "scsi hostN: uas" lines with no USB device arriving between them: the uas driver,
	 * loaded after the devices arrived, probing them in the order they arrived */
	struct { int host; struct diag_subject *s; } uas_batch[LOG_HOSTS_MAX];
	size_t n_uas_batch;
	char model[96];
	char root_disk[DIAG_NAME_MAX]; /* from "Waiting for root device" / root= */
	char cmdline_quirks[160];
	int quirks_problem;         /* enum usbq_problem of the logged command line */
	unsigned long lines, messages;
	unsigned long nonblank;     /* input lines that were not blank */
	unsigned long recognised;   /* lines that were kernel messages by their form or content */
	/* boots: "Booting Linux", "Linux version", the time since boot going back to zero */
	int boot;                   /* the current boot, 0-based */
	unsigned long boot_msgs;    /* storage events since the current boot began */
	unsigned long boot_line[LOG_BOOTS_MAX];     /* first line of each boot (0: line 1) */
	unsigned long host_dead_line[LOG_BOOTS_MAX]; /* a USB host controller died here */
	double last_ts;
	double cur_ts;              /* the time since boot of the line being read, -1 unknown */
	unsigned long cur_line, cur_last_line; /* its first and last input line */
	const char *cur_text;       /* its text as shown, and where its message starts there */
	size_t cur_msg_off;
	bool finished;
};

/* The drive resets of the uas driver (started or failed) that doctor reports for s. */
static inline unsigned long logsum_uas_resets(const struct diag_subject *s)
{
	return s->n_ev[EV_UAS_RESET_START] + s->n_ev[EV_UAS_RESET_FAIL];
}

struct diag_subject *logsum_subject(struct diag_log *log, size_t i);
/* Merge trouble that names no device (xHCI) into the one device it must be about. */
void logsum_finish(struct diag_log *log);
/* Feed one kernel message (the kmsg reader's callback). */
int logsum_add_line(void *arg, const struct kmsg_line *line);
/* Feed one parsed event (tests use it directly). */
void logsum_add_event(struct diag_log *log, const struct diag_event *ev, const char *text,
		      unsigned long lineno);
/* The event counts in a category or the summary handles it (tests ask it of every kind). */
bool logsum_event_handled(enum diag_ev_kind kind);
/* Human name of a subject: "sda", "2-1", "mmcblk0", "nvme0n1", "0000:01:00.0". */
const char *logsum_subject_name(const struct diag_subject *s);

#endif
