/* t-bootcfg-eval.c - config.txt evaluated for a board: every filter kind, how filters
 * combine, include nesting and loops, cmdline= under a board filter, unknowable filters. */
#include "common/bootcfg-eval.h"
#include "common/util.h"
#include "t.h"

/* A boot partition in memory: file names and contents, NULL-terminated pairs. */
static int mem_read(void *arg, const char *name, size_t cap, struct sbuf *out)
{
	const char *const *f = arg;

	sbuf_init(out, cap);
	for (; f[0]; f += 2)
		if (!strcmp(f[0], name))
			return sbuf_adds(out, f[1]);
	return -ENOENT;
}

static struct config_board board(const char *name)
{
	struct config_board b;

	T_EQ_INT(config_board_parse(name, &b), 0);
	return b;
}

/* The command line file the firmware reads on board, or the error. */
static int cmdline_of(const char *const *files, const struct config_board *b, char *out,
		      size_t cap, struct config_eval *ev)
{
	struct config_source src = { .read = mem_read, .arg = (void *)files };
	int ret = config_eval(&src, b, ev);

	str_copy(out, cap, ret ? "" : ev->cmdline_file);
	return ret;
}

#define EXPECT_FILE(files, b, want)                                       \
	do {                                                              \
		struct config_eval ev_;                                   \
		char f_[256];                                             \
		T_EQ_INT(cmdline_of(files, b, f_, sizeof(f_), &ev_), 0);  \
		T_EQ_STR(f_, want);                                       \
	} while (0)

static void test_board(void)
{
	struct config_board b;

	T_EQ_INT(config_board_parse("pi5", &b), 0);
	T_EQ_INT((int)b.type, 0x17);
	T_EQ_INT(config_board_parse("cm4", &b), 0);
	T_EQ_INT((int)b.type, 0x14);
	T_EQ_INT(config_board_parse("pi400", &b), 0);
	T_EQ_INT((int)b.type, 0x13);
	T_EQ_INT(config_board_parse("0x18", &b), 0);
	T_EQ_INT((int)b.type, 0x18);
	T_EQ_INT(config_board_parse("pi9", &b), -EINVAL);
	T_EQ_INT(config_board_parse("0x77", &b), -EINVAL);
}

static void test_filters(void)
{
	struct config_board p5 = board("pi5"), cm5 = board("cm5"), p500 = board("pi500");
	struct config_board p4 = board("pi4"), p400 = board("pi400"), cm4 = board("cm4");
	struct config_board cm4s = board("cm4s"), p02 = board("pi02"), p3p = board("pi3+");
	struct config_board none = { 0 };

	T_EQ_INT(config_board_filter(&p5, "pi5"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p5, "pi4"), CONFIG_MATCH_NO);
	T_EQ_INT(config_board_filter(&p5, "cm5"), CONFIG_MATCH_NO);
	T_EQ_INT(config_board_filter(&cm5, "pi5"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&cm5, "cm5"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p500, "pi500"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p500, "pi5"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p400, "pi4"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p400, "pi400"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p4, "pi400"), CONFIG_MATCH_NO);
	T_EQ_INT(config_board_filter(&cm4, "cm4"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&cm4, "cm4s"), CONFIG_MATCH_NO);
	T_EQ_INT(config_board_filter(&cm4s, "cm4s"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p02, "pi0"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p02, "pi0w"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p02, "pi02"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p3p, "pi3"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p3p, "pi1"), CONFIG_MATCH_NO);
	T_EQ_INT(config_board_filter(&cm4, "board-type=0x14"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p4, "board-type=0x14"), CONFIG_MATCH_NO);
	T_EQ_INT(config_board_filter(&p5, "all"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p5, "none"), CONFIG_MATCH_NO);
	T_EQ_INT(config_board_filter(&p5, "tryboot"), CONFIG_MATCH_NO);
	p5.tryboot = true;
	T_EQ_INT(config_board_filter(&p5, "tryboot"), CONFIG_MATCH_YES);
	/* what cannot be known offline, or for a board whose model is unknown */
	T_EQ_INT(config_board_filter(&p5, "gpio4=1"), CONFIG_MATCH_UNKNOWN);
	T_EQ_INT(config_board_filter(&p5, "edid=del-dell_u2422h"), CONFIG_MATCH_UNKNOWN);
	T_EQ_INT(config_board_filter(&p5, "hdmi:0"), CONFIG_MATCH_UNKNOWN);
	T_EQ_INT(config_board_filter(&p5, "0x12345678"), CONFIG_MATCH_UNKNOWN);
	T_EQ_INT(config_board_filter(&p5, "frobnicate"), CONFIG_MATCH_UNKNOWN);
	T_EQ_INT(config_board_filter(&none, "pi5"), CONFIG_MATCH_UNKNOWN);
	p5.serial = 0x1000000012345678ull;
	p5.has_serial = true;
	T_EQ_INT(config_board_filter(&p5, "0x12345678"), CONFIG_MATCH_YES);
	T_EQ_INT(config_board_filter(&p5, "0x12345679"), CONFIG_MATCH_NO);
}

