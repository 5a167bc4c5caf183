/* logsum.c - fold the events of a kernel log into per-device subjects, in one pass.
 * It follows the kernel's own chain: usb 2-1 -> scsi host0 -> sd 0:0:0:0 -> sda. */
#include <errno.h>

#include "diag/logsum.h"
#include "diag/uas-quirks.h"
#include "common/paths.h"
#include "common/util.h"

int diag_log_new(struct diag_log **out)
{
	struct diag_log *log = calloc(1, sizeof(*log));

	*out = NULL;
	if (!log)
		return -ENOMEM;
	log->sys = calloc(1, sizeof(*log->sys));
	if (!log->sys) {
		free(log);
		return -ENOMEM;
	}
	log->sys->kind = SUBJ_SYSTEM;
	log->sys->scsi_host = -1;
	log->pending_uas_reset_host = -1;
	*out = log;
	return 0;
}

void diag_log_free(struct diag_log *log)
{
	size_t i;

	if (!log)
		return;
	for (i = 0; i < log->n_subj; i++)
		free(log->subj[i]);
	free(log->sys);
	free(log);
}

int diag_log_uas_resets(struct diag_log *log, unsigned vid, unsigned pid, const char *disk,
			unsigned long *resets)
{
	const struct diag_subject *s;
	bool seen = false;
	size_t i;

	*resets = 0;
	logsum_finish(log);
	for (i = 0; (s = logsum_subject(log, i)) != NULL; i++) {
		if (s->boot != log->boot)
			continue;
		if (!(s->has_id && s->vid == vid && s->pid == pid) &&
		    !(disk && *disk && !strcmp(s->disk, disk)))
			continue;
		seen = true;
		*resets += logsum_uas_resets(s);
	}
	return seen ? 0 : -ENOENT;
}

unsigned long diag_log_lines(const struct diag_log *log)
{
	return log->lines;
}

unsigned long diag_log_messages(const struct diag_log *log)
{
	return log->messages;
}

unsigned long diag_log_unrecognised(const struct diag_log *log, unsigned long *nonblank)
{
	*nonblank = log->nonblank;
	return log->nonblank > log->recognised ? log->nonblank - log->recognised : 0;
}

struct diag_subject *logsum_subject(struct diag_log *log, size_t i)
{
	return i < log->n_subj ? log->subj[i] : NULL;
}

const char *logsum_subject_name(const struct diag_subject *s)
{
	if (s->disk[0])
		return s->disk;
	if (s->usb_port[0])
		return s->usb_port;
	if (s->ctrl[0])
		return s->ctrl;
	return "";
}

static bool subj_quiet(const struct diag_subject *s)
{
	int i;

	for (i = 0; i < CAT__COUNT; i++)
		if (i != CAT_LINK && i != CAT_UASOFF && s->cat[i].count)
			return false;
	return true;
}

/* Make room in a full table: drop the oldest device that is gone and had no trouble, else
 * the oldest one without trouble. A long log with many re-plugs keeps what matters. */
static bool subj_evict(struct diag_log *log)
{
	size_t i, k = LOG_SUBJECTS_MAX;
	int pass;

	for (pass = 0; pass < 2 && k == LOG_SUBJECTS_MAX; pass++)
		for (i = 0; i < log->n_subj; i++)
			if (subj_quiet(log->subj[i]) && (pass || log->subj[i]->gone)) {
				k = i;
				break;
			}
	if (k == LOG_SUBJECTS_MAX)
		return false;
	for (i = 0; i < log->n_hosts;) {
		if (log->hosts[i].s == log->subj[k]) {
			memmove(&log->hosts[i], &log->hosts[i + 1],
				(log->n_hosts - i - 1) * sizeof(log->hosts[0]));
			log->n_hosts--;
		} else {
			i++;
		}
	}
	free(log->subj[k]);
	memmove(&log->subj[k], &log->subj[k + 1], (log->n_subj - k - 1) * sizeof(log->subj[0]));
	log->n_subj--;
	return true;
}

static struct diag_subject *subj_new(struct diag_log *log, enum subj_kind kind,
				     unsigned long lineno)
{
	struct diag_subject *s;

	if (log->n_subj == LOG_SUBJECTS_MAX && !subj_evict(log))
		return log->subj[LOG_SUBJECTS_MAX - 1]; /* a hostile log: share the last one */
	s = calloc(1, sizeof(*s));
	if (!s)
		return log->n_subj ? log->subj[log->n_subj - 1] : log->sys;
	s->kind = kind;
	s->scsi_host = -1;
	s->disk_lun = -1;
	s->first_line = lineno;
	s->boot = log->boot;
	log->subj[log->n_subj++] = s;
	return s;
}

