/* t-quirks.c - the US_FL_* decoder, the UAS quirk table shipped from data/unusual-uas.tsv,
 * and the usb-storage.quirks checks (length, form, repetition). */
#include <stdio.h>

#include "t.h"
#include "diag/quirks.h"
#include "common/util.h"

int main(void)
{
	const struct uas_quirk_entry *q;
	char buf[256], v[160], longv[200];
	size_t i;

	T_EQ_INT(usfl_decode(0x1800000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "IGNORE_UAS|BROKEN_FUA");
	T_EQ_INT(usfl_decode(0x2400000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "NEEDS_CAP16|NO_ATA_1X");
	T_EQ_INT(usfl_decode(0x800000, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "IGNORE_UAS");
	T_EQ_INT(usfl_decode(0x100000000ULL, buf, sizeof(buf)), 0);
	T_EQ_STR(buf, "0x100000000");
	T_EQ_INT(usfl_decode(0xffffffffULL, buf, 8), -E2BIG);
	T_EQ_INT(usfl_letter(US_FL_IGNORE_UAS), 'u');

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

	T_EQ_INT(diag_quirks_value_check("152d:0578:u"), QP_OK);
	T_EQ_INT(diag_quirks_value_check("152d:0578:u,174c:55aa:u"), QP_OK);
	T_EQ_INT(diag_quirks_value_check("0x2537:0x1066:u"), QP_OK);
	T_EQ_INT(diag_quirks_value_check("152d:0578"), QP_MALFORMED);
	T_EQ_INT(diag_quirks_value_check("152d:0578:u,"), QP_MALFORMED);
	T_EQ_INT(diag_quirks_value_check("152d0578u"), QP_MALFORMED);
	T_EQ_INT(diag_quirks_value_check(""), QP_MALFORMED);
	memset(longv, 0, sizeof(longv));
	for (i = 0; i < 12; i++)
		str_fmt(longv + strlen(longv), sizeof(longv) - strlen(longv), "%s174c:55%02zx:u",
			i ? "," : "", i);
	T_CHECK(strlen(longv) > 127);
	T_EQ_INT(diag_quirks_value_check(longv), QP_TOO_LONG);
	T_EQ_INT(diag_quirks_cmdline_check("console=tty1 usb-storage.quirks=152d:0578:u rootwait", v,
				      sizeof(v)), QP_OK);
	T_EQ_STR(v, "152d:0578:u");
	T_EQ_INT(diag_quirks_cmdline_check("usb-storage.quirks=152d:0578:u usb_storage.quirks=174c:55aa:u",
				      v, sizeof(v)), QP_REPEATED);
	T_EQ_STR(v, "174c:55aa:u");
	T_EQ_INT(diag_quirks_cmdline_check("usb-storage.quirks=152d:0578: root=/dev/sda2", v, sizeof(v)),
		 QP_MALFORMED);
	T_EQ_INT(diag_quirks_cmdline_check("console=tty1 root=/dev/mmcblk0p2", v, sizeof(v)), QP_OK);
	T_EQ_STR(v, "");
	return t_done();
}
