/* path.c - what a storage path can carry: the board's host, the link, the protocol, the bridge
 * and the kind of drive, each a range from published measurements (docs/paths.md). */
#include <math.h>
#include <strings.h>

#include "common/path.h"
#include "common/util.h"

#define MB 1e6

/* USB links: the practical ceiling, and what large transfers reach with uas and with
 * usb-storage's Bulk-Only Transport on a host that is not the limit (docs/paths.md, USB). */
static const struct usb_link {
	double mbps;
	double ceiling;
	double uas_lo, uas_hi, bot_lo, bot_hi;
	const char *name, *brief;
} usb_links[] = {
	{ 1.5, 0.15, 0.1, 0.15, 0.1, 0.15, "USB 1.0 low speed, 1.5M", "USB 1.0" },
	{ 12, 1.0, 0.8, 1.0, 0.8, 1.0, "USB 1.1, 12M", "USB 1.1" },
	{ 480, 40, 30, 40, 30, 40, "USB 2.0, 480M", "USB 2.0" },
	{ 5000, 450, 380, 440, 180, 300, "USB 3 Gen 1, 5000M", "USB 3 Gen 1" },
	{ 10000, 1000, 800, 1000, 300, 450, "USB 3 Gen 2, 10000M", "USB 3 Gen 2" },
	{ 20000, 2000, 1500, 2000, 300, 450, "USB 3 Gen 2x2, 20000M", "USB 3 Gen 2x2" },
};

/* PCIe: raw rate per lane after line encoding (8b/10b to Gen 2, 128b/130b from Gen 3). */
static const struct {
	double gts;
	int gen;
	double lane_bytes_per_s;
} pcie_lanes[] = {
	{ 2.5, 1, 250e6 },
	{ 5.0, 2, 500e6 },
	{ 8.0, 3, 984.6e6 },
	{ 16.0, 4, 1969.2e6 },
	{ 32.0, 5, 3938.5e6 },
};
/* Transaction-layer overhead (TLP headers, DLLPs, flow control) at 128-256 B payloads: the
 * ceiling; NVMe drives on Pi-class hosts measure 80-90 % of the raw rate. */
#define PCIE_EFFICIENCY 0.85
#define PCIE_LO 0.80
#define PCIE_HI 0.90

/* SD and eMMC bus modes, matched in this order against the debugfs timing text. */
static const struct {
	const char *match;
	double ceiling, lo, hi;
	const char *name;
} mmc_modes[] = {
	{ "HS400", 400, 250, 330, "eMMC HS400" },
	{ "HS200", 200, 150, 190, "eMMC HS200" },
	{ "DDR52", 90, 70, 90, "eMMC DDR52" },
	{ "mmc high-speed", 45, 38, 45, "eMMC high speed" },
	{ "SDR104", 90, 80, 90, "SD SDR104" },
	{ "DDR50", 45, 40, 45, "SD DDR50" },
	{ "SDR50", 45, 40, 45, "SD SDR50" },
	{ "SDR25", 23, 19, 23, "SD SDR25" },
	{ "sd high-speed", 23, 19, 23, "SD high speed" },
	{ "SDR12", 11, 9, 11, "SD SDR12" },
	{ "legacy", 11, 9, 11, "SD default speed" },
};

/* Boards whose host sets a range of its own, matched on the device-tree model in this order.
 * 0 is "as any host" (the usb_links table); a default link is used when sysfs did not say. */