static void cat_add(const struct diag_log *log, struct cat_stat *c, unsigned long lineno,
		    const char *text)
{
	struct diag_evidence *e;

	c->count++;
	if (!c->first_line)
		c->first_line = lineno;
	c->last_line = lineno;
	e = &c->ev[c->n < CAT_KEEP ? c->n++ : CAT_KEEP - 1];
	e->line = lineno;
	/* a wrapped message: its evidence cites every line it was read from */
	e->last_line = log->cur_line == lineno && log->cur_last_line > lineno ?
			       log->cur_last_line : 0;
	str_copy(e->text, sizeof(e->text), text);
	str_sanitize(e->text);
	e->msg_off = text == log->cur_text && log->cur_msg_off < strlen(e->text) ?
			     log->cur_msg_off : 0;
}

static int ev_cmp(const void *a, const void *b)
{
	const struct diag_evidence *x = a, *y = b;

	return x->line < y->line ? -1 : x->line > y->line;
}

static void cat_merge(struct cat_stat *dst, const struct cat_stat *src)
{
	struct diag_evidence all[2 * CAT_KEEP];
	int n = 0, i;

	if (!src->count)
		return;
	for (i = 0; i < dst->n; i++)
		all[n++] = dst->ev[i];
	for (i = 0; i < src->n; i++)
		all[n++] = src->ev[i];
	qsort(all, (size_t)n, sizeof(all[0]), ev_cmp);
	if (n > CAT_KEEP) {
		all[CAT_KEEP - 1] = all[n - 1];
		n = CAT_KEEP;
	}
	memcpy(dst->ev, all, (size_t)n * sizeof(all[0]));
	dst->n = n;
	dst->count += src->count;
	if (!dst->first_line || (src->first_line && src->first_line < dst->first_line))
		dst->first_line = src->first_line;
	if (src->last_line > dst->last_line)
		dst->last_line = src->last_line;
}

static void subj_merge(struct diag_subject *dst, struct diag_subject *src)
{
	int i;

	for (i = 0; i < CAT__COUNT; i++)
		cat_merge(&dst->cat[i], &src->cat[i]);
	for (i = 0; i < EV__COUNT; i++)
		dst->n_ev[i] += src->n_ev[i];
	memset(src->cat, 0, sizeof(src->cat));
	memset(src->n_ev, 0, sizeof(src->n_ev));
	if (!dst->disk[0])
		str_copy(dst->disk, sizeof(dst->disk), src->disk);
	src->gone = true;
	src->disk[0] = '\0';
}

static struct diag_subject *find_port(struct diag_log *log, const char *port)
{
	size_t i;

	for (i = log->n_subj; i-- > 0;)
		if (!log->subj[i]->gone && !strcmp(log->subj[i]->usb_port, port))
			return log->subj[i];
	return NULL;
}

static struct diag_subject *port_subject(struct diag_log *log, const char *port,
					 unsigned long lineno)
{
	struct diag_subject *s = find_port(log, port);

	if (!s) {
		s = subj_new(log, SUBJ_USB, lineno);
		str_copy(s->usb_port, sizeof(s->usb_port), port);
	}
	return s;
}

static struct diag_subject *host_subject(struct diag_log *log, int host)
{
	size_t i;

	for (i = 0; i < log->n_hosts; i++)
		if (log->hosts[i].host == host)
			return log->hosts[i].s;
	return NULL;
}

static void host_bind(struct diag_log *log, int host, struct diag_subject *s)
{
	size_t i;

	s->scsi_host = host;
	for (i = 0; i < log->n_hosts; i++) {
		if (log->hosts[i].host == host) {
			log->hosts[i].s = s;
			return;
		}
	}
	if (log->n_hosts == LOG_HOSTS_MAX)
		memmove(&log->hosts[0], &log->hosts[1], sizeof(log->hosts[0]) * (LOG_HOSTS_MAX - 1)),
			log->n_hosts--;
	log->hosts[log->n_hosts].host = host;
	log->hosts[log->n_hosts].s = s;
	log->n_hosts++;
}

static enum subj_kind disk_kind(const char *disk)
{
	if (!strncmp(disk, "mmcblk", 6))
		return SUBJ_MMC;
	if (!strncmp(disk, "nvme", 4))
		return SUBJ_NVME;
	return SUBJ_DISK;
}

