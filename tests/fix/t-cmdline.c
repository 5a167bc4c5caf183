/* t-cmdline.c - cmdline.txt: parse then write gives the same bytes on real and hostile files;
 * the quirks edit merges, dedupes, keeps every other byte, refuses past 127 or two lines. */
#include <dirent.h>
#include <limits.h>

#include "fix/cmdline.h"
#include "common/util.h"
#include "t.h"

static const struct usb_id jms567 = { 0x152d, 0x0578 };

/* Parse, write, compare; also checks the segments alternate and none is empty. */
static void round_trip(const char *buf, size_t len, const char *what)
{
	struct sbuf out = SBUF_INIT(1 << 24);
	struct cmdline cl;
	size_t i;
	int ret = cmdline_parse(buf, len, &cl);

	T_EQ_INT(ret, 0);
	T_EQ_INT(cmdline_write(&cl, &out), 0);
	t_checks++;
	if (out.len != len || (len && memcmp(out.buf, buf, len))) {
		t_failures++;
		fprintf(stderr, "round trip differs: %s\n", what);
	}
	for (i = 0; i < cl.n; i++) {
		T_CHECK(cl.seg[i].len > 0);
		if (i)
			T_CHECK(cl.seg[i].param != cl.seg[i - 1].param || cl.seg[i].param);
	}
	cmdline_release(&cl);
	sbuf_release(&out);
}

/* Run the uas edit on text; the result (or "" on refusal) into out. Returns the code. */
static int edit(const char *text, size_t len, struct usb_id id, struct sbuf *out,
		struct fix_msgs *m, bool *changed)
{
	struct cmdline cl;
	int ret;

	memset(m, 0, sizeof(*m));
	sbuf_reset(out);
	ret = cmdline_parse(text, len, &cl);
	if (!ret)
		ret = cmdline_quirks_add(&cl, id, 'u', m, changed);
	if (!ret)
		ret = cmdline_write(&cl, out);
	cmdline_release(&cl);
	return ret;
}

static void expect_edit(const char *in, const char *want, bool want_changed)
{
	struct sbuf out = SBUF_INIT(1 << 20), again = SBUF_INIT(1 << 20);
	struct fix_msgs m;
	bool changed = !want_changed;
	int ret = edit(in, strlen(in), jms567, &out, &m, &changed);

	T_EQ_INT(ret, 0);
	T_EQ_STR(sbuf_str(&out), want);
	T_EQ_INT(changed, want_changed);
	if (want_changed)
		T_CHECK(m.n > 0);
	/* idempotence: a second run changes nothing */
	ret = edit(out.buf ? out.buf : "", out.len, jms567, &again, &m, &changed);
	T_EQ_INT(ret, 0);
	T_EQ_INT(changed, false);
	T_EQ_STR(sbuf_str(&again), want);
	sbuf_release(&out);
	sbuf_release(&again);
}

static void expect_refusal(const char *in, size_t len, int err, const char *why_part)
{
	struct sbuf out = SBUF_INIT(1 << 20);
	struct fix_msgs m;
	bool changed = true;
	int ret = edit(in, len, jms567, &out, &m, &changed);

	T_EQ_INT(ret, err);
	T_EQ_INT(changed, false);
	t_checks++;
	if (!strstr(m.why, why_part)) {
		t_failures++;
		fprintf(stderr, "refusal '%s' lacks '%s'\n", m.why, why_part);
	}
	sbuf_release(&out);
}

static void test_real_files(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	const char *src = getenv("SBCDISK_SRCDIR");
	struct sbuf out = SBUF_INIT(1 << 20);
	struct dirent *de;
	int files = 0;
	DIR *d;

	str_fmt(dir, sizeof(dir), "%s/tests/fix/data/cmdline", src ? src : ".");
	d = opendir(dir);
	T_CHECK(d != NULL);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char buf[8192];
		struct fix_msgs m;
		bool changed;
		size_t n;
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		str_fmt(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		files++;
		round_trip(buf, n, de->d_name);
		/* edit: either a clean change or the 127 refusal (the HAOS list) */
		if (!edit(buf, n, jms567, &out, &m, &changed)) {
			size_t before_len = n;

			round_trip(out.buf ? out.buf : "", out.len, de->d_name);
			/* the line ends (newline or not) are those of the original */
			T_EQ_INT(out.len && out.buf[out.len - 1] == '\n',
				 before_len && buf[before_len - 1] == '\n');
		} else {
			T_CHECK(strstr(de->d_name, "haos") != NULL);
		}
	}
	closedir(d);
	T_CHECK(files >= 6);
	sbuf_release(&out);
}