static const struct host {
	const char *match[3];
	const char *name, *usb_ctl;
	double gen1_uas_lo, gen1_uas_hi, gen1_bot_lo, gen1_bot_hi;
	double nvme_gts, nvme_width; /* the M.2/PCIe slot's link when not recorded */
	double nvme_lo, nvme_hi;     /* the host's own limit on NVMe, 0 none */
	const char *sd_timing;       /* the SD slot's bus mode when not recorded */
} hosts[] = {
	{ { "Raspberry Pi 5", "Compute Module 5", "Raspberry Pi 500" }, "Pi 5", "RP1",
	  380, 440, 180, 300, 5.0, 1, 0, 0, "SDR104" },
	{ { "Raspberry Pi 4", "Raspberry Pi 400" }, "Pi 4", "VL805", 330, 400, 180, 290, 0, 0, 0, 0,
	  "DDR50" },
	{ { "Compute Module 4" }, "CM4", NULL, 0, 0, 0, 0, 5.0, 1, 0, 0, NULL },
	{ { "Jetson AGX Orin" }, "Jetson AGX Orin", "Tegra xHCI", 0, 0, 0, 0, 16.0, 4, 0, 0, NULL },
	{ { "Orin Nano", "Orin NX" }, "Jetson Orin", "Tegra xHCI", 0, 0, 0, 0, 8.0, 4, 0, 0, NULL },
	{ { "Jetson", "NVIDIA" }, "Jetson", "Tegra xHCI", 0, 0, 0, 0, 0, 0, 0, 0, NULL },
	{ { "ROCK 5B", "Rock 5B" }, "Rock 5B", "RK3588", 0, 0, 0, 0, 8.0, 4, 0, 0, NULL },
	{ { "RK3588" }, "RK3588", "RK3588", 0, 0, 0, 0, 0, 0, 0, 0, NULL },
	{ { "VisionFive 2", "JH7110" }, "VisionFive 2", "VL805", 330, 400, 180, 290, 5.0, 1, 150, 300,
	  NULL },
};

/* The fastest link a USB bridge chip speaks (usb.ids and the makers' pages). */
static const struct {
	const char *id;
	double mbps;
} bridge_links[] = {
	{ "152d:0576", 5000 }, { "152d:0578", 5000 }, { "152d:0567", 5000 },
	{ "152d:0561", 5000 }, { "152d:1561", 5000 }, { "152d:0583", 10000 },
	{ "174c:55aa", 5000 }, { "174c:1156", 5000 }, { "174c:2362", 10000 },
	{ "0bda:9210", 10000 }, { "2109:0715", 5000 }, { "2109:0711", 5000 },
	{ "05e3:0749", 5000 },
};

/* The kinds of drive: what their own large sequential transfers reach (docs/paths.md). */
static const struct {
	double lo, hi;
	const char *name;
} media[] = {
	[PATH_MEDIUM_UNKNOWN] = { 0, 0, NULL },
	[PATH_MEDIUM_HDD] = { 80, 250, "a spinning disk" },
	[PATH_MEDIUM_SATA_SSD] = { 450, 560, "a SATA SSD" },
	[PATH_MEDIUM_NVME] = { 1500, 7000, "an NVMe drive" },
	[PATH_MEDIUM_SD] = { 40, 95, "an SD card" },
	[PATH_MEDIUM_EMMC] = { 0, 0, "an eMMC" },
	/* sticks range from 10 to 400 MB/s: too wide to set a path's range */
	[PATH_MEDIUM_STICK] = { 0, 0, "a USB stick" },
};

const char *path_medium_name(enum path_medium m)
{
	return (size_t)m < ARRAY_SIZE(media) ? media[m].name : NULL;
}

static bool has(const char *s, const char *word)
{
	return s && strcasestr(s, word);
}

static enum path_medium medium_of(const struct path_in *in)
{
	if (in->rotational == 1)
		return PATH_MEDIUM_HDD;
	if (in->nvme || has(in->model, "NVMe"))
		return PATH_MEDIUM_NVME;
	if (in->mmc_type)
		return !strcasecmp(in->mmc_type, "MMC") ? PATH_MEDIUM_EMMC : PATH_MEDIUM_SD;
	if (has(in->model, "eMMC"))
		return PATH_MEDIUM_EMMC;
	if (has(in->model, "SSD"))
		return PATH_MEDIUM_SATA_SSD;
	if (has(in->model, "microSD") || has(in->model, "SD card") || has(in->bridge, "card reader"))
		return PATH_MEDIUM_SD;
	if (has(in->model, "Flash") || has(in->model, "stick") || has(in->model, "USB memory") ||
	    has(in->model, "Cruzer") || has(in->model, "DataTraveler"))
		return PATH_MEDIUM_STICK;
	return PATH_MEDIUM_UNKNOWN;
}