static bool subj_has_lun_disk(const struct diag_subject *s, const char *disk)
{
	int i;

	for (i = 0; i < s->n_lun_disks; i++)
		if (!strcmp(s->lun_disk[i], disk))
			return true;
	return false;
}

/* Another LUN of the same enclosure (a second disk behind one bridge): one subject names
 * both disks, "sdc and sdd". */
static void subj_add_lun_disk(struct diag_subject *s, const char *disk)
{
	int i;

	if (subj_has_lun_disk(s, disk) || s->n_lun_disks == LOG_LUNS_MAX)
		return;
	str_copy(s->lun_disk[s->n_lun_disks++], sizeof(s->lun_disk[0]), disk);
	str_copy(s->disks_label, sizeof(s->disks_label), s->disk);
	for (i = 0; i < s->n_lun_disks; i++) {
		size_t n = strlen(s->disks_label);

		str_fmt(s->disks_label + n, sizeof(s->disks_label) - n, "%s%s",
			i == s->n_lun_disks - 1 ? " and " : ", ", s->lun_disk[i]);
	}
}

/* A live subject holding the disk name, else the latest that held it, else a new one. */
static struct diag_subject *disk_subject(struct diag_log *log, const char *disk,
					 unsigned long lineno)
{
	struct diag_subject *gone = NULL, *s;
	size_t i;

	for (i = log->n_subj; i-- > 0;) {
		s = log->subj[i];
		if (strcmp(s->disk, disk) && !(!s->gone && subj_has_lun_disk(s, disk)))
			continue;
		if (!s->gone)
			return s;
		if (!gone && s->boot == log->boot)
			gone = s;
	}
	if (gone)
		return gone;
	s = subj_new(log, disk_kind(disk), lineno);
	str_copy(s->disk, sizeof(s->disk), disk);
	if (s->kind == SUBJ_MMC)
		str_fmt(s->ctrl, sizeof(s->ctrl), "mmc%s", disk + 6);
	if (s->kind == SUBJ_NVME) {
		char *n;

		str_copy(s->ctrl, sizeof(s->ctrl), disk);
		n = strchr(s->ctrl + 4, 'n');
		if (n)
			*n = '\0';
	}
	return s;
}

static struct diag_subject *ctrl_subject(struct diag_log *log, const struct diag_event *ev,
					 unsigned long lineno)
{
	const char *c = ev->ctrl;
	struct diag_subject *s;
	enum subj_kind kind;
	size_t i;

	for (i = log->n_subj; i-- > 0;) {
		s = log->subj[i];
		if (s->boot == log->boot && (!strcmp(s->ctrl, c) || (s->pci[0] && !strcmp(s->pci, c))))
			return s;
	}
	if (!strncmp(c, "mmc", 3) && c[3] >= '0' && c[3] <= '9') {
		char disk[DIAG_NAME_MAX];

		str_fmt(disk, sizeof(disk), "mmcblk%s", c + 3);
		return disk_subject(log, disk, lineno);
	}
	if (!strncmp(c, "nvme", 4) && c[4] >= '0' && c[4] <= '9') {
		char disk[DIAG_NAME_MAX];

		str_fmt(disk, sizeof(disk), "%sn1", c);
		s = disk_subject(log, disk, lineno);
		str_copy(s->ctrl, sizeof(s->ctrl), c);
		return s;
	}
	if (diag_event_flags(ev->kind) & EVF_HOST)
		kind = SUBJ_XHCI;
	else
		kind = SUBJ_PCI;
	s = subj_new(log, kind, lineno);
	str_copy(s->ctrl, sizeof(s->ctrl), c);
	return s;
}

/* The USB device a "scsi hostN: uas" line is about: the newest one that is no hub, has no
 * SCSI host yet, and is no keyboard-speed device (storage is high-speed or faster). Whether
 * its arrival showed an id does not matter: skipping a device without one would hand its
 * disk to the device before it (a network adapter), and that one's id to the fix. */
static struct diag_subject *newest_usb(struct diag_log *log)
{
	size_t i;

	for (i = log->n_subj; i-- > 0;) {
		struct diag_subject *s = log->subj[i];

		if (s->kind == SUBJ_USB && !s->gone && !s->is_hub &&
		    s->scsi_host < 0 && (!s->speed_mbps || s->speed_mbps >= 480))
			return s;
	}
	return NULL;
}

