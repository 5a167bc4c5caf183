/* t-quirks.c - the US_FL_* decoder and the UAS quirk table shipped from
 * data/unusual-uas.tsv. */
#include <stdio.h>

#include "t.h"
#include "diag/uas-quirks.h"
#include "common/util.h"

int main(void)
{
	const struct uas_quirk_entry *q;
	char buf[256];
	size_t i;

	T_EQ_INT(usbq_flags_decode(0x1800000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "IGNORE_UAS|BROKEN_FUA");
	T_EQ_INT(usbq_flags_decode(0x2400000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "NEEDS_CAP16|NO_ATA_1X");
	T_EQ_INT(usbq_flags_decode(0x800000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "IGNORE_UAS");
	T_EQ_INT(usbq_flags_decode(0x100000000ULL, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "0x100000000");
	T_EQ_INT(usbq_flags_decode(0xffffffffULL, buf, 8), -E2BIG);
	/* the flags in words, for a finding: the names and what they do */
	T_EQ_INT(usbq_flags_explain(0x1800000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "quirk flags 0x1800000: IGNORE_UAS|BROKEN_FUA (use usb-storage instead of "
		      "uas; the bridge does not honour forced-unit-access writes)");
	T_EQ_INT(usbq_flags_explain(0x400000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "quirk flags 0x400000: NEEDS_CAP16");
	T_EQ_INT(usbq_flags_explain(0x1800000, buf, 20), -E2BIG);
	T_EQ_INT(usbq_flag_letter(US_FL_IGNORE_UAS), 'u');

	/* the table: every entry of the data file, the JMS567 entry as the kernel has it */
	T_CHECK(uas_quirk_table_len >= 40);
	q = uas_quirk_find(0x152d, 0x0578);
	T_CHECK(q != NULL);
	if (q) {
		T_EQ_INT(q->flags, US_FL_BROKEN_FUA);
		T_EQ_INT(q->status, UASQ_MAINLINE);
	}
	q = uas_quirk_find(0x0bda, 0x9210); /* the HIKSEMI rule wins over fork and history */
	T_CHECK(q && q->status == UASQ_RULE);
	q = uas_quirk_find(0x0bc2, 0x1234); /* Seagate: vendor-wide rule */
	T_CHECK(q && q->any_pid);
	T_CHECK(uas_quirk_find(0x1234, 0x5678) == NULL);
	for (i = 0; i < uas_quirk_table_len; i++) {
		T_CHECK(uas_quirk_table[i].vendor[0] != '\0');
		T_CHECK(uas_quirk_table[i].bcd_min <= uas_quirk_table[i].bcd_max);
	}

	return t_done();
}