static const struct host *host_of(const char *board)
{
	size_t i, k;

	for (i = 0; board && i < ARRAY_SIZE(hosts); i++)
		for (k = 0; k < ARRAY_SIZE(hosts[i].match) && hosts[i].match[k]; k++)
			if (strcasestr(board, hosts[i].match[k]))
				return &hosts[i];
	return NULL;
}

static const struct usb_link *usb_link_of(double mbps)
{
	size_t i;

	for (i = 0; isfinite(mbps) && i < ARRAY_SIZE(usb_links); i++)
		if (fabs(mbps - usb_links[i].mbps) < 0.01)
			return &usb_links[i];
	return NULL;
}

int path_usb_ceiling(double speed_mbps, double *bytes_per_s, char *name, size_t cap)
{
	const struct usb_link *l = usb_link_of(speed_mbps);

	if (!l)
		return -ENODATA;
	*bytes_per_s = l->ceiling * MB;
	str_copy(name, cap, l->name);
	return 0;
}

static int pcie_lane(double gts, double width)
{
	size_t i;

	if (!isfinite(width) || width < 1 || width > 32 || width != floor(width))
		return -1;
	for (i = 0; i < ARRAY_SIZE(pcie_lanes); i++)
		if (fabs(gts - pcie_lanes[i].gts) < 0.01)
			return (int)i;
	return -1;
}

int path_pcie_ceiling(double gts, double width, double *bytes_per_s, char *name, size_t cap)
{
	int i = pcie_lane(gts, width);

	if (i < 0)
		return -ENODATA;
	*bytes_per_s = pcie_lanes[i].lane_bytes_per_s * width * PCIE_EFFICIENCY;
	str_fmt(name, cap, "PCIe Gen %d x%d", pcie_lanes[i].gen, (int)width);
	return 0;
}

static int mmc_mode(const char *timing)
{
	size_t i;

	for (i = 0; timing && i < ARRAY_SIZE(mmc_modes); i++)
		if (strcasestr(timing, mmc_modes[i].match))
			return (int)i;
	return -1;
}

int path_mmc_ceiling(const char *timing, double *bytes_per_s, char *name, size_t cap)
{
	int i = mmc_mode(timing);

	if (i < 0)
		return -ENODATA;
	*bytes_per_s = mmc_modes[i].ceiling * MB;
	str_copy(name, cap, mmc_modes[i].name);
	return 0;
}

/* A USB link not recorded: at least the slowest link that carries the best figure, at most
 * what the bridge speaks. NULL when the figure proves nothing and the bridge is unknown. */
static const struct usb_link *usb_link_inferred(const struct path_in *in, const char *usb_id)
{
	const struct usb_link *floor_link = NULL;
	double bridge = NAN;
	size_t i;

	for (i = 0; usb_id[0] && i < ARRAY_SIZE(bridge_links); i++)
		if (!strcasecmp(usb_id, bridge_links[i].id))
			bridge = bridge_links[i].mbps;
	for (i = 2; isfinite(in->best_bw) && i < ARRAY_SIZE(usb_links); i++) {
		if (in->best_bw <= usb_links[i].ceiling * MB * 1.05) {
			floor_link = &usb_links[i];
			break;
		}
	}
	if (isfinite(bridge) && (!floor_link || floor_link->mbps <= bridge))
		return usb_link_of(bridge);
	if (floor_link && floor_link->mbps > 480)
		return floor_link;
	return NULL;
}