/* A "scsi hostN: uas" line for s. One line after another with no device arriving between
 * them is the uas module loaded after the devices arrived (at boot, as udev loads it): it
 * probes them in the order they arrived, so the hosts go to the batch's devices oldest
 * first. (newest_usb picked the batch's devices: the newest ones, never an older adapter
 * with no disk.) A device arriving ends the batch: with the module loaded each device's
 * host follows its own arrival. */
static void uas_host_bind(struct diag_log *log, int host, struct diag_subject *s)
{
	size_t i, j, n;

	host_bind(log, host, s);
	if (log->n_uas_batch == LOG_HOSTS_MAX)
		log->n_uas_batch = 0;
	log->uas_batch[log->n_uas_batch].host = host;
	log->uas_batch[log->n_uas_batch].s = s;
	n = ++log->n_uas_batch;
	if (n < 2)
		return;
	/* hosts ascending, devices by arrival: pair them in order (insertion sorts, n small) */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && log->uas_batch[j - 1].host > log->uas_batch[j].host; j--) {
			int h = log->uas_batch[j].host;

			log->uas_batch[j].host = log->uas_batch[j - 1].host;
			log->uas_batch[j - 1].host = h;
		}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && log->uas_batch[j - 1].s->first_line >
					     log->uas_batch[j].s->first_line; j--) {
			struct diag_subject *t = log->uas_batch[j].s;

			log->uas_batch[j].s = log->uas_batch[j - 1].s;
			log->uas_batch[j - 1].s = t;
		}
	for (i = 0; i < n; i++)
		host_bind(log, log->uas_batch[i].host, log->uas_batch[i].s);
}

static struct diag_subject *resolve(struct diag_log *log, const struct diag_event *ev,
				    unsigned long lineno)
{
	struct diag_subject *s;

	if (ev->usb_port[0])
		return port_subject(log, ev->usb_port, lineno);
	if (ev->scsi_host >= 0) {
		s = host_subject(log, ev->scsi_host);
		if (s) {
			if (ev->disk[0] && strcmp(s->disk, ev->disk) && s->disk[0] &&
			    ev->scsi_lun >= 0 && s->disk_lun >= 0 && ev->scsi_lun != s->disk_lun) {
				subj_add_lun_disk(s, ev->disk);
				return s;
			}
			if (ev->disk[0] && strcmp(s->disk, ev->disk)) {
				struct diag_subject *d = NULL;
				size_t i;

				/* the disk name now belongs to this device */
				for (i = 0; i < log->n_subj; i++)
					if (log->subj[i] != s && !strcmp(log->subj[i]->disk, ev->disk))
						d = log->subj[i];
				if (d && d->kind == SUBJ_DISK && d->scsi_host < 0)
					subj_merge(s, d);
				str_copy(s->disk, sizeof(s->disk), ev->disk);
				s->disk_lun = ev->scsi_lun;
			} else if (ev->disk[0] && s->disk_lun < 0) {
				s->disk_lun = ev->scsi_lun;
			}
			return s;
		}
		s = ev->disk[0] ? disk_subject(log, ev->disk, lineno) :
				  subj_new(log, SUBJ_DISK, lineno);
		if (ev->disk[0] && !strcmp(s->disk, ev->disk))
			s->disk_lun = ev->scsi_lun;
		host_bind(log, ev->scsi_host, s);
		return s;
	}
	if (ev->disk[0])
		return disk_subject(log, ev->disk, lineno);
	if (ev->ctrl[0])
		return ctrl_subject(log, ev, lineno);
	return log->sys;
}

static void on_usb_reset(struct diag_log *log, struct diag_subject *s, const char *text,
			 unsigned long lineno)
{
	struct diag_subject *hs = NULL;
	bool uas_reset = false;

	if (log->pending_uas_reset_host >= 0)
		hs = host_subject(log, log->pending_uas_reset_host);
	if (hs == s) {
		uas_reset = true;
	} else if (hs && !hs->usb_port[0]) {
		/* the reset names the USB port the uas host sits on: join the two */
		subj_merge(s, hs);
		host_bind(log, log->pending_uas_reset_host, s);
		s->driver = USB_DRIVER_UAS;
		uas_reset = true;
	}
	if (uas_reset || (s->driver == USB_DRIVER_UAS && s->cat[CAT_UAS].count))
		cat_add(log, &s->cat[CAT_UAS], lineno, text);
	else
		cat_add(log, &s->cat[CAT_USB], lineno, text);
}

