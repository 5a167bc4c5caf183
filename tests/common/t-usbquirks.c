/* t-usbquirks.c - the one reader of the usb-storage.quirks format: the value check (length,
 * form), the command line check (the kernel's quoting, repetition) and the argument split. */
#include <stdio.h>

#include "t.h"
#include "common/kcmdline.h"
#include "common/usbquirks.h"
#include "common/util.h"

#define VCHECK(s) usbq_value_check(s, strlen(s))

int main(void)
{
	char v[160], longv[200];
	const char *val;
	size_t i, vlen;
	bool quoted;

	T_EQ_INT(VCHECK("152d:0578:u"), USBQ_OK);
	T_EQ_INT(VCHECK("152d:0578:u,174c:55aa:u"), USBQ_OK);
	T_EQ_INT(VCHECK("0x2537:0x1066:u"), USBQ_OK);
	T_EQ_INT(VCHECK("152d:0578"), USBQ_MALFORMED);
	T_EQ_INT(VCHECK("152d:0578:u,"), USBQ_MALFORMED);
	T_EQ_INT(VCHECK("152d0578u"), USBQ_MALFORMED);
	T_EQ_INT(VCHECK(""), USBQ_MALFORMED);
	memset(longv, 0, sizeof(longv));
	for (i = 0; i < 12; i++)
		str_fmt(longv + strlen(longv), sizeof(longv) - strlen(longv), "%s174c:55%02zx:u",
			i ? "," : "", i);
	T_CHECK(strlen(longv) > 127);
	T_EQ_INT(VCHECK(longv), USBQ_TOO_LONG);
	T_EQ_INT(usbq_cmdline_check("console=tty1 usb-storage.quirks=152d:0578:u rootwait", v,
				      sizeof(v)), USBQ_OK);
	T_EQ_STR(v, "152d:0578:u");
	T_EQ_INT(usbq_cmdline_check("usb-storage.quirks=152d:0578:u usb_storage.quirks=174c:55aa:u",
				      v, sizeof(v)), USBQ_REPEATED);
	T_EQ_STR(v, "174c:55aa:u");
	T_EQ_INT(usbq_cmdline_check("usb-storage.quirks=152d:0578: root=/dev/sda2", v, sizeof(v)),
		 USBQ_MALFORMED);
	T_EQ_INT(usbq_cmdline_check("console=tty1 root=/dev/mmcblk0p2", v, sizeof(v)), USBQ_OK);
	T_EQ_STR(v, "");

	/* the kernel's next_arg() drops the quotes around a value: this is 152d:0578:u */
	T_EQ_INT(usbq_cmdline_check("console=tty1 usb-storage.quirks=\"152d:0578:u\" rootwait", v,
				    sizeof(v)), USBQ_OK);
	T_EQ_STR(v, "152d:0578:u");
	T_EQ_INT(usbq_cmdline_check("usb_storage.quirks=\"152d:0578:u,174c:55aa:u\"\n", v,
				    sizeof(v)), USBQ_OK);
	T_EQ_STR(v, "152d:0578:u,174c:55aa:u");
	/* a quote keeps white space inside one argument: the value is then not a list */
	T_EQ_INT(usbq_cmdline_check("usb-storage.quirks=\"152d:0578:u 174c:55aa:u\" root=x", v,
				    sizeof(v)), USBQ_MALFORMED);
	T_EQ_STR(v, "152d:0578:u 174c:55aa:u");
	/* '-' and '_' are the same in a name; another module's quirks is not ours */
	T_EQ_INT(usbq_cmdline_check("usb-storage-quirks=1 usbhid.quirks=0x1:0x2:0x4", v, sizeof(v)),
		 USBQ_OK);
	T_EQ_STR(v, "");
	T_EQ_INT(usbq_cmdline_check("a usb_storage.quirks=\"\" b", v, sizeof(v)), USBQ_MALFORMED);
	/* only what the kernel reads: the first line (the firmware passes on no other), up to a
	 * "--" (what follows goes to init); fix edits the same part (a fuzz-cmdline crash) */
	T_EQ_INT(usbq_cmdline_check("root=/dev/sda2\nusb-storage.quirks=152d:0578:u\n", v,
				    sizeof(v)), USBQ_OK);
	T_EQ_STR(v, "");
	T_EQ_INT(usbq_cmdline_check("usb-storage.quirks=152d:0578:u\nusb-storage.quirks=1:1:u", v,
				    sizeof(v)), USBQ_OK);
	T_EQ_STR(v, "152d:0578:u");
	T_EQ_INT(usbq_cmdline_check("root=/dev/sda2 -- usb-storage.quirks=152d:0578:u", v,
				    sizeof(v)), USBQ_OK);
	T_EQ_STR(v, "");

	T_EQ_INT(kcmdline_arg_len("a=\"b c\" d", 9), 7);
	T_EQ_INT(kcmdline_arg_len("a=\"b\nc\"", 7), 4);
	T_CHECK(kcmdline_param_is("usb_storage.quirks=x", 20, "usb-storage.quirks"));
	T_CHECK(!kcmdline_param_is("usb-storage.quirk=x", 19, "usb-storage.quirks"));
	kcmdline_param_value("q=\"1:2:u\"", 9, &val, &vlen, &quoted);
	T_CHECK(quoted && vlen == 5 && !memcmp(val, "1:2:u", 5));
	kcmdline_param_value("q=1:2:u", 7, &val, &vlen, &quoted);
	T_CHECK(!quoted && vlen == 5 && !memcmp(val, "1:2:u", 5));
	return t_done();
}