/* "JMicron JMS567/JMS578" -> "JMS567/JMS578": the chip, not its maker. */
static const char *bridge_short(const char *b)
{
	static const char *const makers[] = { "JMicron ", "ASMedia ", "Realtek ", "VIA Labs ",
					      "Genesys Logic " };
	size_t i;

	for (i = 0; b && i < ARRAY_SIZE(makers); i++)
		if (str_starts(b, makers[i]))
			return b + strlen(makers[i]);
	return b;
}

struct part {
	double lo, hi;
	enum path_part what;
};

static void part_take(struct path_expect *out, const struct part *p)
{
	if (p->hi <= 0)
		return;
	if (out->binding == PATH_PART_NONE || p->hi * MB < out->hi) {
		out->lo = p->lo * MB;
		out->hi = p->hi * MB;
		out->binding = p->what;
	}
}

static int expect_usb(const struct path_in *in, const struct host *h, const char *usb_id,
		      struct path_expect *out, char *link_brief, size_t cap)
{
	const struct usb_link *l = usb_link_of(in->usb_speed_mbps);
	bool bot = in->usb_driver && !strcmp(in->usb_driver, "usb-storage");
	struct part link, proto = { 0, 0, PATH_PART_PROTOCOL };

	if (!l && !isfinite(in->usb_speed_mbps)) {
		l = usb_link_inferred(in, usb_id);
		out->link_inferred = l != NULL;
	}
	if (!l)
		return -ENODATA;
	out->link_ceiling = l->ceiling * MB;
	str_fmt(out->link, sizeof(out->link), "%s%s", l->name,
		out->link_inferred ? ", not recorded" : "");
	str_copy(link_brief, cap, l->brief);
	link = (struct part){ l->uas_lo, l->uas_hi, PATH_PART_LINK };
	if (l->mbps == 5000 && h && h->gen1_uas_hi > 0)
		link = (struct part){ h->gen1_uas_lo, h->gen1_uas_hi, PATH_PART_LINK };
	if (bot && l->mbps >= 5000) {
		proto.lo = l->bot_lo;
		proto.hi = l->bot_hi;
		if (l->mbps == 5000 && h && h->gen1_bot_hi > 0) {
			proto.lo = h->gen1_bot_lo;
			proto.hi = h->gen1_bot_hi;
		}
	}
	part_take(out, &link);
	part_take(out, &proto);
	return 0;
}

static int expect_pcie(const struct path_in *in, const struct host *h, struct path_expect *out)
{
	double gts = in->pcie_gts, width = in->pcie_width;
	struct part link;
	int i = pcie_lane(gts, width);
	bool board = false;

	if (i < 0 && h && h->nvme_gts > 0) {
		gts = h->nvme_gts;
		width = h->nvme_width;
		i = pcie_lane(gts, width);
		board = true;
	}
	if (i < 0) {
		/* Every PCIe link is at least Gen 1 x1: a floor, good to spot the absurd. */
		i = 0;
		width = 1;
		out->floor_only = true;
	}
	out->link_ceiling = pcie_lanes[i].lane_bytes_per_s * width * PCIE_EFFICIENCY;
	if (out->floor_only)
		str_copy(out->link, sizeof(out->link), "PCIe link not recorded");
	else
		str_fmt(out->link, sizeof(out->link), "PCIe Gen %d x%d%s", pcie_lanes[i].gen,
			(int)width, board ? ", the board's slot" : "");
	link.lo = pcie_lanes[i].lane_bytes_per_s * width * PCIE_LO / MB;
	link.hi = pcie_lanes[i].lane_bytes_per_s * width * PCIE_HI / MB;
	link.what = PATH_PART_LINK;
	if (h && h->nvme_hi > 0 && h->nvme_hi < link.hi) {
		link.lo = h->nvme_lo;
		link.hi = h->nvme_hi;
	}
	part_take(out, &link);
	return 0;
}

