/* t-util.c - the string, number and size helpers.
 * Strict parsing is what keeps garbage sysfs values from turning into numbers. */
#include "common/usb.h"
#include "common/util.h"
#include "t.h"

int main(void)
{
	char buf[16];
	uint64_t u;
	int64_t s;
	double d;

	/* the driver of a storage interface, as the layers compare it */
	T_EQ_INT(usb_driver_parse("uas"), USB_DRIVER_UAS);
	T_EQ_INT(usb_driver_parse("usb-storage"), USB_DRIVER_STORAGE);
	T_EQ_INT(usb_driver_parse("uas2"), USB_DRIVER_OTHER);
	T_EQ_INT(usb_driver_parse(""), USB_DRIVER_UNKNOWN);
	T_EQ_INT(usb_driver_parse(NULL), USB_DRIVER_UNKNOWN);

	T_EQ_INT(str_copy(buf, sizeof(buf), "hello"), 0);
	T_EQ_STR(buf, "hello");
	T_EQ_INT(str_copy(buf, 4, "hello"), -E2BIG);
	T_EQ_STR(buf, "hel");
	T_EQ_INT(str_fmt(buf, 6, "%d", 123456), -E2BIG);
	T_EQ_STR(buf, "12345");

	{
		char t[] = "  \t KINGSTON SH103S3   \n";
		T_EQ_STR(str_trim(t), "KINGSTON SH103S3");
		char e[] = "   ";
		T_EQ_STR(str_trim(e), "");
	}

	T_EQ_INT(parse_u64("  42\n", &u), 0);
	T_EQ_INT(u, 42);
	T_EQ_INT(parse_u64("42abc", &u), -EINVAL);
	T_EQ_INT(parse_u64("-1", &u), -EINVAL);
	T_EQ_INT(parse_u64("", &u), -EINVAL);
	T_EQ_INT(parse_u64("99999999999999999999999", &u), -ERANGE);
	T_EQ_INT(parse_u64_base("0x1f", 0, &u), 0);
	T_EQ_INT(u, 31);
	T_EQ_INT(parse_u64_base("152d", 16, &u), 0);
	T_EQ_INT(u, 0x152d);
	T_EQ_INT(parse_s64("-17", &s), 0);
	T_EQ_INT(s, -17);
	T_EQ_INT(parse_double("5.0", &d), 0);
	T_NEAR(d, 5.0, 1e-12);
	T_EQ_INT(parse_double("nan", &d), -EINVAL);
	T_EQ_INT(parse_double("2.5 GT/s", &d), -EINVAL);

	T_CHECK(str_is_clean_utf8("Samsung SSD 970 EVO"));
	T_CHECK(str_is_clean_utf8("caf\xc3\xa9"));
	T_CHECK(!str_is_clean_utf8("bad\xff"));
	T_CHECK(!str_is_clean_utf8("ctl\x01"));
	T_CHECK(!str_is_clean_utf8("\xc0\xaf")); /* overlong */
	{
		char t[] = "a\xffz\x01";
		str_sanitize(t);
		T_EQ_STR(t, "a?z?");
	}

	size_to_human(240057409536ull, buf, sizeof(buf));
	T_EQ_STR(buf, "223.6G");
	size_to_human(209715200ull, buf, sizeof(buf));
	T_EQ_STR(buf, "200M");
	size_to_human(512, buf, sizeof(buf));
	T_EQ_STR(buf, "512B");

	T_CHECK(str_starts("usb-storage.quirks=1:2:u", "usb-storage."));
	T_CHECK(!str_starts("usb", "usb-storage"));
	return t_done();
}
