/* attach.c - the one-line attachment summary of a disk ("usb 480M uas 152d:0578 JMicron ...").
 * Unknown pieces are left out of the line, never guessed. Every builder stops at the first
 * piece that does not fit, so a line that is cut is a prefix of the whole one. */
#include <errno.h>

#include "common/sbuf.h"
#include "probe/probe-int.h"
#include "common/util.h"

#define ATTACH_TEXT_MAX 1024

static int add_word(struct sbuf *sb, const char *w)
{
	int ret;

	if (!w || !*w)
		return 0;
	if (sb->len) {
		ret = sbuf_addch(sb, ' ');
		if (ret)
			return ret;
	}
	return sbuf_adds(sb, w);
}

static int usb_ids_words(struct sbuf *sb, const struct probe_usb *u)
{
	int ret;

	if (u->bridge[0])
		return add_word(sb, u->bridge);
	if (u->ids_vendor[0] || u->ids_product[0]) {
		ret = add_word(sb, u->ids_vendor);
		return ret ? ret : add_word(sb, u->ids_product);
	}
	ret = add_word(sb, u->manufacturer);
	return ret ? ret : add_word(sb, u->product);
}

static int usb_line(struct sbuf *sb, const struct probe_usb *u)
{
	char num[32];
	size_t i;
	int ret;

	ret = add_word(sb, "usb");
	if (!ret && u->has_speed) {
		probe_num_text(u->speed_mbps, num, sizeof(num));
		ret = sbuf_addf(sb, " %sM", num);
	}
	if (!ret)
		ret = add_word(sb, u->driver);
	if (!ret && u->has_ids)
		ret = sbuf_addf(sb, " %s:%s", u->vid, u->pid);
	if (!ret)
		ret = usb_ids_words(sb, u);
	for (i = 0; !ret && i < u->n_hubs; i++) {
		const struct probe_usb_hub *h = &u->hubs[i];

		ret = sbuf_adds(sb, i ? "," : u->n_hubs > 1 ? " via hubs" : " via hub");
		if (ret)
			break;
		if (h->vid[0] && h->pid[0])
			ret = sbuf_addf(sb, " %s:%s", h->vid, h->pid);
		else
			ret = sbuf_addf(sb, " %s", h->port);
	}
	return ret;
}

static int link_text(struct sbuf *sb, bool has_speed, double gts, bool has_width, unsigned width)
{
	char num[32];
	int ret = 0;

	if (has_speed) {
		probe_num_text(gts, num, sizeof(num));
		ret = sbuf_addf(sb, "%s GT/s", num);
	}
	if (!ret && has_width)
		ret = sbuf_addf(sb, "%sx%u", has_speed ? " " : "", width);
	return ret;
}

static int pcie_max_text(struct sbuf *sb, const struct probe_pcie *p)
{
	bool dev = p->has_max_link_speed || p->has_max_link_width;
	bool port = p->has_port_max_link_speed || p->has_port_max_link_width;
	int ret;

	ret = sbuf_adds(sb, dev ? " (device max " : " (port max ");
	if (!ret && dev)
		ret = link_text(sb, p->has_max_link_speed, p->max_link_speed_gts,
				p->has_max_link_width, p->max_link_width);
	if (!ret && dev && port)
		ret = sbuf_adds(sb, ", port max ");
	if (!ret && port)
		ret = link_text(sb, p->has_port_max_link_speed, p->port_max_link_speed_gts,
				p->has_port_max_link_width, p->port_max_link_width);
	return ret ? ret : sbuf_addch(sb, ')');
}

static int nvme_line(struct sbuf *sb, const struct probe_nvme *n, const struct probe_pcie *p)
{
	int ret;

	ret = add_word(sb, "nvme");
	if (!ret)
		ret = add_word(sb, n && n->transport[0] ? n->transport : p ? "pcie" : NULL);
	if (ret || !p)
		return ret;
	if (p->has_link_speed || p->has_link_width) {
		ret = sbuf_addch(sb, ' ');
		if (!ret)
			ret = link_text(sb, p->has_link_speed, p->link_speed_gts,
					p->has_link_width, p->link_width);
	}
	if (!ret && (p->has_max_link_speed || p->has_max_link_width ||
		     p->has_port_max_link_speed || p->has_port_max_link_width))
		ret = pcie_max_text(sb, p);
	return ret;
}