static void test_hostile_round_trip(void)
{
	static const char *const cases[] = {
		"",
		"\n",
		"   \n\n",
		"a\tb\t\tc\n",
		"root=x rootwait\r\n",
		"root=x\r\nsecond=line\r\n",
		"no_newline_at_all",
		"a b\n\nc d\n",
		"quoted=\"a b c\" x=\"unterminated\n",
		"\"\"\"\n",
		"\v\f mixed \t\r\n",
		"usb-storage.quirks=\"152d:0578:u\" a",
	};
	char nul[] = "root=x\0y rootwait\n";
	char *big;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		round_trip(cases[i], strlen(cases[i]), cases[i]);
	round_trip(nul, sizeof(nul) - 1, "NUL bytes");
	big = malloc(200001);
	for (i = 0; i < 200000; i++)
		big[i] = i % 7 == 6 ? ' ' : (i % 13 == 0 ? '\t' : 'a' + (char)(i % 26));
	big[200000] = '\n';
	round_trip(big, 200001, "200 kB line");
	free(big);
}

static void test_merge(void)
{
	/* no parameter yet: appended after the last one, the line end kept */
	expect_edit("console=tty1 root=PARTUUID=5487497e-02 rootwait\n",
		    "console=tty1 root=PARTUUID=5487497e-02 rootwait usb-storage.quirks=152d:0578:u\n",
		    true);
	expect_edit("root=x rootwait", "root=x rootwait usb-storage.quirks=152d:0578:u", true);
	expect_edit("root=x rootwait\r\n", "root=x rootwait usb-storage.quirks=152d:0578:u\r\n",
		    true);
	expect_edit("  root=x\trootwait\t\n\n",
		    "  root=x\trootwait usb-storage.quirks=152d:0578:u\t\n\n", true);
	/* an existing list: appended, spelling and position kept */
	expect_edit("usb-storage.quirks=174c:55aa:u console=tty1 root=x\n",
		    "usb-storage.quirks=174c:55aa:u,152d:0578:u console=tty1 root=x\n", true);
	expect_edit("root=x usb_storage.quirks=0bc2:231a:u rootwait\n",
		    "root=x usb_storage.quirks=0bc2:231a:u,152d:0578:u rootwait\n", true);
	/* the device's entry gets the flag; case and 0x as the kernel reads them */
	expect_edit("root=x usb-storage.quirks=152D:0578:m\n",
		    "root=x usb-storage.quirks=152D:0578:mu\n", true);
	expect_edit("root=x usb-storage.quirks=0x152d:0x0578:\n",
		    "root=x usb-storage.quirks=0x152d:0x0578:u\n", true);
	/* already there: nothing changes, whatever the case of the flag */
	expect_edit("root=x usb-storage.quirks=152d:0578:u\n",
		    "root=x usb-storage.quirks=152d:0578:u\n", false);
	expect_edit("root=x usb-storage.quirks=174c:55aa:u,152d:0578:mU\n",
		    "root=x usb-storage.quirks=174c:55aa:u,152d:0578:mU\n", false);
	/* later entries for the same device were never used: removed */
	expect_edit("root=x usb-storage.quirks=152d:0578:m,174c:55aa:u,152D:0578:u\n",
		    "root=x usb-storage.quirks=152d:0578:mu,174c:55aa:u\n", true);
	/* malformed entries and empty ones are kept byte for byte */
	expect_edit("root=x usb-storage.quirks=zzzz,,152d\n",
		    "root=x usb-storage.quirks=zzzz,,152d,152d:0578:u\n", true);
	expect_edit("usb-storage.quirks= root=x\n",
		    "usb-storage.quirks=152d:0578:u root=x\n", true);
	expect_edit("root=x usb-storage.quirks=174c:55aa:u,\n",
		    "root=x usb-storage.quirks=174c:55aa:u,152d:0578:u\n", true);
	/* a quoted value stays quoted */
	expect_edit("root=x usb-storage.quirks=\"174c:55aa:u\"\n",
		    "root=x usb-storage.quirks=\"174c:55aa:u,152d:0578:u\"\n", true);
	/* names that are not the parameter */
	expect_edit("usbstorage.quirks=1:2:u usb-storage.quirksx=1 root=x\n",
		    "usbstorage.quirks=1:2:u usb-storage.quirksx=1 root=x "
		    "usb-storage.quirks=152d:0578:u\n", true);
	/* 152d:05780 is not 152d:0578 */
	expect_edit("root=x usb-storage.quirks=152d:05780:u\n",
		    "root=x usb-storage.quirks=152d:05780:u,152d:0578:u\n", true);
	/* several parameters: merged into the last, the earlier ones removed */
	expect_edit("a usb-storage.quirks=1111:2222:u b usb_storage.quirks=3333:4444:u c\n",
		    "a b usb_storage.quirks=3333:4444:u,152d:0578:u c\n", true);
	expect_edit("usb-storage.quirks=1111:2222:u a usb-storage.quirks=152d:0578:u\n",
		    "a usb-storage.quirks=152d:0578:u\n", true);
	expect_edit("a usb-storage.quirks=1:1:u usb-storage.quirks=2:2:u usb-storage.quirks=3:3:u\n",
		    "a usb-storage.quirks=3:3:u,152d:0578:u\n", true);
}

