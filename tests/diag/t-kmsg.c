/* t-kmsg.c - the log reader on every form people paste: dmesg, -T, -r, --reltime, journalctl,
 * syslog ISO, /dev/kmsg records, quotes, mail wrapping, comments, CRLF, over-long lines. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "t.h"
#include "diag/kmsg.h"
#include "common/util.h"

#define MAXL 16

struct got {
	int n;
	char msg[MAXL][KMSG_LINE_MAX + 1];
	char text[MAXL][KMSG_LINE_MAX + 1];
	unsigned long lineno[MAXL];
};

static int collect(void *arg, const struct kmsg_line *l)
{
	struct got *g = arg;

	T_EQ_INT(strlen(l->msg), l->msg_len);
	if (g->n < MAXL) {
		str_copy(g->msg[g->n], sizeof(g->msg[0]), l->msg);
		str_copy(g->text[g->n], sizeof(g->text[0]), l->text);
		g->lineno[g->n] = l->lineno;
	}
	g->n++;
	return 0;
}

static struct got *run(const char *in)
{
	static struct got g;

	memset(&g, 0, sizeof(g));
	T_EQ_INT(kmsg_read_buf(in, strlen(in), collect, &g), 0);
	return &g;
}

#define ABORT "sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 5 inflight: CMD IN"

static void test_forms(void)
{
	static const char *const forms[] = {
		"[ 1524.725084] " ABORT "\n",
		"[Mon Mar 14 12:51:11 2022] " ABORT "\n",
		"<4>[ 1524.725084] " ABORT "\n",
		"<4>" ABORT "\n",
		"[Aug28 17:07] " ABORT "\n",
		"[  +8.063930] " ABORT "\n",
		"Jan 29 16:41:37 argon kernel: " ABORT "\n",
		"2023-11-14T23:54:42.190471+00:00 raspberrypi5 kernel: [19302.666235] " ABORT "\n",
		"6,1234,1524725084,-;" ABORT "\n",
		"kern  :err   : [ 1524.725084] " ABORT "\n",
		"> [ 1524.725084] " ABORT "\n",
		"> > [ 1524.725084] " ABORT "\r\n",
		"   [ 1524.725084] " ABORT "   \r\n",
		ABORT "\n",
		ABORT, /* no newline at the end */
		/* metalog (Gentoo), a bare tag, OpenWrt logread (both forms), RFC 5424 */
		"Feb 14 01:11:04 [kernel] [19262.403817] " ABORT "\n",
		"kernel: " ABORT "\n",
		"2023-12-20 10:30:36 err kernel[]: [   64.114139] " ABORT "\n",
		"Wed Dec 20 10:30:36 2023 kern.err kernel: [   64.114139] " ABORT "\n",
		"<3>1 2023-11-14T23:54:42.190471+00:00 pi kernel - - - " ABORT "\n",
		"<3>1 2023-11-14T23:54:42Z pi kernel 0 - [meta seq=\"1\"] " ABORT "\n",
		/* journalctl -o short-iso, short-precise, short-monotonic */
		"2023-11-14T23:54:42+0100 pi kernel: " ABORT "\n",
		"Nov 14 23:54:42.190471 pi kernel: " ABORT "\n",
		"[  138.145040] pi kernel: " ABORT "\n",
		/* a shell prompt glued to the first line */
		"pi@raspberrypi:~ $ dmesg[ 1524.725084] " ABORT "\n",
		"root@OpenWrt:~# dmesg[ 1524.725084] " ABORT "\n",
		/* vendor kernels' CPU tag after the time (Hardkernel, Samsung), and
		 * CONFIG_PRINTK_CALLER's thread or CPU id */
		"[ 1394.014404] [c0] " ABORT "\n",
		"[ 1394.014404] [C7] " ABORT "\n",
		"[    5.100000][    T1] " ABORT "\n",
		"[    5.100000][  C3] " ABORT "\n",
		"[    4.476919@2] " ABORT "\n",
		"[    1.234567] [1:  swapper/0:    1] " ABORT "\n",
		"[  123.456789] (1)[1234:kworker/1:2]" ABORT "\n",
		"Jan 29 16:41:37 odroid kernel: [ 1394.014404] [c0] " ABORT "\n",
		/* lines quoted from a diff, from an editor's search results */
		"+[ 1524.725084] " ABORT "\n",
		"-[ 1524.725084] " ABORT "\n",
		"> +" ABORT "\n",
		"+ [ 1524.725084] " ABORT "\n",
		"Line  528: [ 1524.725084] " ABORT "\n",
		"\tLine 12: Jan 29 16:41:37 argon kernel: " ABORT "\n",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		struct got *g = run(forms[i]);

		T_EQ_INT(g->n, 1);
		T_EQ_STR(g->msg[0], ABORT);
		T_EQ_INT(g->lineno[0], 1);
	}
	/* the time since boot, where the prefix has it */
	{
		struct kmsg_prefix pre;

		T_CHECK(kmsg_line_parse("[  138.145040] pi kernel: x", 26, &pre) != NULL);
		T_CHECK(pre.ts > 138.1450 && pre.ts < 138.1451);
		T_CHECK(kmsg_line_parse("[  +0.000123] x", 15, &pre) != NULL);
		T_CHECK(pre.ts < 0);
		T_CHECK(kmsg_line_parse("6,1,5140900,-;x", 15, &pre) != NULL);
		T_CHECK(pre.ts > 5.1408 && pre.ts < 5.1410);
		/* "kernel" inside a message is no prefix */
		T_EQ_STR(kmsg_line_parse("usb 1-1: kernel: x", 18, &pre), "usb 1-1: kernel: x");
	}
	/* a /dev/kmsg record is shown as dmesg shows it */
	T_EQ_STR(run("6,1234,1524725084,-;" ABORT "\n")->text[0], "[ 1524.725084] " ABORT);
	/* past 2^32 us (71 minutes up), also where long has 32 bits; and a year up */
	T_EQ_STR(run("6,1234,5140900000,-;" ABORT "\n")->text[0], "[ 5140.900000] " ABORT);
	T_EQ_STR(run("4,9,31557600123456,-;x\n")->text[0], "[31557600.123456] x");
	{
		struct kmsg_prefix pre;

		T_CHECK(kmsg_line_parse("6,1,5140900000,-;x", 18, &pre) != NULL);
		T_CHECK(pre.ts > 5140.8999 && pre.ts < 5140.9001);
	}
	/* the quote prefix is not part of the evidence text, nor a diff's or an editor's */
	T_EQ_STR(run("> [ 1.5] usb 1-1: x\n")->text[0], "[ 1.5] usb 1-1: x");
	T_EQ_STR(run("> +[ 1.5] usb 1-1: x\n")->text[0], "[ 1.5] usb 1-1: x");
	T_EQ_STR(run("Line  528: [ 1.5] usb 1-1: x\n")->text[0], "[ 1.5] usb 1-1: x");
	/* the time is still read behind a CPU tag */
	{
		struct kmsg_prefix pre;

		T_CHECK(kmsg_line_parse("[ 1394.014404] [c0] x", 21, &pre) != NULL);
		T_CHECK(pre.ts > 1394.01 && pre.ts < 1394.02);
		T_CHECK(kmsg_line_parse("[    4.476919@2] x", 18, &pre) != NULL);
		T_CHECK(pre.ts > 4.4769 && pre.ts < 4.4770);
	}
	/* a bracket that is no CPU tag stays: "[c0ffee]", "[cfg80211]" */
	T_EQ_STR(run("[ 1.0] [cfg80211] x\n")->msg[0], "[cfg80211] x");
	T_EQ_STR(run("[ 1.0] [12] x\n")->msg[0], "[12] x");
	T_EQ_STR(run("[ 1.0] (1) x\n")->msg[0], "(1) x");
	/* a journal marker is no diff line */
	T_EQ_STR(run("-- Boot 1a2b3c --\n")->msg[0], "-- Boot 1a2b3c --");
}

