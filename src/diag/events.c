/* events.c - recognise the storage events in one kernel message.
 * Dispatch is on the message's first word, so most lines cost one or two comparisons. */
#include <ctype.h>
#include <errno.h>

#include "diag/events.h"
#include "common/paths.h"
#include "common/util.h"

#define LIT(s) (s), (sizeof(s) - 1)

static const char *const ev_names[EV__COUNT] = {
	[EV_NONE] = "none",
#define X(kind, name, cat, flags) [EV_##kind] = name,
	DIAG_EVENTS(X)
#undef X
};

static const unsigned ev_flags[EV__COUNT] = {
#define X(kind, name, cat, flags) [EV_##kind] = flags,
	DIAG_EVENTS(X)
#undef X
};

const char *diag_event_name(enum diag_ev_kind kind)
{
	if ((unsigned)kind >= EV__COUNT || !ev_names[kind])
		return "?";
	return ev_names[kind];
}

unsigned diag_event_flags(enum diag_ev_kind kind)
{
	return (unsigned)kind < EV__COUNT ? ev_flags[kind] : 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* p starts with the literal: the position after it, else NULL. */
static const char *after(const char *p, const char *lit, size_t n)
{
	return strncmp(p, lit, n) ? NULL : p + n;
}

/* Copy the run of characters from set into dst (capped); returns the end of the run. */
static const char *take(const char *p, const char *set, char *dst, size_t cap)
{
	size_t n = 0;

	while (*p && strchr(set, *p)) {
		if (n + 1 < cap)
			dst[n++] = *p;
		p++;
	}
	if (cap)
		dst[n] = '\0';
	return p;
}

#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"
#define PORT_CHARS "0123456789-."
#define HCTL_CHARS "0123456789:"

void diag_disk_fold(char *name)
{
	size_t n = strlen(name);

	if (!strncmp(name, "mmcblk", 6) || !strncmp(name, "nvme", 4) ||
	    !strncmp(name, "loop", 4)) {
		/* mmcblk0p2, nvme0n1p2: the partition is "p<digits>" after a digit */
		char *p = strrchr(name, 'p');

		if (p && p > name + 4 && is_digit(p[-1]) && p[1] && strspn(p + 1, "0123456789") ==
		    strlen(p + 1))
			*p = '\0';
		return;
	}
	if (!strncmp(name, "sd", 2) || !strncmp(name, "hd", 2) || !strncmp(name, "vd", 2)) {
		while (n > 2 && is_digit(name[n - 1]))
			name[--n] = '\0';
	}
}

static void set_disk(struct diag_event *ev, const char *p)
{
	size_t n;

	take(p, NAME_CHARS, ev->disk, sizeof(ev->disk));
	n = strlen(ev->disk);
	while (n && (ev->disk[n - 1] == '.' || ev->disk[n - 1] == '-'))
		ev->disk[--n] = '\0'; /* "mmcblk0p2..." */
	diag_disk_fold(ev->disk);
}

#define DIGITS "0123456789"
#define HEXDIGITS "0123456789abcdefABCDEF"

/* The number at p made of characters of set, through the strict parsers (never atoi on log
 * text): 0, or -EINVAL when there is none or it is too long. */
static int num_token(const char *p, const char *set, int base, uint64_t *out)
{
	char tok[24];
	size_t n = strspn(p, set);

	if (!n || n >= sizeof(tok))
		return -EINVAL;
	memcpy(tok, p, n);
	tok[n] = '\0';
	return parse_u64_base(tok, base, out);
}

/* A USB id or quirk field: hex, at most max, else -EINVAL. */
static int hex_token(const char *p, uint64_t max, unsigned *out)
{
	uint64_t v;

	if (num_token(p, HEXDIGITS, 16, &v) || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* The first "error -N" / "err -N" / "status -N" number in s, 0 when none. */
static int find_errno(const char *s)
{
	const char *p = s;

	while ((p = strchr(p, '-'))) {
		if (is_digit(p[1]) && p > s && p[-1] == ' ') {
			uint64_t v;

			if (num_token(p + 1, DIGITS, 10, &v))
				return 0;
			return v > 0 && v < 4096 ? -(int)v : 0;
		}
		p++;
	}
	return 0;
}

static unsigned speed_from_words(const char *p)
{
	if (!strncmp(p, "low-speed", 9))
		return 1;
	if (!strncmp(p, "full-speed", 10))
		return 12;
	if (!strncmp(p, "high-speed", 10))
		return 480;
	if (!strncmp(p, "SuperSpeed Plus Gen 2x2", 23))
		return 20000;
	if (!strncmp(p, "SuperSpeed Plus", 15) || !strncmp(p, "SuperSpeed+", 11))
		return 10000; /* Gen 2x1 and Gen 1x2 */
	if (!strncmp(p, "SuperSpeed", 10))
		return 5000;
	return 0;
}

static double parse_gts(const char *p, int *width)
{
	const char *x = strstr(p, "PCIe x");
	char tok[16];
	size_t n = strspn(p, DIGITS ".");
	double v = 0;
	uint64_t w;

	*width = 0;
	if (x && (size_t)(x - p) < 16 && !num_token(x + 6, DIGITS, 10, &w) && w <= 32)
		*width = (int)w;
	if (!n || n >= sizeof(tok))
		return 0;
	memcpy(tok, p, n);
	tok[n] = '\0';
	if (parse_double(tok, &v))
		return 0;
	return v > 0 && v < 1000 ? v : 0;
}

/* "usb 2-1.4: <rest>" */
static bool parse_usb(const char *p, struct diag_event *ev)
{
	const char *r;

	if (!strncmp(p, "usb", 3) && is_digit(p[3])) {
		/* "usb usb5-port1: ..." is root hub 5's port 1: the device there is 5-1 */
		char bus[8], num[8];

		p = take(p + 3, "0123456789", bus, sizeof(bus));
		if (strncmp(p, "-port", 5))
			return false;
		p = take(p + 5, "0123456789", num, sizeof(num));
		if (!num[0] || str_fmt(ev->usb_port, sizeof(ev->usb_port), "%s-%s", bus, num))
			return false;
	} else {
		p = take(p, PORT_CHARS, ev->usb_port, sizeof(ev->usb_port));
	}
	if (!strncmp(p, "port", 4) && ev->usb_port[0]) {
		/* "usb 1-1-port2: ..." is hub 1-1's port 2: the device there is 1-1.2 */
		size_t n = strlen(ev->usb_port);
		char num[8];

		p = take(p + 4, "0123456789", num, sizeof(num));
		if (n < 3 || ev->usb_port[n - 1] != '-' || !num[0])
			return false;
		ev->usb_port[n - 1] = '\0';
		if (strchr(ev->usb_port, '-') && str_fmt(ev->usb_port + n - 1,
							 sizeof(ev->usb_port) - (n - 1), ".%s", num))
			return false;
		if (!strchr(ev->usb_port, '.'))
			return false;
	}
	if (*p != ':' || !ev->usb_port[0])
		return false;
	p++;
	while (*p == ' ')
		p++;
	if ((r = after(p, LIT("new ")))) {
		ev->speed_mbps = speed_from_words(r);
		if (!ev->speed_mbps || !strstr(r, "USB device"))
			return false;
		ev->kind = EV_USB_NEW;
	} else if ((r = after(p, LIT("New USB device found, idVendor=")))) {
		const char *q = strstr(r, "idProduct=");

		if (!q || hex_token(r, 0xffff, &ev->vid) || hex_token(q + 10, 0xffff, &ev->pid))
			return false;
		ev->has_id = true;
		ev->kind = EV_USB_ID;
	} else if ((r = after(p, LIT("Product: ")))) {
		ev->kind = EV_USB_PRODUCT;
		ev->arg = r;
	} else if (after(p, LIT("USB disconnect"))) {
		ev->kind = EV_USB_DISCONNECT;
	} else if ((r = after(p, LIT("reset ")))) {
		ev->speed_mbps = speed_from_words(r);
		if (!strstr(r, "USB device"))
			return false;
		ev->kind = EV_USB_RESET;
	} else if (strstr(p, "UAS is blacklisted") || strstr(p, "UAS is ignored")) {
		ev->kind = EV_UAS_IGNORED;
	} else if (after(p, LIT("cmd cmplt err")) || after(p, LIT("stat urb: status"))) {
		ev->kind = EV_UAS_CMD_ERR;
		ev->err = find_errno(p);
	} else if (strstr(p, "data cmplt err")) {
		ev->kind = EV_UAS_DATA_ERR;
		ev->err = find_errno(p);
	} else if (strstr(p, "device descriptor read") || strstr(p, "not accepting address") ||
		   strstr(p, "unable to enumerate") || strstr(p, "Cannot enable") ||
		   strstr(p, "can't set config") || strstr(p, "can't read configurations") ||
		   strstr(p, "not responding to setup address")) {
		ev->kind = EV_USB_ENUM_ERR;
		ev->err = find_errno(p);
	} else if (strstr(p, "Cannot set link state") || strstr(p, "cannot disable (err")) {
		/* hub.c: the hub port itself no longer obeys; the device there is lost */
		ev->kind = EV_USB_PORT_ERR;
		ev->err = find_errno(p);
	} else if (strstr(p, "over-current")) {
		ev->kind = EV_USB_OVERCURRENT;
	} else if (strstr(p, "device firmware changed")) {
		ev->kind = EV_USB_FW_CHANGED;
	} else if (strstr(p, "required by the UAS driver")) {
		ev->kind = EV_UAS_UNSUPPORTED;
	} else if (strstr(p, "not responding")) {
		ev->kind = EV_NOT_READY;
	} else {
		return false;
	}
	return true;
}

/* "usb-storage 2-1:1.0: ..." */
static bool parse_usb_storage(const char *p, struct diag_event *ev)
{
	const char *r;

	p = take(p, PORT_CHARS, ev->usb_port, sizeof(ev->usb_port));
	if (!ev->usb_port[0])
		return false;
	r = strstr(p, "Quirks match for vid ");
	if (r) {
		const char *q = strstr(r, " pid "), *f = q ? strchr(q + 5, ':') : NULL;
		uint64_t flags;

		if (!q || !f || hex_token(r + 21, 0xffff, &ev->vid) ||
		    hex_token(q + 5, 0xffff, &ev->pid))
			return false;
		while (*++f == ' ')
			;
		if (num_token(f, HEXDIGITS, 16, &flags))
			return false;
		ev->has_id = true;
		ev->flags = flags;
		ev->kind = EV_QUIRKS_MATCH;
		return true;
	}
	return false;
}

static bool parse_sd(const char *p, struct diag_event *ev);

/* "scsi host0: uas" / "scsi host0: usb-storage 2-1:1.0" / "scsi host0: uas_eh_..." */
static bool parse_scsi(const char *p, struct diag_event *ev)
{
	const char *r = after(p, LIT("host"));
	uint64_t h;

	if (!r) {
		/* older kernels name the disk "scsi 0:0:0:0: [sda] ..." as sd does; the
		 * rest ("scsi 0:0:0:0: Direct-Access ...") carries nothing we need */
		return parse_sd(p, ev) && (ev->kind != EV_SD_MAP || ev->disk[0]);
	}
	if (num_token(r, DIGITS, 10, &h) || r[strspn(r, DIGITS)] != ':' || h > 100000)
		return false;
	ev->scsi_host = (int)h;
	p = r + strspn(r, DIGITS) + 1;
	while (*p == ' ')
		p++;
	if (!strcmp(p, "uas")) {
		ev->kind = EV_SCSI_HOST_UAS;
	} else if ((r = after(p, LIT("usb-storage ")))) {
		take(r, PORT_CHARS, ev->usb_port, sizeof(ev->usb_port));
		ev->kind = EV_SCSI_HOST_BOT;
	} else if ((r = after(p, LIT("uas_eh_device_reset_handler ")))) {
		if (!strncmp(r, "start", 5))
			ev->kind = EV_UAS_RESET_START;
		else if (!strncmp(r, "success", 7))
			ev->kind = EV_UAS_RESET_OK;
		else {
			ev->kind = EV_UAS_RESET_FAIL;
			ev->err = find_errno(r);
		}
	} else {
		return false;
	}
	return true;
}

/* "sd 0:0:0:0: [sda] ..." */
static bool parse_sd(const char *p, struct diag_event *ev)
{
	char hctl[DIAG_NAME_MAX];
	const char *r;
	uint64_t h;

	p = take(p, HCTL_CHARS, hctl, sizeof(hctl));
	if (!hctl[0] || p[-1] != ':' || num_token(hctl, DIGITS, 10, &h) || h > 100000)
		return false;
	ev->scsi_host = (int)h;
	{
		/* the LUN: an enclosure with two disks shows 0:0:0:0 and 0:0:0:1 */
		const char *l = strrchr(hctl, ':');
		uint64_t lun;

		if (l && l[1] == '\0') {
			while (l > hctl && l[-1] != ':')
				l--;
			if (l > hctl && !num_token(l, DIGITS, 10, &lun) && lun < 1000)
				ev->scsi_lun = (int)lun;
		}
	}
	while (*p == ' ')
		p++;
	if (*p == '[') {
		set_disk(ev, p + 1);
		p = strchr(p, ']');
		if (!p)
			return false;
		p++;
		while (*p == ' ')
			p++;
	}
	ev->kind = EV_SD_MAP;
	ev->arg = p;
	if ((r = strstr(p, "uas_eh_abort_handler"))) {
		ev->kind = EV_UAS_ABORT;
		ev->is_write = strstr(r, "CMD OUT") != NULL;
	} else if (strstr(p, "data cmplt err")) {
		ev->kind = EV_UAS_DATA_ERR;
		ev->err = find_errno(p);
	} else if (strstr(p, "Read Capacity(")) {
		if (strstr(p, "failed"))
			ev->kind = EV_READ_CAP_FAIL;
	} else if (strstr(p, "Synchronize Cache(")) {
		if (strstr(p, "failed"))
			ev->kind = EV_SYNC_CACHE_FAIL;
	} else if (strstr(p, "Device offlined")) {
		ev->kind = EV_SCSI_OFFLINED;
	} else if (strstr(p, "Sense Key : Not Ready")) {
		ev->kind = EV_NOT_READY;
	} else if (strstr(p, "Sense Key : Medium Error") ||
		   strstr(p, "Sense Key : Hardware Error") ||
		   strstr(p, "rejecting I/O to offline device") ||
		   strstr(p, "Unhandled error code") || strstr(p, "Unhandled sense code")) {
		ev->kind = EV_IO_ERROR;
	} else if (strstr(p, "timing out command") || strstr(p, "not responding")) {
		ev->kind = EV_NOT_READY;
	}
	return true;
}

/* "I/O error, dev sdd, sector 661993472 op 0x1:(WRITE) ..." (prefix already removed) */
static bool parse_io_error(const char *p, struct diag_event *ev, enum diag_ev_kind kind)
{
	const char *d = strstr(p, "dev ");

	ev->kind = kind;
	if (d)
		set_disk(ev, d + 4);
	ev->is_write = strstr(p, "WRITE") != NULL;
	return true;
}

static bool parse_mmc(const char *name, const char *p, struct diag_event *ev)
{
	const char *r;

	if (!strncmp(name, "mmcblk", 6)) {
		str_copy(ev->disk, sizeof(ev->disk), name);
		diag_disk_fold(ev->disk);
		if (!strncmp(p, "mmc", 3) && strchr(p, ':')) {
			/* "mmcblk0: mmc0:59b4 00000 3.67 GiB" */
			take(p, "mmc0123456789", ev->ctrl, sizeof(ev->ctrl));
			ev->kind = EV_MMC_BLK;
			return true;
		}
	} else {
		str_copy(ev->ctrl, sizeof(ev->ctrl), name);
	}
	if (strstr(p, "running CQE recovery") ||
	    (after(p, LIT("cqhci: ")) &&
	     (strstr(p, "Failed to halt") || strstr(p, "spurious TCN") ||
	      strstr(p, "timeout for tag") || strstr(p, "failed to clear tasks") ||
	      strstr(p, "REGISTER DUMP")))) {
		/* core/core.c, host/cqhci-core.c: the command queue stalled and was recovered */
		ev->kind = EV_MMC_CQE_RECOVERY;
	} else if (strstr(p, "whilst initialising") || strstr(p, "problem reading SD Status") ||
	    strstr(p, "invalid bus width") || strstr(p, "error -110 whilst") ||
	    strstr(p, "couldn't read switch") || strstr(p, "problem reading switch")) {
		ev->kind = EV_MMC_INIT_ERR;
		ev->err = find_errno(p);
	} else if (strcasestr(p, "timeout waiting for hardware interrupt") ||
		   strcasestr(p, "timeout waiting for hardware cmd interrupt") ||
		   strstr(p, "Data Timeout error") ||
		   strstr(p, "final write to SD card still running")) {
		ev->kind = EV_MMC_TIMEOUT;
		ev->err = -ETIMEDOUT;
	} else if ((after(p, LIT("Reset 0x")) && strstr(p, "never completed")) ||
		   strstr(p, "REGISTER DUMP")) {
		ev->kind = EV_MMC_HOST_ERR;
	} else if (strstr(p, "CRC error") || strstr(p, "end bit error")) {
		/* sdhci-tegra: "Data CRC error", "Data end bit error", "CMD CRC or end bit" */
		ev->kind = EV_MMC_ERR;
		ev->err = -EILSEQ;
	} else if ((r = after(p, LIT("new "))) && strstr(r, " card at address")) {
		ev->kind = EV_MMC_CARD_NEW;
		ev->arg = r;
	} else if (after(p, LIT("card ")) && strstr(p, " removed")) {
		ev->kind = EV_MMC_REMOVED;
	} else if (strstr(p, "r/w command failed") || strstr(p, "tried to reset card")) {
		/* core/block.c: the card refused the command; the host reset it */
		ev->kind = EV_MMC_ERR;
		ev->err = find_errno(p);
	} else if (strstr(p, "card never left busy") || strstr(p, "command never completed") ||
		   strstr(p, "Card stuck") || strstr(p, "never released inhibit") ||
		   strstr(p, "recovery failed") ||
		   ((r = strstr(p, "error -")) && is_digit(r[7]))) {
		ev->kind = EV_MMC_ERR;
		ev->err = find_errno(p);
	} else {
		return false;
	}
	return true;
}

/* The controller name before ": " into ev->ctrl; returns the message after it. */
static const char *take_ctrl(const char *p, struct diag_event *ev)
{
	size_t n;

	p = take(p, NAME_CHARS ":", ev->ctrl, sizeof(ev->ctrl));
	n = strlen(ev->ctrl);
	if (n && ev->ctrl[n - 1] == ':')
		ev->ctrl[n - 1] = '\0';
	while (*p == ' ')
		p++;
	return p;
}

/* What a PCI function or port says about its link and its errors. */
static bool pci_event(const char *p, struct diag_event *ev)
{
	const char *r;

	if (strstr(p, "AER:") || strstr(p, "PCIe Bus Error")) {
		if (!strstr(p, "error received") && !strstr(p, "PCIe Bus Error") &&
		    !strstr(p, "can't recover"))
			return false; /* "AER: enabled with IRQ 50" */
		ev->kind = EV_PCIE_AER;
		ev->aer_fatal = strstr(p, "Uncorrected") || strstr(p, "Non-Fatal") ? 1 : 0;
		if (strstr(p, "severity=Fatal") || strstr(p, "(Fatal)"))
			ev->aer_fatal = 2;
		return true;
	}
	if ((r = strstr(p, "available PCIe bandwidth, limited by "))) {
		ev->kind = EV_PCIE_BW_LIMITED;
		ev->gts = parse_gts(r + 37, &ev->width);
		r = strstr(r, "capable of ");
		if (r && (r = strstr(r, " with ")))
			ev->cap_gts = parse_gts(r + 6, &ev->cap_width);
		return true;
	}
	if (strstr(p, "can't change power state from D3")) {
		/* pci/pci.c: the function did not answer when woken: gone from the bus */
		ev->kind = EV_PCI_POWER_FAIL;
		return true;
	}
	if ((r = after(p, LIT("link up, ")))) {
		ev->kind = EV_PCIE_LINK_UP;
		ev->gts = parse_gts(r, &ev->width);
		return true;
	}
	if (after(p, LIT("link down"))) {
		ev->kind = EV_PCIE_LINK_DOWN;
		return true;
	}
	return false;
}

/* A PCIe host controller's driver by its name: brcm-pcie, mtk-pcie-gen3, pcie-starfive,
 * rockchip-dw-pcie, rk-pcie, tegra194-pcie, dw-pcie, imx6q-pcie. */
static bool pcie_driver(const char *name, size_t n)
{
	char drv[DIAG_NAME_MAX];

	if (n >= sizeof(drv))
		return false;
	memcpy(drv, name, n);
	drv[n] = '\0';
	return strstr(drv, "pcie") && strcmp(drv, "pcieport");
}

/* "fe150000.pcie: ...": a PCIe controller's device, whatever driver speaks for it */
static bool pcie_device(const char *p)
{
	size_t n = strcspn(p, ": ");

	return n > 5 && n < DIAG_NAME_MAX && p[n] == ':' && !memcmp(p + n - 5, ".pcie", 5);
}

/* What a PCIe host controller says about itself: its link trained or never did, or the
 * driver gave up before it (no PCI domain, no clocks, no PHY). */
static bool parse_pcie_host(const char *p, struct diag_event *ev)
{
	const char *r;

	p = take_ctrl(p, ev);
	if (!ev->ctrl[0])
		return false;
	if (strcasestr(p, "link down") || strstr(p, "link never came up") ||
	    strstr(p, "PCIe Link Fail") || strstr(p, "PCIe link training gen1 timeout")) {
		/* pcie-brcmstb.c, pcie-mediatek-gen3.c, pcie-designware.c, pcie-rockchip-host.c */
		ev->kind = EV_PCIE_LINK_DOWN;
		return true;
	}
	if ((r = strcasestr(p, "link up"))) {
		/* vendor drivers: "PCIe Link up, LTSSM is 0x130011" */
		ev->kind = EV_PCIE_LINK_UP;
		ev->gts = parse_gts(r + 9, &ev->width);
		return true;
	}
	if (strstr(p, "failed to get valid pcie domain") ||
	    (strcasestr(p, "failed to get") &&
	     (strcasestr(p, "clock") || strcasestr(p, "phy") || strcasestr(p, "reset"))) ||
	    strstr(p, "Failed to initialize host") || strstr(p, "deferred probe pending")) {
		ev->kind = EV_PCIE_HOST_FAIL;
		ev->err = find_errno(p);
		return true;
	}
	return false;
}

/* "pcieport 0000:00:00.0: AER: ..." / "pci 0000:01:00.0: ... limited by ..." */
static bool parse_pci(const char *p, struct diag_event *ev)
{
	return pci_event(take_ctrl(p, ev), ev);
}

/* "nvme nvme0: ..." or "nvme 0000:01:00.0: ..." */
static bool parse_nvme(const char *p, struct diag_event *ev)
{
	const char *r;

	p = take_ctrl(p, ev);
	if (strstr(p, "timeout, ") && strstr(p, "QID")) {
		ev->kind = EV_NVME_TIMEOUT;
	} else if (after(p, LIT("Abort status"))) {
		ev->kind = EV_NVME_ABORT;
	} else if (strstr(p, "controller is down") || strstr(p, "after reset failure") ||
		   strstr(p, "Removing after")) {
		ev->kind = strstr(p, "probe failure") ? EV_NVME_REMOVED : EV_NVME_DOWN;
		ev->err = find_errno(p);
	} else if (strstr(p, "Device not ready; aborting reset")) {
		ev->kind = EV_NVME_DOWN; /* it ran, failed, and did not come back */
	} else if (strstr(p, "Device not ready")) {
		ev->kind = EV_NVME_NOT_READY;
	} else if (strstr(p, "faulty power saving mode")) {
		ev->kind = EV_NVME_PS_HINT;
	} else if (strstr(p, "failed to set APST feature")) {
		ev->kind = EV_NVME_APST_FAIL;
		ev->err = find_errno(p);
	} else if ((r = after(p, LIT("pci function ")))) {
		ev->kind = EV_NVME_PCI;
		ev->arg = r;
	} else {
		return pci_event(p, ev);
	}
	return true;
}

/* What a USB host controller says, whoever its driver (xhci_hcd, xhci-hcd.1.auto, xhci-mtk,
 * tegra-xusb, tegra-xhci, dwc3, ehci-platform, ohci-platform ...): keyed on the message. */
static const struct {
	const char *text;
	enum diag_ev_kind kind;
} host_msgs[] = {
	{ "Set TR Deq Ptr", EV_XHCI_TRDEQ },
	{ "not responding to stop endpoint", EV_XHCI_STOP_EP },
	{ "assume dead", EV_XHCI_DEAD },
	{ "Assuming host is dying", EV_XHCI_DEAD },
	{ "HC died", EV_XHCI_DEAD },
	{ "Host System Error", EV_XHCI_DEAD },
	{ "Host controller not halted", EV_XHCI_DEAD },
	{ "Transfer event for disabled endpoint", EV_XHCI_EP_DISABLED },
	{ "Transfer event for unknown stream ring", EV_XHCI_EP_DISABLED },
	{ "Can't disable streams", EV_XHCI_STREAMS },
	{ "Transfer event TRB DMA ptr not part of current TD", EV_XHCI_EVENT_NOT_IN_TD },
	{ "startup error -", EV_HOST_INIT_FAIL },
	{ "can't setup: -", EV_HOST_INIT_FAIL },
	{ "failed to initialize core", EV_HOST_INIT_FAIL }, /* dwc3/core.c */
	{ "Cannot set link state", EV_USB_PORT_ERR }, /* xhci-hub.c */
};

/* A USB host controller's driver by its name: xhci-hcd, ehci-platform, dwc3, tegra-xusb. */
static bool host_driver(const char *name)
{
	char drv[DIAG_NAME_MAX];

	take(name, NAME_CHARS, drv, sizeof(drv));
	return strstr(drv, "hci") || strstr(drv, "hcd") || strstr(drv, "dwc") ||
	       strstr(drv, "xusb") || strstr(drv, "musb");
}

/* "<driver> <device>: <message>" of a host controller. */
static bool parse_host(const char *p, struct diag_event *ev)
{
	const char *r;
	size_t i;

	p = take_ctrl(p, ev);
	if (!ev->ctrl[0])
		return false;
	for (i = 0; i < ARRAY_SIZE(host_msgs); i++) {
		if (strstr(p, host_msgs[i].text)) {
			ev->kind = host_msgs[i].kind;
			ev->err = find_errno(p);
			return true;
		}
	}
	/* 6.x's driver core: "probe with driver xhci-hcd failed with error -110" */
	if ((r = strstr(p, "probe with driver ")) && strstr(r, " failed with error -") &&
	    host_driver(r + 18)) {
		ev->kind = EV_HOST_INIT_FAIL;
		ev->err = find_errno(r);
		return true;
	}
		/* "init 0000:01:00.0 fail, -14" (hcd-pci.c and the ehci/ohci platform drivers) */
	if (after(p, LIT("init ")) && strstr(p, " fail, -")) {
		ev->kind = EV_HOST_INIT_FAIL;
		ev->err = find_errno(p);
		return true;
	}
	return false;
}

/* "xhci-hcd: probe of xhci-hcd.0.auto failed with error -110" (drivers/base/dd.c) from a
 * USB host controller's driver: it never started. */
static bool parse_probe_failed(const char *p, struct diag_event *ev)
{
	const char *r = strstr(p, ": probe of ");
	char drv[DIAG_NAME_MAX];

	if (!r || r - p >= (ptrdiff_t)sizeof(drv) || !strstr(r, " failed with error -"))
		return false;
	memcpy(drv, p, (size_t)(r - p));
	drv[r - p] = '\0';
	if (!host_driver(drv) && !pcie_driver(drv, strlen(drv)))
		return false;
	take(r + 11, NAME_CHARS ":", ev->ctrl, sizeof(ev->ctrl));
	ev->kind = host_driver(drv) ? EV_HOST_INIT_FAIL : EV_PCIE_HOST_FAIL;
	ev->err = find_errno(r);
	return ev->ctrl[0] != '\0';
}

/* The file system's own structures found damaged (at mount, mostly): fs/ext4/super.c,
 * fs/f2fs/super.c, fs/btrfs/disk-io.c. A damaged tree found while running stays an fs-error. */
static bool fs_corrupt_msg(const char *p)
{
	static const char *const msgs[] = {
		"group descriptors corrupted", "ext4_check_descriptors", "error loading journal",
		"Can't find valid F2FS filesystem", "Failed to get valid F2FS checkpoint",
		"Magic Mismatch", "open_ctree failed",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgs); i++)
		if (strstr(p, msgs[i]))
			return true;
	return false;
}

/* "EXT4-fs error (device sda1): ...", "EXT4-fs (sda1): I/O error ...", "XFS (sda1): ..." */
static bool parse_fs(const char *p, struct diag_event *ev)
{
	const char *d = strchr(p, '(');

	if (!d || d - p > 40)
		return false;
	d++;
	if (!strncmp(d, "device ", 7))
		d += 7;
	if (fs_corrupt_msg(p)) {
		set_disk(ev, d);
		ev->kind = EV_FS_CORRUPT;
		return true;
	}
	if (!(strstr(p, "error") || strstr(p, "critical") || strstr(p, "read-only") ||
	      strstr(p, "Journal has aborted") || strstr(p, "aborted journal")))
		return false;
	set_disk(ev, d);
	ev->kind = EV_FS_ERROR;
	ev->is_write = strstr(p, "writ") != NULL;
	return true;
}

static bool parse_other(const char *p, struct diag_event *ev)
{
	const char *r;

	if (!*p)
		return false;
	if (after(p, LIT("Booting Linux on physical CPU")) || after(p, LIT("Linux version ")) ||
	    after(p, LIT("-- Boot "))) {
		ev->kind = EV_BOOT;
		return true;
	}
	if ((r = after(p, LIT("I/O error, dev "))))
		return parse_io_error(p, ev, EV_IO_ERROR);
	if ((r = after(p, LIT("blk_update_request: "))) || (r = after(p, LIT("end_request: "))) ||
	    (r = after(p, LIT("print_req_error: ")))) {
		if (strstr(r, "critical target error") || strstr(r, "critical medium error"))
			return parse_io_error(r, ev, EV_CRIT_TARGET);
		if (strstr(r, "I/O error"))
			return parse_io_error(r, ev, EV_IO_ERROR);
		return false;
	}
	if (after(p, LIT("critical target error")) || after(p, LIT("critical medium error")))
		return parse_io_error(p, ev, EV_CRIT_TARGET);
	if ((r = after(p, LIT("lost page write due to I/O error on ")))) {
		set_disk(ev, r); /* fs/buffer.c before 4.13 */
		ev->kind = EV_BUF_IO_ERROR;
		ev->is_write = true;
		return true;
	}
	if ((r = after(p, LIT("Buffer I/O error on dev")))) {
		r = strchr(r, ' ');
		if (r)
			set_disk(ev, r + 1);
		ev->kind = EV_BUF_IO_ERROR;
		ev->is_write = strstr(p, "write") != NULL;
		return true;
	}
	if (after(p, LIT("EXT4-fs")) || after(p, LIT("EXT3-fs")) || after(p, LIT("XFS (")) ||
	    after(p, LIT("BTRFS")) || after(p, LIT("F2FS-fs")))
		return parse_fs(p, ev);
	if ((r = after(p, LIT("JBD2: "))) || (r = after(p, LIT("Aborting journal on device ")))) {
		const char *d = strstr(p, " on ");

		if (!strstr(p, "error") && !strstr(p, "Aborting"))
			return false;
		if (strstr(p, "device "))
			d = strstr(p, "device ") + 3;
		if (d)
			set_disk(ev, d + 4);
		/* "sda1-8" carries the journal's inode after a dash */
		{
			char *dash = strchr(ev->disk, '-');

			if (dash)
				*dash = '\0';
			diag_disk_fold(ev->disk);
		}
		ev->kind = EV_FS_ERROR;
		return true;
	}
	if (strstr(p, "Under-voltage detected") || strstr(p, "Undervoltage detected")) {
		ev->kind = EV_UNDERVOLT;
		return true;
	}
	if (strstr(p, "Voltage normalised") || strstr(p, "Voltage normalized")) {
		ev->kind = EV_VOLT_OK;
		return true;
	}
	if ((r = strstr(p, "quirks: string doesn't fit")) ||
	    (strstr(p, "too large for parameter") && strstr(p, "quirks"))) {
		if (!strstr(p, "usb") && !strstr(p, "storage"))
			return false;
		ev->kind = EV_QUIRKS_PARAM_BAD;
		ev->arg = p;
		return true;
	}
	if ((r = after(p, LIT("Kernel command line: ")))) {
		ev->kind = EV_CMDLINE;
		ev->arg = r;
		return true;
	}
	if ((r = after(p, LIT("Machine model: "))) || (r = after(p, LIT("OF: fdt: Machine model: "))) ||
	    (r = after(p, LIT("Hardware name: ")))) {
		/* the last: a warning's stack dump names the board too */
		ev->kind = EV_MODEL;
		ev->arg = r;
		return true;
	}
	if ((r = after(p, LIT("Waiting for root device ")))) {
		if (str_starts(r, PATH_DEV_PREFIX))
			r += strlen(PATH_DEV_PREFIX);
		set_disk(ev, r);
		ev->kind = EV_ROOT_WAIT;
		return true;
	}
	if (strstr(p, "which are required by the UAS driver") ||
	    strstr(p, "is required by the UAS driver")) {
		ev->kind = EV_UAS_UNSUPPORTED;
		return true;
	}
	return false;
}

/* "0000:01:00.0" */
static bool is_pci_address(const char *p)
{
	return isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]) &&
	       isxdigit((unsigned char)p[2]) && isxdigit((unsigned char)p[3]) && p[4] == ':';
}