static void test_limit(void)
{
	char line[512], list[200];
	size_t i;

	/* 9 entries of 11 characters and 8 commas: 107; with ",152d:0578:u" (12): 119 */
	for (i = 0, list[0] = '\0'; i < 9; i++)
		str_fmt(list + strlen(list), sizeof(list) - strlen(list), "%s1111:%04zx:u",
			i ? "," : "", i);
	/* pad the first entry's flags to reach exactly 115: the result is 127, accepted */
	str_fmt(line, sizeof(line), "root=x usb-storage.quirks=%s%s\n", list, "rrrrrrrr");
	{
		struct sbuf out = SBUF_INIT(4096), q = SBUF_INIT(4096);
		struct cmdline cl;
		struct fix_msgs m;
		bool changed;

		T_EQ_INT(edit(line, strlen(line), jms567, &out, &m, &changed), 0);
		cmdline_parse(out.buf, out.len, &cl);
		T_EQ_INT(cmdline_quirks_get(&cl, &q), 0);
		T_EQ_INT(q.len, 127);
		cmdline_release(&cl);
		sbuf_release(&out);
		sbuf_release(&q);
	}
	/* one character more: 128, refused, nothing changed */
	str_fmt(line, sizeof(line), "root=x usb-storage.quirks=%s%s\n", list, "rrrrrrrrr");
	expect_refusal(line, strlen(line), -ENOSPC, "would be 128 characters");
	/* a list already past the limit (Home Assistant OS: 179): the kernel ignores it */
	str_fmt(line, sizeof(line),
		"root=x usb-storage.quirks=174c:55aa:u,2109:0715:u,152d:0578:u,152d:0579:u,"
		"152d:1561:u,174c:0829:u,14b0:0206:u,174c:225c:u,7825:a2a4:u,152d:0562:u,"
		"125f:a88a:u,152d:a583:u,152d:a578:u,152d:0583:u,0bda:9201:u cma=256M\n");
	expect_refusal(line, strlen(line), -ENOSPC, "already 179 characters");
}

static void test_refusals(void)
{
	char nul[] = "root=x\0y rootwait\n";

	/* more than one line: the first is the command line; the edit goes there and the rest
	 * stays as it is (a quirks parameter on line 3 is not the kernel's) */
	expect_edit("root=x rootwait\nquiet splash\n",
		    "root=x rootwait usb-storage.quirks=152d:0578:u\nquiet splash\n", true);
	expect_edit("root=x\r\n\r\nusb-storage.quirks=1:1:u\r\n",
		    "root=x usb-storage.quirks=152d:0578:u\r\n\r\nusb-storage.quirks=1:1:u\r\n", true);
	expect_refusal("\nroot=x\n", 8, -EINVAL, "its first line holds no kernel parameters");
	/* after "--" the kernel hands the words to init: the quirk goes before it */
	expect_edit("root=x rootwait -- single\n",
		    "root=x rootwait usb-storage.quirks=152d:0578:u -- single\n", true);
	expect_edit("-- single\n", "usb-storage.quirks=152d:0578:u -- single\n", true);
	expect_edit("root=x -- usb-storage.quirks=152d:0578:u\n",
		    "root=x usb-storage.quirks=152d:0578:u -- usb-storage.quirks=152d:0578:u\n",
		    true);
	expect_refusal("", 0, -EINVAL, "no kernel parameters");
	expect_refusal(" \n \n", 4, -EINVAL, "no kernel parameters");
	expect_refusal(nul, sizeof(nul) - 1, -EINVAL, "NUL byte");
	expect_refusal("root=x a=\"open\n", 15, -EINVAL, "double quote");
	/* found by fuzz-cmdline: quotes that do not wrap the whole value */
	expect_refusal("usb-storage.quirks=\"1:1:u\"x root=x\n", 33, -EINVAL, "quote inside");
	expect_refusal("usb-storage.quirks=1:\"1\":u root=x\n", 33, -EINVAL, "quote inside");
	/* the kernel's next_arg() takes a parameter quoted as a whole: appending a second one
	 * would make the kernel keep only the new list (the quoted entries lost) */
	expect_refusal("\"usb-storage.quirks=1:2:u\" root=x\n", 34, -EINVAL, "quoted as a whole");
	/* trailing empty and blank lines are one line still */
	expect_edit("root=x\n\n \n", "root=x usb-storage.quirks=152d:0578:u\n\n \n", true);
}