/* "device firmware changed" right after a reset, and the port's next device has another id:
 * the device switched its mode on purpose (a Wi-Fi adapter leaving its install disk), so
 * that reset was no USB error. A failing drive can say the same and never come back as
 * another device: its reset stays. */
static void mode_switch_forgive(struct diag_log *log, struct diag_subject *s)
{
	struct cat_stat *c = &s->cat[CAT_USB];
	const struct diag_subject *t = NULL;
	size_t i;

	if (!s->fw_changed_line || !c->n || !s->n_ev[EV_USB_RESET] ||
	    c->ev[c->n - 1].line + 3 < s->fw_changed_line ||
	    !strstr(c->ev[c->n - 1].text, "reset ") || s->cat[CAT_IO].count ||
	    s->cat[CAT_NOTREADY].count || s->cat[CAT_UAS].count)
		return;
	for (i = 0; i < log->n_subj && !t; i++) {
		const struct diag_subject *u = log->subj[i];

		if (u != s && u->boot == s->boot && u->first_line > s->fw_changed_line &&
		    !strcmp(u->usb_port, s->usb_port) && u->has_id &&
		    (!s->has_id || u->vid != s->vid || u->pid != s->pid))
			t = u;
	}
	if (!t)
		return;
	s->n_ev[EV_USB_RESET]--;
	c->n--;
	c->count--;
	c->last_line = c->n ? c->ev[c->n - 1].line : 0;
	if (!c->count)
		memset(c, 0, sizeof(*c));
}

static void on_cmdline(struct diag_log *log, const struct diag_event *ev, const char *text,
		       unsigned long lineno)
{
	char value[sizeof(log->cmdline_quirks)];
	const char *r = strstr(ev->arg, "root=");

	log->quirks_problem = usbq_cmdline_check(ev->arg, value, sizeof(value));
	str_copy(log->cmdline_quirks, sizeof(log->cmdline_quirks), value);
	if (log->quirks_problem)
		cat_add(log, &log->sys->cat[CAT_QUIRKS], lineno, text);
	if (r && (r == ev->arg || r[-1] == ' ')) {
		r += 5;
		if (str_starts(r, PATH_DEV_PREFIX)) {
			char disk[DIAG_NAME_MAX];
			size_t n = strcspn(r + strlen(PATH_DEV_PREFIX), " ");

			if (n < sizeof(disk)) {
				memcpy(disk, r + strlen(PATH_DEV_PREFIX), n);
				disk[n] = '\0';
				diag_disk_fold(disk);
				str_copy(log->root_disk, sizeof(log->root_disk), disk);
			}
		}
	}
}

/* A new boot begins: nothing of the last one is linked to what follows (ports, SCSI hosts
 * and disk names are handed out again). A marker right after another opens no new boot. */
static void boot_start(struct diag_log *log, unsigned long lineno)
{
	size_t i;

	if (!log->boot_msgs)
		return;
	for (i = 0; i < log->n_subj; i++)
		log->subj[i]->gone = true;
	log->n_hosts = 0;
	log->pending_uas_reset_host = -1;
	log->boot_msgs = 0;
	log->boot++;
	if (log->boot < LOG_BOOTS_MAX)
		log->boot_line[log->boot] = lineno;
}

/* The subject an event is about, following the kernel's chain within this boot. */
static struct diag_subject *subject_for(struct diag_log *log, const struct diag_event *ev,
					unsigned long lineno)
{
	struct diag_subject *s;

	switch (ev->kind) {
	case EV_UAS_UNSUPPORTED:
		if (ev->usb_port[0])
			return port_subject(log, ev->usb_port, lineno);
		s = newest_usb(log);
		return s ? s : log->sys;
	case EV_USB_NEW:
		log->n_uas_batch = 0;
		s = find_port(log, ev->usb_port);
		/* enumerated again without a disconnect line: a new device, unless the last
		 * attempt never got as far as an id (the same device retrying) */
		if (s && s->has_id)
			s->gone = true;
		else if (s)
			return s;
		return port_subject(log, ev->usb_port, lineno);
	case EV_SCSI_HOST_UAS:
		s = newest_usb(log);
		if (!s) {
			s = subj_new(log, SUBJ_DISK, lineno);
			host_bind(log, ev->scsi_host, s);
			return s;
		}
		uas_host_bind(log, ev->scsi_host, s);
		/* the batch may have given this host to an older device */
		return host_subject(log, ev->scsi_host) ?: s;
	case EV_SCSI_HOST_BOT:
		s = port_subject(log, ev->usb_port, lineno);
		host_bind(log, ev->scsi_host, s);
		return s;
	default:
		if (diag_event_flags(ev->kind) & EVF_SYSTEM)
			return log->sys;
		return resolve(log, ev, lineno);
	}
}