static void test_skipped(void)
{
	struct got *g = run("# a comment\n"
			    "// another\n"
			    "\n"
			    "-- Boot 1a2b3c --\n"
			    "-- Logs begin at Mon 2024-01-01 00:00:00 UTC. --\n"
			    "   \r\n"
			    "[ 1.0] usb 1-1: ok\n");

	/* journalctl's boot marker is passed on (a boot begins there), the rest skipped */
	T_EQ_INT(g->n, 2);
	T_EQ_STR(g->msg[0], "-- Boot 1a2b3c --");
	T_EQ_STR(g->msg[1], "usb 1-1: ok");
	T_EQ_INT(g->lineno[1], 7);
	/* "[sda]" and "[abd5cf13]" are no timestamps */
	T_EQ_STR(run("[ 751.191867] [abd5cf13] FCM> b8f93c00 0\n")->msg[0], "[abd5cf13] FCM> b8f93c00 0");
	T_EQ_STR(run("[drm] Initialized\n")->msg[0], "[drm] Initialized");
}

static void test_wrapped(void)
{
	/* a mail client wrapped the long line after "CMD" */
	struct got *g = run("[ 1524.725084] sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 "
			    "uas-tag 5 inflight: CMD\n"
			    "IN\n"
			    "[ 1524.741102] scsi host0: uas_eh_device_reset_handler start\n");

	T_EQ_INT(g->n, 2);
	T_EQ_STR(g->msg[0], ABORT);
	T_EQ_INT(g->lineno[0], 1);
	T_EQ_INT(g->lineno[1], 3);
	/* quoted and wrapped */
	g = run("> [ 1524.725084] sd 0:0:0:0: [sda] tag#28 uas_eh_abort_handler 0 uas-tag 5 "
		"inflight:\r\n> CMD IN\r\n");
	T_EQ_INT(g->n, 1);
	T_EQ_STR(g->msg[0], ABORT);
	/* a short line is not joined with the next: both are messages */
	g = run("[ 1.0] usb 1-1: short\nplain text line\n");
	T_EQ_INT(g->n, 2);
	/* another program's dated syslog line after a long kernel line is no wrapped tail */
	g = run("Jan 11 09:38:32 DietPi kernel: " ABORT "\n"
		"Jan 11 09:38:32 DietPi systemd[1]: Created slice system-getty.slice - Slice\n");
	T_EQ_INT(g->n, 2);
	T_EQ_STR(g->msg[0], ABORT);
	/* a log without any prefix: every line stands alone */
	g = run(ABORT "\nIN\n");
	T_EQ_INT(g->n, 2);
}

