/* diag.h - the doctor: findings from the kernel log and the inventory.
 * diag never opens files: cli/ hands it the log bytes, the devices and the boot facts. */
#ifndef SBCDISK_DIAG_H
#define SBCDISK_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/usb.h"

enum diag_sev { DIAG_INFO = 1, DIAG_WARNING = 2, DIAG_ERROR = 3 };

const char *diag_sev_name(enum diag_sev s);
/* "error" / "warning" / "info" -> 0 and *out; -EINVAL otherwise. */
int diag_sev_parse(const char *s, enum diag_sev *out);

#define DIAG_EVID_MAX 6
#define DIAG_EVID_TEXT 320
#define DIAG_CMDS_MAX 6

struct diag_evidence {
	unsigned long line; /* 1-based line of the log; 0 for a fact from the system */
	unsigned long last_line; /* the last line of a message wrapped over several, else 0 */
	char text[DIAG_EVID_TEXT];
	size_t msg_off; /* where the kernel's message starts in text, after its time and syslog
			 * prefix (0 when none, or for a fact from the system) */
};

struct diag_finding {
	const char *id;          /* one of the fixed ids ("uas-errors" ...) */
	enum diag_sev sev;
	char device[32];         /* "sda", "" when none */
	char usb_id[16];         /* "152d:0578", "" when unknown */
	char title[160];
	char explanation[1200];
	struct diag_evidence evidence[DIAG_EVID_MAX];
	int n_evidence;
	unsigned long more_evidence; /* lines like these not shown */
	bool has_fix;
	char fix_summary[600];
	char fix_cmds[DIAG_CMDS_MAX][96];
	int n_fix_cmds;
	int boot;                /* the boot of the log it is from, 0-based */
	bool earlier_boot;       /* from a boot before the log's last one */
};

struct diag_findings {
	struct diag_finding *v;  /* worst first after diag_run() */
	size_t n, alloc;
};

void diag_findings_release(struct diag_findings *f);
/* The worst severity present, 0 when there are no findings. */
int diag_findings_worst(const struct diag_findings *f);

/*
 * The inventory: what cli/ learned from probe/ (the list command's API), in diag's terms.
 */
enum diag_transport { DIAG_T_UNKNOWN, DIAG_T_USB, DIAG_T_NVME, DIAG_T_MMC, DIAG_T_SATA, DIAG_T_OTHER };

struct probe_health;
struct probe_power;
struct boot_facts;
struct boot_checks;

struct diag_dev {
	char name[32];            /* "sda", "nvme0n1", "mmcblk0" */
	enum diag_transport transport;
	bool is_root;             /* holds the running system's / */
	bool is_sd;               /* an SD card (not eMMC) */
	char model[64];
	/* USB */
	bool has_usb;
	unsigned vid, pid;
	char usb_port[USB_PORT_NAME_MAX]; /* "2-1.4" */
	unsigned speed_mbps;      /* link: 480, 5000 ... (0 unknown) */
	unsigned version_bcd;     /* bcdUSB: 0x0300, 0x0210 ... (0 unknown) */
	enum usb_driver driver;           /* of its interface: uas, usb-storage, unknown */
	char bridge[64];          /* bridge chip name when known ("JMicron JMS567") */
	bool bridge_uas_trouble;  /* our bridge table says this chip has UAS trouble */
	bool bridge_usb3;         /* our bridge table says the chip is a USB 3 bridge */
	unsigned root_speed_mbps; /* its root hub's speed */
	/* PCIe */
	bool has_pcie;
	char pci_addr[32];
	double cur_gts, max_gts, port_max_gts; /* 0 unknown */
	int cur_width, max_width, port_max_width;
	/* what smartctl said (probe/health.h), NULL when not read */
	const struct probe_health *health;
	/* as a clone target: its size, where it or a partition is mounted, a file system on it */
	uint64_t size_bytes;	  /* 0 unknown */
	char mounted_part[32];	  /* "sda1", "" when nothing of it is mounted */
	char mounted_on[256];	  /* "/srv/data" */
	char data_part[32];	  /* "sda1": a partition with a file system, "" none */
	char data_fs[16];	  /* its type */
	bool has_stored_run;	  /* a bench of it is in the result store (false: none, unknown) */
	/* Its last stored run is far below what its path carries (store/verdict.h judged it:
	 * diag opens no store): the run's id and its judgement line, the evidence. */
	bool last_run_far;
	long long last_run_id;
	char last_run_line[240];
};

struct diag_inventory {
	struct diag_dev *devs;
	size_t n;
	char board[128];               /* device-tree model, "" unknown */
	unsigned fastest_usb_root_mbps; /* the fastest USB root hub on the board (0 unknown) */
	bool log_is_local;             /* the log is this system's (not pasted from elsewhere) */
	const char *cmdline;           /* /proc/cmdline or NULL */
	const char *quirks_param;      /* /sys/module/usb_storage/parameters/quirks or NULL */
	/* the boot layer's facts and its check of every disk (boot/boot.h), NULL when not read */
	const struct boot_facts *boot;
	const struct boot_checks *boot_checks;
	/* the board's power facts (probe/power.h), NULL when not read */
	const struct probe_power *power;
};

/*
 * The log: parsed in one pass into a bounded summary (memory does not grow with the log).
 */
struct diag_log;

int diag_log_new(struct diag_log **out);
void diag_log_free(struct diag_log *log);
/* Parsers: a buffer, a FILE *, or an fd (/dev/kmsg, O_NONBLOCK). 0 or -errno. */
int diag_log_parse_buf(struct diag_log *log, const char *buf, size_t n);
int diag_log_parse_file(struct diag_log *log, FILE *f);
int diag_log_parse_fd(struct diag_log *log, int fd);
/* Lines read, and kernel messages among them. */
unsigned long diag_log_lines(const struct diag_log *log);
unsigned long diag_log_messages(const struct diag_log *log);
/* Lines that were no kernel message by form or content (another program's syslog lines,
 * a format not understood), and in *nonblank the lines that were not blank. */
unsigned long diag_log_unrecognised(const struct diag_log *log, unsigned long *nonblank);

/* The uas drive resets of USB device vid:pid, or of disk (NULL for none), in the log's last
 * boot, counted as doctor counts them. 0, or -ENOENT when that boot shows neither. */
int diag_log_uas_resets(struct diag_log *log, unsigned vid, unsigned pid, const char *disk,
			unsigned long *resets);

/* Run the rules table. log and inv may be NULL (not available). 0 or -ENOMEM. */
int diag_run(struct diag_log *log, const struct diag_inventory *inv, struct diag_findings *out);

/*
 * What the log's last boot counted for one inventory device (metrics): UAS command aborts,
 * UAS device resets and I/O error lines, from the subjects the findings match to inv->devs[i]
 * (VID:PID, or the disk name when the log is this system's). Call after diag_run(). 0, or
 * -EINVAL when i is out of range.
 */
struct diag_dev_counts {
	unsigned long uas_aborts;
	unsigned long uas_resets;
	unsigned long io_errors;
};
int diag_dev_counts_get(struct diag_log *log, const struct diag_inventory *inv, size_t i,
			struct diag_dev_counts *out);

/* The rules table, for --help and tests: its ids in order, each with one line. */
struct diag_rule_info {
	const char *id;
	const char *summary;
};
/* NULL past the end. */
const struct diag_rule_info *diag_rule_get(size_t i);
/* Whether id is one of the rules' finding ids. */
bool diag_rule_known(const char *id);

#endif