/* The category each event counts in (plus one), from its row in DIAG_EVENTS; 0 for the
 * events note_event() handles. */
#define C(cat) ((unsigned char)((CAT_##cat) + 1))
static const unsigned char ev_cat[EV__COUNT] = {
#define X(kind, name, cat, flags) [EV_##kind] = C(cat),
	DIAG_EVENTS(X)
#undef X
};

static void on_mmc_blk(struct diag_log *log, struct diag_subject *s, const struct diag_event *ev)
{
	size_t i;

	if (!ev->ctrl[0])
		return;
	/* errors logged for the host before its disk was named join the disk */
	for (i = 0; i < log->n_subj; i++) {
		struct diag_subject *t = log->subj[i];

		if (t != s && t->kind == SUBJ_MMC && t->boot == log->boot &&
		    !strcmp(t->ctrl, ev->ctrl)) {
			subj_merge(s, t);
			if (t->mmc_up && t->mmc_up_line > s->mmc_up_line) {
				s->mmc_up = true;
				s->mmc_up_line = t->mmc_up_line;
				str_copy(s->mmc_mode, sizeof(s->mmc_mode), t->mmc_mode);
			}
			t->ctrl[0] = '\0';
		}
	}
	str_copy(s->ctrl, sizeof(s->ctrl), ev->ctrl);
}

static void on_mmc_card_new(struct diag_subject *s, const struct diag_event *ev,
			    unsigned long lineno)
{
	const char *end = ev->arg ? strstr(ev->arg, " card at") : NULL;

	s->mmc_up = true;
	s->mmc_up_line = lineno;
	if (end && (size_t)(end - ev->arg) < sizeof(s->mmc_mode)) {
		memcpy(s->mmc_mode, ev->arg, (size_t)(end - ev->arg));
		s->mmc_mode[end - ev->arg] = '\0';
		str_sanitize(s->mmc_mode);
	}
}

