/* rules.h - what the rules share (internal to diag/): the context and the helpers that
 * name a log subject, match it to the inventory and start a finding. */
#ifndef SBCDISK_DIAG_RULES_H
#define SBCDISK_DIAG_RULES_H

#include "diag/findings.h"

struct rule_ctx {
	struct diag_log *log;              /* NULL when no log was read */
	const struct diag_inventory *inv;  /* NULL when no inventory was taken */
	struct diag_findings *out;
	const struct diag_subject *subj;   /* the subject of the loop below, NULL after it */
	int err;
};

/* The i-th subject of the log, remembered in ctx (its boot goes into findings); NULL at
 * the end. */
struct diag_subject *rule_subject_at(struct rule_ctx *ctx, size_t i);

/* Subjects of the log, in order. Not to be nested: an inner loop ends the outer's subject. */
#define for_each_subject(ctx, s, i) \
	for ((i) = 0; ((s) = rule_subject_at((ctx), (i))) != NULL; (i)++)

/* The subject's trouble (from line first on) came after its USB host controller died in
 * the same boot: a consequence, reported with usb-host-died. */
bool rule_after_host_death(const struct rule_ctx *ctx, const struct diag_subject *s,
			   unsigned long first);

/* finding_get() that records -ENOMEM in ctx. */
struct diag_finding *rule_get(struct rule_ctx *ctx, const char *id, enum diag_sev sev,
			      const char *device, const char *usb_id);
/* rule_get() for a log subject: device is its block device name (else its controller or
 * USB port, returned in *name), usb_id its VID:PID when known. */
struct diag_finding *rule_subject_finding(struct rule_ctx *ctx, const struct diag_subject *s,
					 const char *id, enum diag_sev sev, const char **name);
/* "152d:0578" or "" */
void rule_usb_id(const struct diag_subject *s, char *buf, size_t cap);
/* The inventory device a log subject is about, or NULL. */
const struct diag_dev *rule_inv_match(const struct rule_ctx *ctx, const struct diag_subject *s);
/* The block device name to report ("" when none is known). */
const char *rule_dev_name(const struct rule_ctx *ctx, const struct diag_subject *s);
/* "sda (USB 152d:0578)", "the USB device at port 2-2", "nvme0" ... for titles. */
void rule_subject_label(const struct rule_ctx *ctx, const struct diag_subject *s, char *buf,
			size_t cap);
bool rule_undervoltage_seen(const struct rule_ctx *ctx);
/* The board: the inventory's device-tree model, else the log's "Machine model:", else "". */
const char *rule_board(const struct rule_ctx *ctx);
/* "The bridge chip is a JMicron JMS567/JMS578 (152d:0578)." from list's bridge table. */
void rule_explain_bridge(struct diag_finding *f, const struct diag_subject *s);

/* The rules, one per finding id (rules-usb.c, rules-storage.c). */
void rule_uas_errors(struct rule_ctx *ctx);
void rule_uas_disabled(struct rule_ctx *ctx);
void rule_uas_known_quirky(struct rule_ctx *ctx);
void rule_usb_link_slow(struct rule_ctx *ctx);
void rule_usb_errors(struct rule_ctx *ctx);
void rule_usb_host_died(struct rule_ctx *ctx);
void rule_usb_host_failed(struct rule_ctx *ctx);
void rule_pcie_link(struct rule_ctx *ctx);
void rule_pcie_errors(struct rule_ctx *ctx);
void rule_nvme_errors(struct rule_ctx *ctx);
void rule_mmc_errors(struct rule_ctx *ctx);
void rule_io_errors(struct rule_ctx *ctx);
void rule_device_not_ready(struct rule_ctx *ctx);
void rule_undervoltage(struct rule_ctx *ctx);
/* rules-faults.c */
bool rule_overcurrent_seen(const struct rule_ctx *ctx);
void rule_pcie_link_down(struct rule_ctx *ctx);
void rule_usb_over_current(struct rule_ctx *ctx);
void rule_nvme_apst(struct rule_ctx *ctx);
void rule_fs_corrupt(struct rule_ctx *ctx);
void rule_quirks_param_invalid(struct rule_ctx *ctx);
void rule_run_far_below(struct rule_ctx *ctx);
void rule_root_on_sd(struct rule_ctx *ctx);
/* rules-boot.c: boot-usb2, bootloader-old, boot-partuuid-duplicate, boot-order */
void rule_boot(struct rule_ctx *ctx);
/* rules-power.c: undervoltage-now, usb-current-limited */
void rule_power(struct rule_ctx *ctx);
/* rules-health.c: drive-failing, drive-worn, drive-hot, drive-no-smart */
void rule_drive_health(struct rule_ctx *ctx);

#endif
