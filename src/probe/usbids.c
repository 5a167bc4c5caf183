/* usbids.c - vendor and product names from the system's usb.ids (read through the sysroot),
 * the same database lsusb uses. Missing file: names stay unknown. */
#include <ctype.h>

#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

#define USBIDS_LINES_MAX 200000

/* "xxxx  Name" with exactly four hex digits: the id and the name, or false. */
static bool id_line(const char *s, unsigned *id, const char **name)
{
	char hex[5];
	int i;

	for (i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return false;
		hex[i] = s[i];
	}
	hex[4] = '\0';
	if (s[4] != ' ' || s[5] != ' ')
		return false;
	*id = (unsigned)strtoul(hex, NULL, 16);
	*name = s + 6;
	return true;
}

static void copy_name(char *dst, size_t cap, const char *src)
{
	str_copy(dst, cap, src);
	str_trim(dst);
	str_sanitize(dst);
}

int probe_usbids_lookup(FILE *f, uint16_t vid, uint16_t pid, char *vendor, size_t vcap,
			char *product, size_t pcap)
{
	char *line = NULL;
	size_t cap = 0, lines = 0;
	bool in_vendor = false;
	ssize_t len;
	int ret = -ENOENT;

	vendor[0] = product[0] = '\0';
	while ((len = getline(&line, &cap, f)) > 0 && lines++ < USBIDS_LINES_MAX) {
		const char *name;
		unsigned id;

		if (len > 512 || line[0] == '#')
			continue;
		if (line[0] != '\t') {
			if (in_vendor)
				break; /* the next vendor: the product is not listed */
			if (id_line(line, &id, &name) && id == vid) {
				copy_name(vendor, vcap, name);
				in_vendor = true;
				ret = 0;
			} else if (!isxdigit((unsigned char)line[0])) {
				break; /* the device classes and other lists follow the vendors */
			}
			continue;
		}
		if (in_vendor && line[1] != '\t' && id_line(line + 1, &id, &name) && id == pid) {
			copy_name(product, pcap, name);
			break;
		}
	}
	free(line);
	return ret;
}

void probe_usbids_names(struct sysroot *sr, struct probe_usb *u)
{
	static const char *const paths[] = {PATH_USB_IDS_1, PATH_USB_IDS_2, PATH_USB_IDS_3};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		FILE *f = probe_fopen_regular(sr, paths[i]);

		if (!f)
			continue;
		probe_usbids_lookup(f, u->vid_num, u->pid_num, u->ids_vendor, sizeof(u->ids_vendor),
				    u->ids_product, sizeof(u->ids_product));
		fclose(f);
		return;
	}
}