static void test_cmdline_under_filter(void)
{
	static const char *const f[] = {
		"config.txt", "arm_64bit=1\n[pi4]\ncmdline=c4.txt\n[pi5]\ncmdline=c5.txt\n[all]\n",
		NULL,
	};
	static const char *const cm[] = {
		"config.txt", "[pi5]\ncmdline=c5.txt\n[cm5]\ncmdline=cm5.txt\n[all]\nkernel=k.img\n",
		NULL,
	};
	struct config_board p5 = board("pi5"), p4 = board("pi4"), p3 = board("pi3");
	struct config_board cm5 = board("cm5"), p500 = board("pi500");
	struct config_eval ev;
	char file[256];

	EXPECT_FILE(f, &p5, "c5.txt");
	EXPECT_FILE(f, &p4, "c4.txt");
	EXPECT_FILE(f, &p3, "cmdline.txt");
	/* a variant reads both sections: the later wins */
	EXPECT_FILE(cm, &cm5, "cm5.txt");
	EXPECT_FILE(cm, &p500, "c5.txt");
	T_EQ_INT(cmdline_of(cm, &cm5, file, sizeof(file), &ev), 0);
	T_EQ_STR(ev.cmdline.file, "config.txt");
	T_EQ_INT((int)ev.cmdline.line, 4);
	T_EQ_STR(ev.kernel.value, "k.img");
}

static void test_combining(void)
{
	static const char *const same_kind[] = {
		/* [pi5] replaces [pi4]: a Pi 5 reads the second line */
		"config.txt", "[pi4]\n[pi5]\ncmdline=a.txt\n", NULL,
	};
	static const char *const kinds_and[] = {
		/* [tryboot] and [pi5] must both hold */
		"config.txt", "[tryboot]\n[pi5]\ncmdline=t.txt\n[all]\n", NULL,
	};
	static const char *const none[] = {
		"config.txt", "[none]\ncmdline=n.txt\n[pi5]\ncmdline=still-none.txt\n[all]\n"
			      "os_prefix=p/\n", NULL,
	};
	struct config_board p5 = board("pi5"), t5 = board("pi5");

	t5.tryboot = true;
	EXPECT_FILE(same_kind, &p5, "a.txt");
	EXPECT_FILE(kinds_and, &p5, "cmdline.txt");
	EXPECT_FILE(kinds_and, &t5, "t.txt");
	EXPECT_FILE(none, &p5, "p/cmdline.txt");
}

static void test_unknowable(void)
{
	static const char *const gpio[] = {
		"config.txt", "[gpio4=1]\ncmdline=g.txt\n[all]\n", NULL,
	};
	static const char *const overridden[] = {
		/* a later line every board reads settles it */
		"config.txt", "[EDID=DEL-DELL_U2422H]\ncmdline=e.txt\n[all]\ncmdline=c.txt\n", NULL,
	};
	static const char *const same_value[] = {
		"config.txt", "cmdline=c.txt\n[HDMI:1]\ncmdline=c.txt\n[all]\n", NULL,
	};
	static const char *const other_board[] = {
		/* a filter that does not hold makes the unknown one irrelevant */
		"config.txt", "[gpio4=1]\n[pi4]\ncmdline=g.txt\n[all]\n", NULL,
	};
	struct config_board p5 = board("pi5"), unknown = { 0 };
	struct config_eval ev;
	char file[256], why[256];

	T_EQ_INT(cmdline_of(gpio, &p5, file, sizeof(file), &ev), -EAGAIN);
	T_EQ_STR(ev.unknown, "[gpio4=1]");
	T_EQ_STR(ev.unknown_key, "cmdline");
	config_eval_explain(&ev, -EAGAIN, why, sizeof(why));
	T_CHECK(strstr(why, "[gpio4=1]") && strstr(why, "cmdline="));
	EXPECT_FILE(overridden, &p5, "c.txt");
	EXPECT_FILE(same_value, &p5, "c.txt");
	EXPECT_FILE(other_board, &p5, "cmdline.txt");
	/* the model unknown: [pi4] cannot be decided */
	T_EQ_INT(cmdline_of(other_board, &unknown, file, sizeof(file), &ev), -EAGAIN);
	T_EQ_STR(ev.unknown, "[pi4]");
}