/* What an event changes in its subject beyond a count in its category. */
static bool note_event(struct diag_log *log, struct diag_subject *s, const struct diag_event *ev,
		       const char *text, unsigned long lineno)
{
	switch (ev->kind) {
	case EV_USB_NEW:
		s->speed_mbps = ev->speed_mbps;
		cat_add(log, &s->cat[CAT_LINK], lineno, text);
		break;
	case EV_USB_ID:
		s->id_line = lineno;
		s->vid = ev->vid;
		s->pid = ev->pid;
		s->has_id = true;
		break;
	case EV_USB_PRODUCT:
		str_copy(s->product, sizeof(s->product), ev->arg);
		str_sanitize(s->product);
		break;
	case EV_USB_HUB:
		s->is_hub = true;
		break;
	case EV_USB_DISCONNECT:
		s->gone = true;
		break;
	case EV_USB_RESET:
		on_usb_reset(log, s, text, lineno);
		break;
	case EV_USB_FW_CHANGED:
		s->fw_changed_line = lineno;
		break;
	case EV_SCSI_HOST_UAS:
		s->driver = USB_DRIVER_UAS;
		break;
	case EV_SCSI_HOST_BOT:
		s->driver = USB_DRIVER_STORAGE;
		break;
	case EV_UAS_IGNORED:
		s->uas_ignored = true;
		cat_add(log, &s->cat[CAT_UASOFF], lineno, text);
		break;
	case EV_UAS_UNSUPPORTED:
		s->uas_unsupported = true;
		cat_add(log, &s->cat[CAT_UASOFF], lineno, text);
		break;
	case EV_QUIRKS_MATCH:
		/* the line names the port: the id is this very device's */
		s->quirk_flags = ev->flags;
		s->has_quirk_flags = true;
		if (!s->has_id) {
			s->vid = ev->vid;
			s->pid = ev->pid;
			s->has_id = true;
		}
		if (ev->flags & US_FL_IGNORE_UAS)
			cat_add(log, &s->cat[CAT_UASOFF], lineno, text);
		break;
	case EV_UAS_RESET_START:
	case EV_UAS_ABORT:
	case EV_UAS_RESET_OK:
	case EV_UAS_RESET_FAIL:
		if (ev->kind == EV_UAS_RESET_START)
			log->pending_uas_reset_host = ev->scsi_host;
		else if (ev->kind != EV_UAS_ABORT)
			log->pending_uas_reset_host = -1;
		if (ev->kind == EV_UAS_ABORT && ev->is_write)
			s->uas_write_aborts++;
		cat_add(log, &s->cat[CAT_UAS], lineno, text);
		break;
	case EV_SYNC_CACHE_FAIL:
		/* an unplugged drive cannot flush its cache: no error of its own */
		if (!s->gone)
			cat_add(log, &s->cat[CAT_IO], lineno, text);
		break;
	case EV_MMC_CARD_NEW:
		on_mmc_card_new(s, ev, lineno);
		break;
	case EV_MMC_BLK:
		on_mmc_blk(log, s, ev);
		break;
	case EV_MMC_REMOVED:
		s->mmc_up = false;
		break;
	case EV_NVME_PCI: {
		size_t n = strcspn(ev->arg, " ");

		if (n < sizeof(s->pci)) {
			memcpy(s->pci, ev->arg, n);
			s->pci[n] = '\0';
		}
		break;
	}
	case EV_PCIE_AER:
		cat_add(log, &s->cat[CAT_AER], lineno, text);
		if (ev->aer_fatal)
			s->aer_uncorrected++;
		break;
	case EV_PCIE_LINK_UP:
	case EV_PCIE_BW_LIMITED:
		if (ev->gts <= 0 && ev->kind == EV_PCIE_LINK_UP) {
			/* a vendor driver's "PCIe Link up, LTSSM is 0x130011": no speed */
			cat_add(log, &s->cat[CAT_PCIE], lineno, text);
			break;
		}
		s->gts = ev->gts;
		s->width = ev->width;
		if (ev->cap_gts > 0) {
			s->cap_gts = ev->cap_gts;
			s->cap_width = ev->cap_width;
		}
		cat_add(log, &s->cat[CAT_PCIE], lineno, text);
		break;
	case EV_CMDLINE:
		on_cmdline(log, ev, text, lineno);
		break;
	case EV_MODEL:
		str_copy(log->model, sizeof(log->model), ev->arg);
		str_sanitize(log->model);
		break;
	case EV_ROOT_WAIT:
		str_copy(log->root_disk, sizeof(log->root_disk), ev->disk);
		break;
	case EV_BOOT:
		boot_start(log, lineno);
		break;
	case EV_SD_MAP:
	case EV_VOLT_OK:
	case EV_NVME_PS_HINT:
		break; /* resolve() linked the subject, or the rules read the count */
	default:
		return false;
	}
	return true;
}

void logsum_add_event(struct diag_log *log, const struct diag_event *ev, const char *text,
		      unsigned long lineno)
{
	struct diag_subject *s;

	if (ev->kind == EV_BOOT) {
		note_event(log, log->sys, ev, text, lineno); /* before the boot's counts */
		return;
	}
	log->boot_msgs++;
	if (ev->kind == EV_XHCI_DEAD && log->boot < LOG_BOOTS_MAX && !log->host_dead_line[log->boot])
		log->host_dead_line[log->boot] = lineno;
	s = subject_for(log, ev, lineno);
	s->n_ev[ev->kind]++;
	if ((diag_event_flags(ev->kind) & EVF_UAS) && !s->driver)
		s->driver = USB_DRIVER_UAS;
	if (diag_event_flags(ev->kind) & EVF_MMC) {
		if (ev->err == -EILSEQ)
			s->mmc_crc++;
		else if (ev->err == -ETIMEDOUT)
			s->mmc_timeout++;
		if (strstr(text, "recovery failed"))
			s->mmc_recovery_failed = true;
		if (ev->kind == EV_MMC_INIT_ERR && strstr(text, "whilst initialising"))
			s->mmc_init_failed++;
	}
	if (ev->kind == EV_NVME_DOWN && strstr(text, "aborting reset"))
		s->nvme_reset_failed++;
	if (ev->kind == EV_NVME_TIMEOUT && strstr(text, "completion polled"))
		s->nvme_polled++;
	if (ev_cat[ev->kind] == C(NVME) && !s->cat[CAT_NVME].count && log->cur_ts > 0)
		s->nvme_first_ts = log->cur_ts;
	if (ev_cat[ev->kind])
		cat_add(log, &s->cat[ev_cat[ev->kind] - 1], lineno, text);
	else
		note_event(log, s, ev, text, lineno);
}