bool diag_event_parse(const char *msg, size_t len, struct diag_event *ev)
{
	const char *p = msg, *r;
	char name[DIAG_NAME_MAX];

	(void)len;
	memset(ev, 0, sizeof(*ev));
	ev->scsi_host = -1;
	ev->scsi_lun = -1;
	while (*p == ' ')
		p++;
	switch (*p) {
	case 'u':
		if ((r = after(p, LIT("usb "))))
			return parse_usb(r, ev);
		if ((r = after(p, LIT("usb-storage "))))
			return parse_usb_storage(r, ev);
		if ((r = after(p, LIT("uas "))))
			return parse_usb(r, ev);
		break;
	case 's':
		if ((r = after(p, LIT("sd "))))
			return parse_sd(r, ev);
		/* NVIDIA's sdhci: "sdhci: =========== REGISTER DUMP (mmc1)===========" */
		if ((r = after(p, LIT("sdhci: "))) && strstr(r, "REGISTER DUMP (mmc")) {
			take(strstr(r, "(mmc") + 1, "mmc0123456789", ev->ctrl, sizeof(ev->ctrl));
			ev->kind = EV_MMC_HOST_ERR;
			return ev->ctrl[3] != '\0';
		}
		if ((r = after(p, LIT("scsi "))))
			return parse_scsi(r, ev);
		break;
	case 'h':
		if ((r = after(p, LIT("hub "))) && strstr(r, "USB hub found")) {
			take(r, PORT_CHARS, ev->usb_port, sizeof(ev->usb_port));
			ev->kind = EV_USB_HUB;
			return ev->usb_port[0] != '\0';
		}
		if ((r = after(p, LIT("hub "))) && strstr(r, "over-current")) {
			ev->kind = EV_USB_OVERCURRENT; /* hub.c before 3.x: "on port 1" */
			return true;
		}
		if ((r = after(p, LIT("hwmon "))))
			return parse_other(strchr(r, ' ') ? strchr(r, ' ') + 1 : r, ev);
		break;
	case 'm':
		if (!strncmp(p, "mmc", 3)) {
			r = take(p, "mmcblkp0123456789", name, sizeof(name));
			if (*r == ':' && (is_digit(name[strlen(name) - 1]))) {
				r++;
				while (*r == ' ')
					r++;
				return parse_mmc(name, r, ev);
			}
		}
		break;
	case 'n':
		if ((r = after(p, LIT("nvme "))))
			return parse_nvme(r, ev);
		if (!strncmp(p, "nvme", 4) && (r = strstr(p, ": ")) && r - p < 16 &&
		    strstr(r, "I/O Error")) {
			set_disk(ev, p);
			ev->kind = EV_NVME_IO_ERR;
			ev->is_write = !strncmp(r + 2, "I/O Cmd(0x1)", 12);
			return true;
		}
		break;
	case 'p':
		if ((r = after(p, LIT("pcieport "))) || (r = after(p, LIT("pci "))))
			return parse_pci(r, ev);
		break;
	case 'b':
		if ((r = after(p, LIT("brcm-pcie "))))
			return parse_pci(r, ev) || parse_pcie_host(r, ev);
		break;
	default:
		break;
	}
	r = strchr(p, ' ');
	if (r && r - p < 32 && (pcie_driver(p, (size_t)(r - p)) || pcie_device(r + 1)) &&
	    parse_pcie_host(r + 1, ev))
		return true;
	if (r && r - p < 32) {
		memset(ev, 0, sizeof(*ev));
		ev->scsi_host = -1;
		ev->scsi_lun = -1;
		/* any driver's device: "<driver> <device>: ..." */
		if (parse_host(r + 1, ev))
			return true;
		memset(ev, 0, sizeof(*ev));
		ev->scsi_host = -1;
		ev->scsi_lun = -1;
		if (is_pci_address(r + 1)) {
			/* other drivers' PCI functions: "<driver> 0000:01:00.0: ..." */
			if (strstr(r, "PCIe Bus Error") || strstr(r, "available PCIe bandwidth"))
				return parse_pci(r + 1, ev);
			return false;
		}
	}
	if (parse_probe_failed(p, ev))
		return true;
	return parse_other(p, ev);
}
