/* fuzz-rootspec.c - how boot files name a file system (common/rootspec.c): root= specs, the
 * root= of a command line and fstab entries. Any bytes: no crash; offsets stay inside the
 * text; the fstab reader always moves on; a tag spec matches the partition that carries it. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/rootspec.h"
#include "common/util.h"

#define ROOTSPEC_FUZZ_MAX (64 * 1024)

static void check(bool ok)
{
	if (!ok)
		abort();
}

static void spec(const char *s, size_t len)
{
	struct rootspec rs;
	struct rootspec_part p = { .name = "sda2", .major = 8, .minor = 2 };
	int ret = rootspec_parse(s, len, &rs);

	check(!ret || ret == -EINVAL || ret == -ENAMETOOLONG);
	if (ret)
		return;
	check(strlen(rs.value) < sizeof(rs.value));
	check(rootspec_kind_name(rs.kind) != NULL);
	switch (rs.kind) {
	case ROOTSPEC_PARTUUID:
		p.partuuid = rs.value;
		break;
	case ROOTSPEC_UUID:
		p.uuid = rs.value;
		break;
	case ROOTSPEC_LABEL:
		p.label = rs.value;
		break;
	case ROOTSPEC_PARTLABEL:
		p.partlabel = rs.value;
		break;
	default:
		rootspec_matches(&rs, &p);
		return;
	}
	/* the partition that carries the very id it names is the one it means */
	check(rs.has_partnroff || !rs.value[0] || rootspec_matches(&rs, &p));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data + 1;
	size_t len = size ? size - 1 : 0, pos = 0, last, off, vlen, n = 0;
	struct fstab_entry *e;
	int ret;

	if (!size || size > ROOTSPEC_FUZZ_MAX)
		return 0;
	switch (data[0] % 3) {
	case 0:
		spec(s, len);
		break;
	case 1:
		ret = rootspec_cmdline_root(s, len, &off, &vlen);
		check(!ret || ret == -ENOENT);
		if (!ret) {
			check(off <= len && vlen <= len - off);
			spec(s + off, vlen);
		}
		break;
	default:
		e = malloc(sizeof(*e));
		if (!e)
			abort();
		for (;;) {
			last = pos;
			ret = rootspec_fstab_next(s, len, &pos, e);
			check(!ret || ret == -ENOENT || ret == -EINVAL);
			if (ret == -ENOENT)
				break;
			check(pos > last && pos <= len && ++n <= len);
			if (ret)
				continue;
			check(e->line_off + e->line_len <= len && e->spec_off >= e->line_off &&
			      e->spec_off + e->spec_len <= e->line_off + e->line_len);
			spec(e->spec, strlen(e->spec));
		}
		free(e);
		break;
	}
	return 0;
}