bool logsum_event_handled(enum diag_ev_kind kind)
{
	struct diag_event ev = { .kind = kind, .scsi_host = -1, .arg = "" };
	struct diag_log *log;
	bool ok;

	if ((unsigned)kind >= EV__COUNT)
		return false;
	if (ev_cat[kind])
		return true;
	if (diag_log_new(&log))
		return false;
	ok = note_event(log, log->sys, &ev, "", 1);
	diag_log_free(log);
	return ok;
}

int logsum_add_line(void *arg, const struct kmsg_line *line)
{
	struct diag_log *log = arg;
	struct diag_event ev;

	if (!log->messages++)
		log->boot_line[0] = line->lineno;
	if (line->last_lineno > log->lines)
		log->lines = line->last_lineno; /* a wrapped message's last piece */
	log->nonblank = line->nonblank;
	log->cur_ts = line->ts;
	log->cur_line = line->lineno;
	log->cur_last_line = line->last_lineno;
	log->cur_text = line->text;
	log->cur_msg_off = line->msg >= line->text && line->msg <= line->text + strlen(line->text) ?
				   (size_t)(line->msg - line->text) : 0;
	if (line->ts >= 0) {
		/* the time since boot went back to (near) zero: the machine booted again */
		if (line->ts + 1.0 < log->last_ts && line->ts < 10.0)
			boot_start(log, line->lineno);
		log->last_ts = line->ts;
	}
	log->recognised += line->wrapped; /* the tails of a wrapped message */
	if (diag_event_parse(line->msg, line->msg_len, &ev)) {
		log->recognised++;
		logsum_add_event(log, &ev, line->text, line->lineno);
	} else if (line->prefixed || kmsg_looks_kernel(line->msg)) {
		log->recognised++;
	}
	return 0;
}

/* The one USB storage device trouble without a device name must be about, or NULL. */
static struct diag_subject *only_usb_disk(struct diag_log *log, int boot)
{
	struct diag_subject *found = NULL, *s;
	size_t i;
	int pass;

	/* first the USB devices that had trouble, then any USB disk */
	for (pass = 0; pass < 2; pass++) {
		found = NULL;
		for (i = 0; i < log->n_subj; i++) {
			s = log->subj[i];
			if (s->boot != boot)
				continue;
			if (s->kind == SUBJ_XHCI || s->kind == SUBJ_PCI || s->kind == SUBJ_MMC ||
			    s->kind == SUBJ_NVME || s->is_hub)
				continue;
			if (pass == 0 && !s->cat[CAT_USB].count && !s->cat[CAT_UAS].count)
				continue;
			if (pass == 1 && !(s->scsi_host >= 0 || !strncmp(s->disk, "sd", 2)))
				continue;
			if (found)
				return NULL;
			found = s;
		}
		if (found)
			return found;
	}
	return NULL;
}

void logsum_finish(struct diag_log *log)
{
	size_t i;

	if (log->finished)
		return;
	log->finished = true;
	for (i = 0; i < log->n_subj; i++)
		mode_switch_forgive(log, log->subj[i]);
	for (i = 0; i < log->n_subj; i++) {
		struct diag_subject *s = log->subj[i], *target;

		if (s->kind != SUBJ_XHCI || !s->cat[CAT_USB].count)
			continue;
		/* a dead host is the finding itself: its trouble stays with it */
		if (s->cat[CAT_HOSTDEAD].count)
			continue;
		target = only_usb_disk(log, s->boot);
		if (!target)
			continue;
		cat_merge(&target->cat[CAT_USB], &s->cat[CAT_USB]);
		target->n_ev[EV_XHCI_TRDEQ] += s->n_ev[EV_XHCI_TRDEQ];
		target->n_ev[EV_XHCI_STOP_EP] += s->n_ev[EV_XHCI_STOP_EP];
		target->n_ev[EV_XHCI_STREAMS] += s->n_ev[EV_XHCI_STREAMS];
		target->n_ev[EV_XHCI_EP_DISABLED] += s->n_ev[EV_XHCI_EP_DISABLED];
		memset(&s->cat[CAT_USB], 0, sizeof(s->cat[CAT_USB]));
	}
}

int diag_log_parse_buf(struct diag_log *log, const char *buf, size_t n)
{
	return kmsg_read_buf(buf, n, logsum_add_line, log);
}

int diag_log_parse_file(struct diag_log *log, FILE *f)
{
	return kmsg_read_file(f, logsum_add_line, log);
}

int diag_log_parse_fd(struct diag_log *log, int fd)
{
	return kmsg_read_fd(fd, logsum_add_line, log);
}
