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
	CAT__COUNT
};

struct cat_stat {
	unsigned long count;
	unsigned long first_line, last_line;
	int n;                               /* samples kept (<= CAT_KEEP) */
	struct diag_evidence ev[CAT_KEEP];   /* [CAT_KEEP-1] is replaced by the latest */
};

enum subj_kind { SUBJ_USB, SUBJ_DISK, SUBJ_MMC, SUBJ_NVME, SUBJ_PCI, SUBJ_XHCI, SUBJ_SYSTEM };

struct diag_subject {
	enum subj_kind kind;
	char usb_port[DIAG_NAME_MAX];
	char disk[DIAG_NAME_MAX];
	char ctrl[DIAG_NAME_MAX];   /* mmc0, nvme0, xHCI or PCI address */
	char pci[DIAG_NAME_MAX];    /* an NVMe controller's PCI function */
	unsigned vid, pid;
	bool has_id;
	char product[64];
	unsigned speed_mbps;
	int driver;                 /* 0 unknown, 1 uas, 2 usb-storage */
	int scsi_host;              /* -1 unknown */
	bool is_hub, gone;          /* a hub; disconnected */
	bool uas_ignored, uas_unsupported;
	uint64_t quirk_flags;
	bool has_quirk_flags;
	bool mmc_up;                /* the card came up ("new ... card at address") */
	unsigned long mmc_up_line;
	char mmc_mode[48];          /* "high speed SDHC" */
	double gts, cap_gts;        /* PCIe: trained and capable (from the kernel's words) */
	int width, cap_width;
	unsigned long aer_uncorrected;
	unsigned long uas_write_aborts; /* aborted commands that were writes (CMD OUT) */
	unsigned long first_line;
	unsigned long id_line;      /* the last "New USB device found" line */
	unsigned long n_ev[EV__COUNT];
	struct cat_stat cat[CAT__COUNT];
};

#define LOG_SUBJECTS_MAX 64
#define LOG_HOSTS_MAX 32

struct diag_log {
	struct diag_subject *subj[LOG_SUBJECTS_MAX];
	size_t n_subj;
	struct diag_subject *sys;   /* power, quirks parameter, board: device-less facts */
	struct { int host; struct diag_subject *s; } hosts[LOG_HOSTS_MAX];
	size_t n_hosts;
	int pending_uas_reset_host; /* a uas reset started on this host, -1 when none */
	char model[96];
	char root_disk[DIAG_NAME_MAX]; /* from "Waiting for root device" / root= */
	char cmdline_quirks[160];
	int quirks_problem;         /* enum usbq_problem of the logged command line */
	unsigned long lines, messages;
	bool finished;
};

struct diag_subject *logsum_subject(struct diag_log *log, size_t i);
/* Merge trouble that names no device (xHCI) into the one device it must be about. */
void logsum_finish(struct diag_log *log);
/* Feed one kernel message (the kmsg reader's callback). */
int logsum_add_line(void *arg, const struct kmsg_line *line);
/* Feed one parsed event (tests use it directly). */
void logsum_add_event(struct diag_log *log, const struct diag_event *ev, const char *text,
		      unsigned long lineno);
/* Human name of a subject: "sda", "2-1", "mmcblk0", "nvme0n1", "0000:01:00.0". */
const char *logsum_subject_name(const struct diag_subject *s);

#endif