static int expect_mmc(const struct path_in *in, const struct host *h, struct path_expect *out)
{
	int i = mmc_mode(in->mmc_timing);
	bool board = false;
	struct part link;

	if (i < 0 && h && h->sd_timing && in->mmc_type && !strcasecmp(in->mmc_type, "SD")) {
		i = mmc_mode(h->sd_timing);
		board = true;
	}
	if (i < 0)
		return -ENODATA;
	out->link_ceiling = mmc_modes[i].ceiling * MB;
	str_fmt(out->link, sizeof(out->link), "%s%s", mmc_modes[i].name,
		board ? ", the board's slot" : "");
	link = (struct part){ mmc_modes[i].lo, mmc_modes[i].hi, PATH_PART_LINK };
	part_take(out, &link);
	return 0;
}

static void label_make(const struct path_in *in, const struct host *h, const char *link_brief,
		       struct path_expect *out)
{
	const char *bridge = bridge_short(in->bridge);
	char *p = out->label;
	size_t cap = sizeof(out->label), n;

	p[0] = '\0';
	if (h)
		str_fmt(p, cap, "%s ", h->name);
	n = strlen(p);
	if (link_brief[0]) {
		str_fmt(p + n, cap - n, "%s%s%s%s", link_brief, h && h->usb_ctl ? " (" : "",
			h && h->usb_ctl ? h->usb_ctl : "", h && h->usb_ctl ? ")" : "");
		n = strlen(p);
		if (bridge && str_is_clean_utf8(bridge))
			str_fmt(p + n, cap - n, " → %.40s", bridge);
		n = strlen(p);
		if (out->protocol[0])
			str_fmt(p + n, cap - n, " → %s", out->protocol);
	} else if (out->link[0]) {
		str_fmt(p + n, cap - n, "%s", out->link);
		n = strlen(p);
		if (out->medium == PATH_MEDIUM_NVME)
			str_fmt(p + n, cap - n, " → NVMe");
	}
	n = strlen(p);
	while (n && p[n - 1] == ' ')
		p[--n] = '\0';
	if (media[out->medium].name && out->medium != PATH_MEDIUM_NVME)
		str_fmt(p + n, cap - n, "%s%s", n ? ", " : "", media[out->medium].name);
}

int path_expect(const struct path_in *in, struct path_expect *out)
{
	const struct host *h = host_of(in->board);
	char link_brief[24] = "";
	struct part med;
	int rc = -ENODATA;

	memset(out, 0, sizeof(*out));
	out->lo = out->hi = out->link_ceiling = NAN;
	out->medium = medium_of(in);
	/* A kind the figure contradicts is a wrong guess: many USB bridges report an SSD as
	 * rotational, which is all the kernel knows of it. */
	if (isfinite(in->best_bw) && media[out->medium].hi > 0 &&
	    in->best_bw > media[out->medium].hi * MB * 1.2)
		out->medium = PATH_MEDIUM_UNKNOWN;
	if (in->usb_driver && (!strcmp(in->usb_driver, "uas") ||
			       !strcmp(in->usb_driver, "usb-storage")))
		str_copy(out->protocol, sizeof(out->protocol), in->usb_driver);
	if (has(in->transport, "usb") || isfinite(in->usb_speed_mbps) || in->usb_driver) {
		rc = expect_usb(in, h, in->usb_id, out, link_brief,
				sizeof(link_brief));
	} else if (in->nvme || isfinite(in->pcie_gts)) {
		rc = expect_pcie(in, h, out);
	} else if (in->mmc_type || in->mmc_timing) {
		rc = expect_mmc(in, h, out);
	}
	if (rc == 0 && !out->floor_only) {
		med = (struct part){ media[out->medium].lo, media[out->medium].hi,
				     PATH_PART_MEDIUM };
		part_take(out, &med);
	}
	label_make(in, h, link_brief, out);
	if (rc) {
		out->lo = out->hi = NAN;
		out->binding = PATH_PART_NONE;
	}
	return rc;
}
