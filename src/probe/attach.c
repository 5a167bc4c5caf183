/* attach.c - the one-line attachment summary of a disk ("usb 480M uas 152d:0578 JMicron ...").
 * Unknown pieces are left out of the line, never guessed. */
#include "common/sbuf.h"
#include "probe/probe-int.h"
#include "common/util.h"

static void add_word(struct sbuf *sb, const char *w)
{
	if (!w || !*w)
		return;
	if (sb->len)
		sbuf_addch(sb, ' ');
	sbuf_adds(sb, w);
}

static void usb_line(struct sbuf *sb, const struct probe_usb *u)
{
	char num[32];
	size_t i;

	add_word(sb, "usb");
	if (u->has_speed) {
		probe_num_text(u->speed_mbps, num, sizeof(num));
		sbuf_addf(sb, " %sM", num);
	}
	add_word(sb, u->driver);
	if (u->has_ids)
		sbuf_addf(sb, " %s:%s", u->vid, u->pid);
	if (u->bridge[0]) {
		add_word(sb, u->bridge);
	} else if (u->ids_vendor[0] || u->ids_product[0]) {
		add_word(sb, u->ids_vendor);
		add_word(sb, u->ids_product);
	} else {
		add_word(sb, u->manufacturer);
		add_word(sb, u->product);
	}
	for (i = 0; i < u->n_hubs; i++) {
		const struct probe_usb_hub *h = &u->hubs[i];

		sbuf_adds(sb, i ? "," : u->n_hubs > 1 ? " via hubs" : " via hub");
		if (h->vid[0] && h->pid[0])
			sbuf_addf(sb, " %s:%s", h->vid, h->pid);
		else
			sbuf_addf(sb, " %s", h->port);
	}
}

static void link_text(struct sbuf *sb, bool has_speed, double gts, bool has_width, unsigned width)
{
	char num[32];

	if (has_speed) {
		probe_num_text(gts, num, sizeof(num));
		sbuf_addf(sb, "%s GT/s", num);
	}
	if (has_width)
		sbuf_addf(sb, "%sx%u", has_speed ? " " : "", width);
}

static void nvme_line(struct sbuf *sb, const struct probe_nvme *n, const struct probe_pcie *p)
{
	add_word(sb, "nvme");
	add_word(sb, n && n->transport[0] ? n->transport : p ? "pcie" : NULL);
	if (!p)
		return;
	if (p->has_link_speed || p->has_link_width) {
		sbuf_addch(sb, ' ');
		link_text(sb, p->has_link_speed, p->link_speed_gts, p->has_link_width,
			  p->link_width);
	}
	if (p->has_max_link_speed || p->has_max_link_width || p->has_port_max_link_speed ||
	    p->has_port_max_link_width) {
		bool dev = p->has_max_link_speed || p->has_max_link_width;

		sbuf_adds(sb, " (");
		if (dev) {
			sbuf_adds(sb, "device max ");
			link_text(sb, p->has_max_link_speed, p->max_link_speed_gts,
				  p->has_max_link_width, p->max_link_width);
		}
		if (p->has_port_max_link_speed || p->has_port_max_link_width) {
			sbuf_adds(sb, dev ? ", port max " : "port max ");
			link_text(sb, p->has_port_max_link_speed, p->port_max_link_speed_gts,
				  p->has_port_max_link_width, p->port_max_link_width);
		}
		sbuf_addch(sb, ')');
	}
}

static void mmc_line(struct sbuf *sb, const struct probe_mmc *m)
{
	/* clang-format off */
	static const char *const kinds[] = {
		[PROBE_MMC_UNKNOWN] = "mmc", [PROBE_MMC_SD] = "sd", [PROBE_MMC_MMC] = "emmc",
		[PROBE_MMC_SDIO] = "sdio", [PROBE_MMC_SDCOMBO] = "sd",
	};
	/* clang-format on */
	const char *timing;

	add_word(sb, kinds[m->type_id]);
	add_word(sb, m->manufacturer[0] ? m->manufacturer : m->manfid);
	add_word(sb, m->name);
	add_word(sb, m->date);
	if (m->has_speed_class)
		sbuf_addf(sb, " class %u", m->speed_class);
	if (m->has_uhs_grade && m->uhs_grade)
		sbuf_addf(sb, " U%u", m->uhs_grade);
	if (m->has_video_class && m->video_class)
		sbuf_addf(sb, " V%u", m->video_class);
	if (m->has_app_class && m->app_class)
		sbuf_addf(sb, " A%u", m->app_class);
	/* "sd uhs DDR50" -> "DDR50", "mmc HS200" -> "HS200", "legacy" -> "legacy" */
	timing = strrchr(m->timing, ' ');
	add_word(sb, timing ? timing + 1 : m->timing);
}

void probe_blkdev_attachment(const struct blkdev *d, char *buf, size_t cap)
{
	struct sbuf sb = SBUF_INIT(1024);

	if (!cap)
		return;
	buf[0] = '\0';
	if (d->is_partition)
		return;
	if (d->usb)
		usb_line(&sb, d->usb);
	else if (d->nvme || d->pcie)
		nvme_line(&sb, d->nvme, d->pcie);
	else if (d->mmc)
		mmc_line(&sb, d->mmc);
	else if (d->transport == PROBE_TRAN_LOOP && d->backing_file[0])
		sbuf_addf(&sb, "loop %s", d->backing_file);
	else if (d->transport == PROBE_TRAN_SATA && d->has_sata_speed)
		sbuf_addf(&sb, "sata %.1f Gb/s", d->sata_speed_gbps);
	else if (d->transport == PROBE_TRAN_SATA || d->transport == PROBE_TRAN_ATA ||
		 d->transport == PROBE_TRAN_SCSI || d->transport == PROBE_TRAN_VIRTIO ||
		 d->transport == PROBE_TRAN_NBD)
		add_word(&sb, probe_transport_name(d->transport));
	/* dm, md and zram are built from other devices or memory: attached to nothing */
	str_copy(buf, cap, sbuf_str(&sb));
	sbuf_release(&sb);
}