static void test_records(void)
{
	struct got g;
	int fds[2];
	const char *in = "6,1,100,-;usb 1-1: a\n SUBSYSTEM=usb\n DEVICE=c189:1\n"
			 "4,2,2000000,-;usb 1-1: b\n";

	memset(&g, 0, sizeof(g));
	T_EQ_INT(pipe(fds), 0);
	T_CHECK(write(fds[1], in, strlen(in)) == (ssize_t)strlen(in));
	close(fds[1]);
	T_EQ_INT(kmsg_read_fd(fds[0], collect, &g), 0);
	close(fds[0]);
	T_EQ_INT(g.n, 2);
	T_EQ_STR(g.msg[0], "usb 1-1: a");
	T_EQ_STR(g.text[1], "[    2.000000] usb 1-1: b");
}

static void test_long_and_binary(void)
{
	size_t n = 3 * KMSG_LINE_MAX;
	char *buf = malloc(n + 64);
	struct got *g;

	memset(buf, 'x', n);
	memcpy(buf + n, "\n[ 1.0] usb 1-1: after\n", 24);
	g = run(buf);
	T_EQ_INT(g->n, 2);
	T_EQ_INT(strlen(g->msg[0]), KMSG_LINE_MAX);
	T_EQ_STR(g->msg[1], "usb 1-1: after");
	/* NUL bytes end the C string but never the reader */
	{
		static const char bin[] = "[ 1.0] a\0b\n[ 2.0] usb 1-1: c\n";
		struct got g2;

		memset(&g2, 0, sizeof(g2));
		T_EQ_INT(kmsg_read_buf(bin, sizeof(bin) - 1, collect, &g2), 0);
		T_EQ_INT(g2.n, 2);
	}
	free(buf);
}

/* The running kernel's log: every record, then back at once (O_NONBLOCK, EAGAIN). A hang
 * here fails the test by its timeout. Skipped where /dev/kmsg cannot be opened. */
static void test_live(void)
{
	struct got g;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "no /dev/kmsg here (%s): live read not tested\n", strerror(errno));
		return;
	}
	memset(&g, 0, sizeof(g));
	T_EQ_INT(kmsg_read_fd(fd, collect, &g), 0);
	close(fd);
	T_CHECK(g.n > 0);
	/* a record's text starts like dmesg's */
	T_CHECK(g.text[0][0] == '[');
}

static int stop_at_first(void *arg, const struct kmsg_line *l)
{
	(void)arg;
	(void)l;
	return 42;
}

int main(void)
{
	test_forms();
	test_skipped();
	test_wrapped();
	test_records();
	test_long_and_binary();
	test_live();
	T_EQ_INT(kmsg_read_buf("a\nb\n", 4, stop_at_first, NULL), 42);
	return t_done();
}
