/* uas-quirks.c - look up the kernel's UAS quirk table (data/unusual-uas.tsv, generated into
 * uas-table.c) and name where an entry comes from. */
#include "diag/uas-quirks.h"
#include "common/util.h"

const struct uas_quirk_entry *uas_quirk_find(unsigned vid, unsigned pid)
{
	const struct uas_quirk_entry *best = NULL;
	size_t i;

	for (i = 0; i < uas_quirk_table_len; i++) {
		const struct uas_quirk_entry *e = &uas_quirk_table[i];

		if (e->vid != vid || (!e->any_pid && e->pid != pid))
			continue;
		/* exact before vendor-wide, kernel's before history and proposals */
		if (!best || e->status < best->status ||
		    (e->status == best->status && best->any_pid && !e->any_pid))
			best = e;
	}
	return best;
}

const char *uas_quirk_status_name(enum uas_quirk_status s)
{
	switch (s) {
	case UASQ_MAINLINE:
		return "the kernel's UAS quirk table";
	case UASQ_RULE:
		return "a rule in the kernel's uas-detect.h";
	case UASQ_HISTORICAL:
		return "older kernels' UAS quirk table";
	case UASQ_FORK:
		return "a kernel fork's UAS quirk table";
	case UASQ_PROPOSED:
		return "a proposed kernel patch";
	}
	return "?";
}