static int mmc_line(struct sbuf *sb, const struct probe_mmc *m)
{
	/* clang-format off */
	static const char *const kinds[] = {
		[PROBE_MMC_UNKNOWN] = "mmc", [PROBE_MMC_SD] = "sd", [PROBE_MMC_MMC] = "emmc",
		[PROBE_MMC_SDIO] = "sdio", [PROBE_MMC_SDCOMBO] = "sd",
	};
	/* clang-format on */
	const char *timing;
	int ret;

	ret = add_word(sb, kinds[m->type_id]);
	if (!ret)
		ret = add_word(sb, m->manufacturer[0] ? m->manufacturer : m->manfid);
	if (!ret)
		ret = add_word(sb, m->name);
	if (!ret)
		ret = add_word(sb, m->date);
	if (!ret && m->has_speed_class)
		ret = sbuf_addf(sb, " class %u", m->speed_class);
	if (!ret && m->has_uhs_grade && m->uhs_grade)
		ret = sbuf_addf(sb, " U%u", m->uhs_grade);
	if (!ret && m->has_video_class && m->video_class)
		ret = sbuf_addf(sb, " V%u", m->video_class);
	if (!ret && m->has_app_class && m->app_class)
		ret = sbuf_addf(sb, " A%u", m->app_class);
	/* "sd uhs DDR50" -> "DDR50", "mmc HS200" -> "HS200", "legacy" -> "legacy" */
	timing = strrchr(m->timing, ' ');
	return ret ? ret : add_word(sb, timing ? timing + 1 : m->timing);
}

static int attachment_line(struct sbuf *sb, const struct blkdev *d)
{
	if (d->usb)
		return usb_line(sb, d->usb);
	if (d->nvme || d->pcie)
		return nvme_line(sb, d->nvme, d->pcie);
	if (d->mmc)
		return mmc_line(sb, d->mmc);
	if (d->transport == PROBE_TRAN_LOOP && d->backing_file[0])
		return sbuf_addf(sb, "loop %s", d->backing_file);
	if (d->transport == PROBE_TRAN_SATA && d->has_sata_speed)
		return sbuf_addf(sb, "sata %.1f Gb/s", d->sata_speed_gbps);
	if (d->transport == PROBE_TRAN_SATA || d->transport == PROBE_TRAN_ATA ||
	    d->transport == PROBE_TRAN_SCSI || d->transport == PROBE_TRAN_VIRTIO ||
	    d->transport == PROBE_TRAN_NBD)
		return add_word(sb, probe_transport_name(d->transport));
	/* dm, md and zram are built from other devices or memory: attached to nothing */
	return 0;
}

static int attachment_short(struct sbuf *sb, const struct blkdev *d);

/* The line of d into buf by line(): "" for a partition. */
static int attachment_text(const struct blkdev *d, char *buf, size_t cap,
			   int (*line)(struct sbuf *sb, const struct blkdev *d))
{
	struct sbuf sb = SBUF_INIT(ATTACH_TEXT_MAX);
	int ret = 0;

	if (!cap)
		return -EINVAL;
	buf[0] = '\0';
	if (!d->is_partition)
		ret = line(&sb, d);
	if (ret && ret != -E2BIG) {
		sbuf_release(&sb);
		return ret;
	}
	/* a line longer than the most it may be (hostile strings) or than buf is cut */
	str_copy_cut(buf, cap, sbuf_str(&sb), ret == -E2BIG);
	sbuf_release(&sb);
	return 0;
}

int probe_blkdev_attachment(const struct blkdev *d, char *buf, size_t cap)
{
	return attachment_text(d, buf, cap, attachment_line);
}

int probe_blkdev_attachment_short(const struct blkdev *d, char *buf, size_t cap)
{
	return attachment_text(d, buf, cap, attachment_short);
}

/* "JMicron JMS567/JMS578" -> "JMS567": the chip's own name, the maker's left out */
static int bridge_chip_word(struct sbuf *sb, const char *bridge)
{
	const char *w = strrchr(bridge, ' ');
	char chip[64];

	w = w ? w + 1 : bridge;
	str_copy_cut(chip, sizeof(chip), w, false);
	chip[strcspn(chip, "/")] = '\0';
	return add_word(sb, chip);
}

