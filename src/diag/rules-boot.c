// SPDX-License-Identifier: GPL-2.0-or-later
/* rules-boot.c - findings from the boot layer's facts and checks (boot/boot.h): boot-usb2,
 * bootloader-old, boot-partuuid-duplicate, boot-order. diag reads what cli/ handed it. */
#include <string.h>

#include "boot/boot.h"
#include "diag/rules.h"
#include "common/util.h"

static const struct boot_check_item *check_of(const struct boot_checks *c, const char *disk,
					      const char *id)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->item[i].disk, disk) && !strcmp(c->item[i].id, id))
			return &c->item[i];
	return NULL;
}

/* A disk looks bootable: a FAT first partition whose files (when they could be read) are
 * there. */
static bool looks_bootable(const struct boot_checks *c, const char *disk)
{
	const struct boot_check_item *p = check_of(c, disk, "boot-partition");
	const struct boot_check_item *f = check_of(c, disk, "boot-files");

	return p && p->result == BOOT_PASS && (!f || f->result != BOOT_FAIL);
}

static void boot_usb2(struct rule_ctx *ctx, const struct boot_facts *bf)
{
	const struct diag_inventory *inv = ctx->inv;
	const struct diag_dev *d = NULL;
	struct diag_finding *f;
	char usb_id[16] = "";
	size_t i;

	if (!bf->has_mode || bf->mode != BOOT_MODE_USB_MSD || !bf->has_usb_version ||
	    bf->usb_version != 2)
		return;
	for (i = 0; i < inv->n; i++)
		if (!strcmp(inv->devs[i].name, bf->root_disk))
			d = &inv->devs[i];
	/* only a drive that can do USB 3 was slowed down */
	if (!d || !d->has_usb || !(d->version_bcd >= 0x0300 || d->bridge_usb3))
		return;
	str_fmt(usb_id, sizeof(usb_id), "%04x:%04x", d->vid, d->pid);
	f = rule_get(ctx, "boot-usb2", DIAG_WARNING, d->name, usb_id);
	if (!f)
		return;
	finding_title(f, "The bootloader saw the boot drive %s at USB 2", d->name);
	finding_evidence_fact(f, "/chosen/bootloader/usb/usb-version is 2; %s is a USB %x.%02x "
			      "device", d->name, d->version_bcd >> 8, d->version_bcd & 0xff);
	finding_explain(f, "The board booted from a USB 3 drive that enumerated at USB 2 speed "
			   "in the bootloader: it is in a USB 2.0 (black) port, behind a USB 2 hub "
			   "or cable, or it fell back. Loading the kernel takes longer, and Linux "
			   "will often see it at 480M too.");
	finding_fix(f, "Plug the drive into a blue USB 3.0 port directly, with a USB 3 cable, "
		       "and reboot; 'sbcdisk boot' then shows USB 3.");
}

static void bootloader_old(struct rule_ctx *ctx, const struct boot_checks *c)
{
	struct diag_finding *f;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct boot_check_item *it = &c->item[i];

		if (strcmp(it->id, "bootloader-can") || it->result != BOOT_FAIL ||
		    !looks_bootable(c, it->disk))
			continue;
		f = rule_get(ctx, "bootloader-old", DIAG_WARNING, it->disk, NULL);
		if (!f)
			return;
		finding_title(f, "The bootloader cannot boot %s, which looks bootable", it->disk);
		finding_evidence_fact(f, "%s", it->text);
		finding_explain(f, "%s has a FAT boot partition, but this board's bootloader is "
				   "older than the release that can start a system from a disk "
				   "of this kind.", it->disk);
		finding_fix(f, "Update the bootloader, then reboot.");
		finding_fix_cmd(f, "sudo rpi-eeprom-update -a");
	}
}

static void partuuid_duplicate(struct rule_ctx *ctx, const struct boot_checks *c)
{
	struct diag_finding *f;
	bool first = true;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct boot_check_item *it = &c->item[i];

		if (strcmp(it->id, "id-unique") || it->result != BOOT_FAIL)
			continue;
		/* both disks fail the check: one finding, named by the first */
		if (!first)
			continue;
		first = false;
		f = rule_get(ctx, "boot-partuuid-duplicate", DIAG_ERROR, it->disk, NULL);
		if (!f)
			return;
		finding_title(f, "Two attached disks carry the same partition ids");
		finding_evidence_fact(f, "%s", it->text);
		finding_explain(f, "A disk copied block by block (dd, an imager) keeps the PARTUUIDs "
				   "and file system UUIDs of the original. root=PARTUUID= and "
				   "fstab then name two partitions, and which one the kernel mounts "
				   "is chance: changes can land on the wrong disk.");
		finding_fix(f, "Give one of the disks new ids (a new disk identifier with 'sudo "
			       "fdisk' x then i, new file system UUIDs with tune2fs -U and mlabel "
			       "-n) and update its cmdline.txt and fstab to match, or detach one "
			       "of them.");
	}
}

static void boot_order(struct rule_ctx *ctx, const struct boot_facts *bf,
		       const struct boot_checks *c)
{
	struct diag_finding *f;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct boot_check_item *it = &c->item[i];

		/* an SSD (USB or NVMe) that looks bootable, but a medium that wins is tried
		 * first, or the order never reaches it */
		if (strcmp(it->id, "boot-order") || it->result == BOOT_PASS ||
		    !strstr(it->text, "BOOT_ORDER") || !looks_bootable(c, it->disk) ||
		    (strncmp(it->disk, "sd", 2) && strncmp(it->disk, "nvme", 4)) ||
		    !strcmp(it->disk, bf->root_disk))
			continue;
		f = rule_get(ctx, "boot-order", DIAG_INFO, it->disk, NULL);
		if (!f)
			return;
		finding_title(f, "%s looks bootable, but the boot order does not start it",
			      it->disk);
		finding_evidence_fact(f, "%s", it->text);
		finding_explain(f, "The bootloader tries the media in BOOT_ORDER from the right; "
				   "while an SD card that boots is inserted, it wins over the SSD.");
		finding_fix(f, "Put the SSD first (the first command shows the change, the second "
			       "hands it to rpi-eeprom-config), or remove the SD card.");
		if (str_starts(it->fix, "sbcdisk ") && strlen(it->fix) > 8 &&
		    !strcmp(it->fix + strlen(it->fix) - 8, " --apply")) {
			finding_fix_cmd(f, "%.*s", (int)(strlen(it->fix) - 8), it->fix);
			finding_fix_cmd(f, "%s", it->fix);
		}
	}
}

void rule_boot(struct rule_ctx *ctx)
{
	const struct diag_inventory *inv = ctx->inv;

	if (!inv || !inv->boot)
		return;
	boot_usb2(ctx, inv->boot);
	if (!inv->boot_checks)
		return;
	bootloader_old(ctx, inv->boot_checks);
	partuuid_duplicate(ctx, inv->boot_checks);
	boot_order(ctx, inv->boot, inv->boot_checks);
}