static void test_include(void)
{
	static const char *const nested[] = {
		"config.txt", "include a.txt\nkernel=k0\n",
		"a.txt", "os_prefix=pre/\ninclude b.txt\n",
		"b.txt", "[pi5]\ncmdline=inc5.txt\n", /* leaves [pi5] open after the include */
		NULL,
	};
	static const char *const loop[] = {
		"config.txt", "include a.txt\n", "a.txt", "include b.txt\n", "b.txt",
		"include a.txt\n", NULL,
	};
	static const char *const deep[] = {
		"config.txt", "include 1\n", "1", "include 2\n", "2", "include 3\n", "3",
		"include 4\n", "4", "include 5\n", "5", "include 6\n", "6", "include 7\n", "7",
		"include 8\n", "8", "include 9\n", "9", "cmdline=deep.txt\n", NULL,
	};
	static const char *const under_filter[] = {
		/* an include under a filter that does not hold is not read */
		"config.txt", "[pi4]\ninclude four.txt\n[all]\n", "four.txt", "[all]\ncmdline=4.txt\n",
		NULL,
	};
	static const char *const under_gpio[] = {
		"config.txt", "[gpio4=1]\ninclude g.txt\n[all]\n", "g.txt", "[all]\ncmdline=g.txt\n",
		NULL,
	};
	static const char *const missing[] = {
		"config.txt", "include nothere.txt\ncmdline=c.txt\n", NULL,
	};
	static const char *const escape[] = {
		"config.txt", "include ../etc/x\n", NULL,
	};
	struct config_board p5 = board("pi5"), p4 = board("pi4");
	struct config_eval ev;
	char file[256];

	EXPECT_FILE(nested, &p5, "pre/inc5.txt");
	EXPECT_FILE(nested, &p4, "pre/cmdline.txt");
	T_EQ_INT(cmdline_of(nested, &p5, file, sizeof(file), &ev), 0);
	T_EQ_STR(ev.cmdline.file, "b.txt");
	/* kernel= after the include sits under the [pi5] b.txt left open */
	T_EQ_STR(ev.kernel.value, "k0");
	T_EQ_INT(cmdline_of(nested, &p4, file, sizeof(file), &ev), 0);
	T_CHECK(!ev.kernel.set);
	T_EQ_INT(cmdline_of(loop, &p5, file, sizeof(file), &ev), -ELOOP);
	T_EQ_INT(cmdline_of(deep, &p5, file, sizeof(file), &ev), -ELOOP);
	T_EQ_STR(ev.bad_file, "9");
	EXPECT_FILE(under_filter, &p5, "cmdline.txt");
	EXPECT_FILE(under_filter, &p4, "4.txt");
	T_EQ_INT(cmdline_of(under_gpio, &p5, file, sizeof(file), &ev), -EAGAIN);
	T_EQ_STR(ev.unknown, "[gpio4=1]");
	EXPECT_FILE(missing, &p5, "c.txt");
	T_EQ_INT(cmdline_of(escape, &p5, file, sizeof(file), &ev), -EXDEV);
}

static void test_defaults_and_get(void)
{
	static const char *const empty[] = { NULL };
	static const char *const outside[] = { "config.txt", "cmdline=/etc/x\n", NULL };
	static const char *const get[] = {
		"config.txt", "arm_64bit=0\n[pi5]\narm_64bit=1\n[gpio2=0]\ndevice_tree=x.dtb\n", NULL,
	};
	struct config_source src = { .read = mem_read, .arg = (void *)get };
	struct config_board p5 = board("pi5"), p4 = board("pi4");
	struct config_value v;
	struct config_eval ev;
	char file[256], unk[64];

	T_EQ_INT(cmdline_of(empty, &p5, file, sizeof(file), &ev), 0);
	T_CHECK(!ev.has_config);
	T_EQ_STR(file, "cmdline.txt");
	T_EQ_INT(cmdline_of(outside, &p5, file, sizeof(file), &ev), -EXDEV);
	T_EQ_INT(config_eval_get(&src, &p5, "arm_64bit", &v, unk, sizeof(unk)), 0);
	T_EQ_STR(v.value, "1");
	T_EQ_INT(config_eval_get(&src, &p4, "arm_64bit", &v, unk, sizeof(unk)), 0);
	T_EQ_STR(v.value, "0");
	T_EQ_INT(config_eval_get(&src, &p5, "device_tree", &v, unk, sizeof(unk)), -EAGAIN);
	T_EQ_STR(unk, "[gpio2=0]");
	T_EQ_INT(config_eval_get(&src, &p4, "device_tree", &v, unk, sizeof(unk)), -ENOENT);
}

int main(void)
{
	test_board();
	test_filters();
	test_cmdline_under_filter();
	test_combining();
	test_unknowable();
	test_include();
	test_defaults_and_get();
	return t_done();
}