static void test_ids(void)
{
	struct usb_id id;

	T_EQ_INT(usbq_id_parse("152d:0578", &id), 0);
	T_EQ_INT(id.vid, 0x152d);
	T_EQ_INT(id.pid, 0x578);
	T_EQ_INT(usbq_id_parse("152D:0X0578", &id), 0);
	T_EQ_INT(usbq_id_parse("0x2537:0x1066", &id), 0);
	T_EQ_INT(id.vid, 0x2537);
	T_EQ_INT(usbq_id_parse("1:2", &id), 0);
	T_EQ_INT(usbq_id_parse("152d:0578:u", &id), -EINVAL);
	T_EQ_INT(usbq_id_parse("152d0578", &id), -EINVAL);
	T_EQ_INT(usbq_id_parse("12345:0578", &id), -EINVAL);
	T_EQ_INT(usbq_id_parse("152d:", &id), -EINVAL);
	T_EQ_INT(usbq_id_parse(":0578", &id), -EINVAL);
	T_EQ_INT(usbq_id_parse("xyz:0578", &id), -EINVAL);
	T_EQ_INT(usbq_id_parse("", &id), -EINVAL);
	T_EQ_INT(usbq_list_has("174c:55aa:u,152d:0578:U", 23, jms567, 'u'), 1);
	T_EQ_INT(usbq_list_has("152d:0578:m,152d:0578:u", 23, jms567, 'u'), 0);
}

static void param_set(const char *in, const char *want, bool want_changed)
{
	struct sbuf out = SBUF_INIT(1 << 20);
	struct cmdline cl;
	struct fix_msgs m = { 0 };
	bool changed;

	T_EQ_INT(cmdline_parse(in, strlen(in), &cl), 0);
	T_EQ_INT(cmdline_param_set(&cl, "nvme_core.default_ps_max_latency_us", "0", &m, &changed),
		 0);
	T_EQ_INT(cmdline_write(&cl, &out), 0);
	T_EQ_STR(sbuf_str(&out), want);
	T_EQ_INT(changed, want_changed);
	cmdline_release(&cl);
	sbuf_release(&out);
}

/* fix nvme-apst: one parameter set, every other byte kept */
static void test_param_set(void)
{
	param_set("console=tty1 root=/dev/mmcblk0p2 rootwait\n",
		  "console=tty1 root=/dev/mmcblk0p2 rootwait "
		  "nvme_core.default_ps_max_latency_us=0\n", true);
	param_set("root=/dev/sda2  nvme_core.default_ps_max_latency_us=5500 quiet\n",
		  "root=/dev/sda2  nvme_core.default_ps_max_latency_us=0 quiet\n", true);
	/* the kernel's '-' and '_' are one: the existing spelling is replaced, not doubled */
	param_set("root=/dev/sda2 nvme-core.default-ps-max-latency-us=0\n",
		  "root=/dev/sda2 nvme-core.default-ps-max-latency-us=0\n", false);
}

/* the way to uas: the u flag of the device taken out, everything else kept byte for byte */
static void drop_is(const char *in, const char *want)
{
	struct sbuf out = SBUF_INIT(4096);

	T_EQ_INT(usbq_list_drop(in, strlen(in), jms567, 'u', &out), 0);
	T_EQ_STR(sbuf_str(&out), want);
	sbuf_release(&out);
}

static void test_drop(void)
{
	drop_is("152d:0578:u", "");
	drop_is("", "");
	drop_is("174c:55aa:u,152d:0578:u", "174c:55aa:u");
	drop_is("152d:0578:u,174c:55aa:u", "174c:55aa:u");
	drop_is("152d:0578:U", "");
	drop_is("152d:0578:mu", "152d:0578:m");
	drop_is("174c:55aa:u", "174c:55aa:u");
	drop_is("0x152d:0578:u,garbage", "garbage");
	drop_is("a,152d:0578:u,b", "a,b");
}

int main(void)
{
	test_param_set();
	test_real_files();
	test_hostile_round_trip();
	test_merge();
	test_limit();
	test_refusals();
	test_ids();
	test_drop();
	return t_done();
}
