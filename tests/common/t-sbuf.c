/* t-sbuf.c - the capped string buffer never passes its cap and keeps what it had. */
#include <unistd.h>

#include "common/sbuf.h"
#include "common/util.h"
#include "t.h"

int main(void)
{
	struct sbuf sb = SBUF_INIT(10);
	char *s;
	int i;

	T_EQ_STR(sbuf_str(&sb), "");
	T_EQ_INT(sbuf_adds(&sb, "hello"), 0);
	T_EQ_INT(sbuf_addf(&sb, "%d", 1234), 0);
	T_EQ_STR(sbuf_str(&sb), "hello1234");
	T_EQ_INT(sbuf_adds(&sb, "xy"), -E2BIG);
	T_EQ_STR(sbuf_str(&sb), "hello1234");
	T_EQ_INT(sbuf_addch(&sb, '!'), 0);
	T_EQ_INT(sbuf_addch(&sb, '!'), -E2BIG);
	T_EQ_INT(sb.len, 10);
	s = sbuf_detach(&sb);
	T_EQ_STR(s, "hello1234!");
	free(s);
	T_EQ_STR(sbuf_str(&sb), "");

	sbuf_init(&sb, 1 << 20);
	for (i = 0; i < 10000; i++)
		T_EQ_INT(sbuf_addf(&sb, "%04d", i % 10000), 0);
	T_EQ_INT(sb.len, 40000);
	sbuf_release(&sb);

	/* a whole pipe, and one that passes the cap */
	{
		int fds[2];

		T_EQ_INT(pipe(fds), 0);
		T_EQ_INT(write(fds[1], "abc\0def", 7), 7);
		close(fds[1]);
		sbuf_init(&sb, 16);
		T_EQ_INT(sbuf_read_fd(&sb, fds[0]), 0);
		T_EQ_INT(sb.len, 7);
		T_CHECK(!memcmp(sbuf_str(&sb), "abc\0def", 8));
		close(fds[0]);
		sbuf_release(&sb);

		T_EQ_INT(pipe(fds), 0);
		T_EQ_INT(write(fds[1], "0123456789", 10), 10);
		close(fds[1]);
		sbuf_init(&sb, 8);
		T_EQ_INT(sbuf_read_fd(&sb, fds[0]), -EFBIG);
		T_CHECK(sb.len <= 8);
		close(fds[0]);
		sbuf_release(&sb);
		T_EQ_INT(sbuf_read_fd(&sb, -1), -EBADF);
	}
	return t_done();
}
