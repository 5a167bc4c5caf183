/* t-config.c - config.txt: lines written back byte for byte; dtparam=pciex1_gen lands where a
 * Raspberry Pi 5 reads it, replaces an existing setting instead of adding a second one. */
#include "fix/config.h"
#include "common/util.h"
#include "t.h"

/* Raspberry Pi OS Bookworm's default config.txt, shortened: it ends in [all]. */
static const char bookworm[] =
	"# For more options and information see\n"
	"# http://rptl.io/configtxt\n"
	"dtparam=audio=on\n"
	"camera_auto_detect=1\n"
	"dtoverlay=vc4-kms-v3d\n"
	"max_framebuffers=2\n"
	"arm_64bit=1\n"
	"\n"
	"[cm4]\n"
	"otg_mode=1\n"
	"\n"
	"[cm5]\n"
	"dtoverlay=dwc2,dr_mode=host\n"
	"\n"
	"[all]\n";

static int set_gen(const char *in, int gen, struct sbuf *out, struct fix_msgs *m, bool *changed)
{
	struct config cfg;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = config_parse(in, strlen(in), &cfg);
	if (!ret)
		ret = config_pcie_gen_set(&cfg, gen, m, changed);
	if (!ret)
		ret = config_write(&cfg, out);
	config_release(&cfg);
	return ret;
}

static void expect(const char *in, int gen, const char *want, bool want_changed)
{
	struct sbuf out = SBUF_INIT(1 << 20), again = SBUF_INIT(1 << 20);
	struct fix_msgs m;
	bool changed;

	T_EQ_INT(set_gen(in, gen, &out, &m, &changed), 0);
	T_EQ_STR(sbuf_str(&out), want);
	T_EQ_INT(changed, want_changed);
	T_CHECK(m.n > 0);
	/* applying twice is applying once */
	T_EQ_INT(set_gen(sbuf_str(&out), gen, &again, &m, &changed), 0);
	T_EQ_INT(changed, false);
	T_EQ_STR(sbuf_str(&again), want);
	sbuf_release(&out);
	sbuf_release(&again);
}

static void round_trip(const char *in, size_t len)
{
	struct sbuf out = SBUF_INIT(1 << 20);
	struct config cfg;

	T_EQ_INT(config_parse(in, len, &cfg), 0);
	T_EQ_INT(config_write(&cfg, &out), 0);
	T_EQ_INT(out.len, len);
	T_CHECK(!len || !memcmp(out.buf, in, len));
	config_release(&cfg);
	sbuf_release(&out);
}

static void test_round_trip(void)
{
	char nul[] = "a=1\0\n[pi5]\r\nb=2";

	round_trip(bookworm, strlen(bookworm));
	round_trip("", 0);
	round_trip("no newline", 10);
	round_trip("a=1\r\n\r\n# c\r\n[pi4]\r\n", 20);
	round_trip(nul, sizeof(nul) - 1);
}

static void test_placement(void)
{
	char want[2048];

	/* ends in [all]: the line goes at the end */
	str_fmt(want, sizeof(want), "%sdtparam=pciex1_gen=3\n", bookworm);
	expect(bookworm, 3, want, true);
	/* ends in a model section that is not the Pi 5's: [all] first */
	expect("arm_64bit=1\n[cm4]\notg_mode=1\n", 3,
	       "arm_64bit=1\n[cm4]\notg_mode=1\n[all]\ndtparam=pciex1_gen=3\n", true);
	expect("[cm5]\ndtoverlay=dwc2\n", 3,
	       "[cm5]\ndtoverlay=dwc2\n[all]\ndtparam=pciex1_gen=3\n", true);
	expect("[none]\nx=1\n", 3, "[none]\nx=1\n[all]\ndtparam=pciex1_gen=3\n", true);
	expect("[gpio4=1]\nx=1\n", 3, "[gpio4=1]\nx=1\n[all]\ndtparam=pciex1_gen=3\n", true);
	/* ends in [pi5]: stays there */
	expect("a=1\n[pi5]\ndtparam=pciex1\n", 3, "a=1\n[pi5]\ndtparam=pciex1\ndtparam=pciex1_gen=3\n",
	       true);
	/* no final newline, CRLF file */
	expect("arm_64bit=1", 3, "arm_64bit=1\ndtparam=pciex1_gen=3\n", true);
	expect("", 3, "dtparam=pciex1_gen=3\n", true);
}