static int usb_short(struct sbuf *sb, const struct probe_usb *u)
{
	int ret = 0;

	if (!u->has_speed)
		ret = add_word(sb, "usb");
	else if (u->speed_mbps <= 12)
		ret = add_word(sb, "usb1");
	else if (u->speed_mbps <= 480)
		ret = add_word(sb, "usb2");
	else if (u->speed_mbps <= 5000)
		ret = add_word(sb, "usb3");
	else
		ret = sbuf_addf(sb, "%susb3 %.0fG", sb->len ? " " : "", u->speed_mbps / 1000);
	if (!ret)
		ret = add_word(sb, u->driver);
	if (!ret && u->bridge[0])
		ret = bridge_chip_word(sb, u->bridge);
	if (!ret && u->has_ids)
		ret = sbuf_addf(sb, " %s:%s", u->vid, u->pid);
	if (!ret && u->n_hubs)
		ret = add_word(sb, u->n_hubs > 1 ? "+hubs" : "+hub");
	return ret;
}

static int gts_short(struct sbuf *sb, const char *pre, bool has_speed, double gts, bool has_width,
		     unsigned width, const char *unit)
{
	char num[32];
	int ret = sbuf_adds(sb, pre);

	if (!ret && has_speed) {
		probe_num_text(gts, num, sizeof(num));
		ret = sbuf_addf(sb, "%s%s", num, unit);
	}
	if (!ret && has_width)
		ret = sbuf_addf(sb, "%sx%u", has_speed ? " " : "", width);
	return ret;
}

/* "pcie 5GT/s x1 max 8GT/s x4": the link, and the device's ceiling (else the port's) */
static int nvme_short(struct sbuf *sb, const struct probe_nvme *n, const struct probe_pcie *p)
{
	bool dev;
	int ret;

	ret = add_word(sb, n && n->transport[0] && strcmp(n->transport, "pcie") ?
				  n->transport : "pcie");
	if (ret || !p)
		return ret;
	if (p->has_link_speed || p->has_link_width)
		ret = gts_short(sb, " ", p->has_link_speed, p->link_speed_gts, p->has_link_width,
				p->link_width, "GT/s");
	dev = p->has_max_link_speed || p->has_max_link_width;
	/* the ceiling with its unit: "max 8GT/s x4" */
	if (!ret && dev)
		ret = gts_short(sb, " max ", p->has_max_link_speed, p->max_link_speed_gts,
				p->has_max_link_width, p->max_link_width, "GT/s");
	else if (!ret && (p->has_port_max_link_speed || p->has_port_max_link_width))
		ret = gts_short(sb, " max ", p->has_port_max_link_speed,
				p->port_max_link_speed_gts, p->has_port_max_link_width,
				p->port_max_link_width, "GT/s");
	return ret;
}

/* "sd SanDisk SN64G A2 SDR104": no date, no speed classes but the app class */
static int mmc_short(struct sbuf *sb, const struct probe_mmc *m)
{
	const char *timing = strrchr(m->timing, ' ');
	int ret;

	ret = add_word(sb, m->type_id == PROBE_MMC_MMC ? "emmc" :
			   m->type_id == PROBE_MMC_SD || m->type_id == PROBE_MMC_SDCOMBO ? "sd" :
											  "mmc");
	if (!ret)
		ret = add_word(sb, m->manufacturer[0] ? m->manufacturer : m->manfid);
	if (!ret)
		ret = add_word(sb, m->name);
	if (!ret && m->has_app_class && m->app_class)
		ret = sbuf_addf(sb, " A%u", m->app_class);
	return ret ? ret : add_word(sb, timing ? timing + 1 : m->timing);
}

static int attachment_short(struct sbuf *sb, const struct blkdev *d)
{
	if (d->usb)
		return usb_short(sb, d->usb);
	if (d->nvme || d->pcie)
		return nvme_short(sb, d->nvme, d->pcie);
	if (d->mmc)
		return mmc_short(sb, d->mmc);
	if (d->transport == PROBE_TRAN_SATA && d->has_sata_speed)
		return sbuf_addf(sb, "sata %.1fGb/s", d->sata_speed_gbps);
	if (d->transport == PROBE_TRAN_LOOP && d->backing_file[0])
		return sbuf_addf(sb, "loop %s", strrchr(d->backing_file, '/') ?
							strrchr(d->backing_file, '/') + 1 :
							d->backing_file);
	return attachment_line(sb, d);
}