static void test_replace(void)
{
	/* an existing setting the Pi 5 reads is changed in place, comments kept */
	expect("# fast\n[pi5]\ndtparam=pciex1_gen=2 \n# end\n[all]\n", 3,
	       "# fast\n[pi5]\ndtparam=pciex1_gen=3 \n# end\n[all]\n", true);
	expect("dtparam=pciex1,pciex1_gen=2,foo=bar\r\n", 3,
	       "dtparam=pciex1,pciex1_gen=3,foo=bar\r\n", true);
	expect("dtparam=pciex1_gen=3\n", 2, "dtparam=pciex1_gen=2\n", true);
	/* already set: nothing to do */
	expect("[all]\ndtparam=pciex1_gen=3\n", 3, "[all]\ndtparam=pciex1_gen=3\n", false);
	/* a setting under [pi4] is not the Pi 5's: left alone, a new one added */
	expect("[pi4]\ndtparam=pciex1_gen=2\n", 3,
	       "[pi4]\ndtparam=pciex1_gen=2\n[all]\ndtparam=pciex1_gen=3\n", true);
	/* under a condition: changed, and an unconditional one added for gen 3 */
	expect("[gpio4=1]\ndtparam=pciex1_gen=2\n[all]\n", 3,
	       "[gpio4=1]\ndtparam=pciex1_gen=3\n[all]\ndtparam=pciex1_gen=3\n", true);
	/* a commented-out setting is a comment */
	expect("#dtparam=pciex1_gen=3\n", 3, "#dtparam=pciex1_gen=3\ndtparam=pciex1_gen=3\n", true);
	/* an include is named in the notes */
	{
		struct sbuf out = SBUF_INIT(4096);
		struct fix_msgs m;
		bool changed;

		T_EQ_INT(set_gen("include extra.txt\n", 3, &out, &m, &changed), 0);
		T_CHECK(m.n == 2 && strstr(m.note[0], "includes another file ('include extra.txt')"));
		T_CHECK(strstr(m.note[1], "a section filter it leaves open would hold there") != NULL);
		sbuf_release(&out);
	}
	/*
	 * The firmware inserts an included file's content in place of the include line
	 * (Raspberry Pi documentation, config.txt, "include"): when extra.txt ends inside [cm4],
	 * the lines after the include are [cm4]'s, which a Pi 5 does not read. So the setting
	 * goes after an [all], never straight after an include ("no filter is in force" was
	 * wrong), and a setting between the include and the next [all] is not taken as one
	 * every Pi 5 reads.
	 */
	expect("include extra.txt\n", 3, "include extra.txt\n[all]\ndtparam=pciex1_gen=3\n", true);
	expect("arm_64bit=1\ninclude extra.txt\ndtparam=pciex1_gen=2\n", 3,
	       "arm_64bit=1\ninclude extra.txt\ndtparam=pciex1_gen=3\n[all]\ndtparam=pciex1_gen=3\n",
	       true);
	/* [all] after the include ends whatever it left open: appended without a second [all] */
	expect("include extra.txt\n[all]\n", 3,
	       "include extra.txt\n[all]\ndtparam=pciex1_gen=3\n", true);
	expect("include extra.txt\n[all]\ndtparam=pciex1_gen=3\n", 3,
	       "include extra.txt\n[all]\ndtparam=pciex1_gen=3\n", false);
	/* gen 2 is the default: nothing to add */
	expect(bookworm, 2, bookworm, false);
}

static void test_refusal_and_get(void)
{
	char nul[] = "a=1\0\n";
	struct sbuf out = SBUF_INIT(4096);
	struct config cfg;
	struct fix_msgs m = { 0 };
	char v[64];
	bool changed;

	T_EQ_INT(config_parse(nul, sizeof(nul) - 1, &cfg), 0);
	T_EQ_INT(config_pcie_gen_set(&cfg, 3, &m, &changed), -EINVAL);
	T_CHECK(strstr(m.why, "NUL") != NULL);
	config_release(&cfg);
	T_EQ_INT(set_gen("x=1\n", 4, &out, &m, &changed), -EINVAL);

	T_EQ_INT(config_parse("os_prefix=a/\n[pi4]\nos_prefix=b/\n[all]\ncmdline = c.txt \n", 54,
			      &cfg), 0);
	T_EQ_INT(config_get(&cfg, "os_prefix", v, sizeof(v)), 0);
	T_EQ_STR(v, "a/");
	T_EQ_INT(config_get(&cfg, "cmdline", v, sizeof(v)), 0);
	T_EQ_STR(v, "c.txt");
	T_EQ_INT(config_get(&cfg, "kernel", v, sizeof(v)), -ENOENT);
	config_release(&cfg);
	sbuf_release(&out);
}

static void sd_cqe(const char *in, const char *want, bool want_changed)
{
	struct sbuf out = SBUF_INIT(1 << 20);
	struct config cfg;
	struct fix_msgs m = { 0 };
	bool changed;

	T_EQ_INT(config_parse(in, strlen(in), &cfg), 0);
	T_EQ_INT(config_sd_cqe_off(&cfg, &m, &changed), 0);
	T_EQ_INT(config_write(&cfg, &out), 0);
	T_EQ_STR(sbuf_str(&out), want);
	T_EQ_INT(changed, want_changed);
	T_CHECK(m.n > 0);
	config_release(&cfg);
	sbuf_release(&out);
}

/* fix sd-cqe: dtparam=sd_cqe=off where a Pi 5 reads it, once */
static void test_sd_cqe(void)
{
	sd_cqe("dtparam=audio=on\n", "dtparam=audio=on\ndtparam=sd_cqe=off\n", true);
	sd_cqe("dtparam=audio=on,sd_cqe=on\n", "dtparam=audio=on,sd_cqe=off\n", true);
	sd_cqe("[pi5]\ndtparam=sd_cqe=1\n", "[pi5]\ndtparam=sd_cqe=off\n", true);
	sd_cqe("dtparam=sd_cqe=off\n", "dtparam=sd_cqe=off\n", false);
	/* a [pi4] line is not the Pi 5's: the setting goes to [all] */
	sd_cqe("[pi4]\ndtparam=sd_cqe=on\n",
	       "[pi4]\ndtparam=sd_cqe=on\n[all]\ndtparam=sd_cqe=off\n", true);
}

int main(void)
{
	test_sd_cqe();
	test_round_trip();
	test_placement();
	test_replace();
	test_refusal_and_get();
	return t_done();
}
