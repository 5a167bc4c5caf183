/* t-spawn.c - a program is found on PATH before it starts; its output is kept and capped. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/spawn.h"
#include "t.h"

static char dir[] = "/tmp/t-spawn-XXXXXX";

static void put(const char *name, const char *text, mode_t mode)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
}

int main(void)
{
	const char *const hello[] = {"hello", "a b", NULL};
	const char *const big[] = {"big", NULL};
	const char *const plain[] = {"plain", NULL};
	const char *const none[] = {"no-such-program-here", NULL};
	const char *const fails[] = {"fails", NULL};
	char path[512], sub[300], *out;
	size_t len;
	int st;

	if (!mkdtemp(dir))
		return 1;
	put("hello", "#!/bin/sh\nprintf 'hi %s' \"$1\"\necho noise >&2\n", 0755);
	put("big", "#!/bin/sh\nexec /usr/bin/head -c 100000 /dev/zero\n", 0755);
	put("plain", "#!/bin/sh\necho no\n", 0644); /* not executable */
	put("fails", "#!/bin/sh\nexit 3\n", 0755);
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	mkdir(sub, 0755);
	snprintf(path, sizeof(path), "/nonexistent::%s:%s", sub, dir);
	setenv("PATH", path, 1);

	T_EQ_INT(spawn_find("hello", path, sizeof(path)), 0);
	T_CHECK(strstr(path, "/hello") != NULL);
	T_EQ_INT(spawn_find("plain", path, sizeof(path)), -ENOENT);
	T_EQ_INT(spawn_find("sub", path, sizeof(path)), -ENOENT); /* a directory is no program */
	T_EQ_INT(spawn_find("", path, sizeof(path)), -ENOENT);
	T_EQ_INT(spawn_find("/bin/sh", path, sizeof(path)), 0);
	T_EQ_INT(spawn_find("hello", path, 4), -ENOENT);

	T_EQ_INT(spawn_capture(hello, 1024, &out, &len, &st), 0);
	T_EQ_STR(out, "hi a b"); /* stdout only, NUL-terminated */
	T_EQ_INT(len, 6);
	T_EQ_INT(st, 0);
	free(out);
	T_EQ_INT(spawn_capture(fails, 1024, &out, &len, &st), 0);
	T_EQ_INT(st, 3);
	T_EQ_INT(len, 0);
	free(out);
	T_EQ_INT(spawn_capture(big, 65536, &out, &len, &st), -E2BIG);
	T_CHECK(out == NULL);
	T_EQ_INT(spawn_capture(none, 1024, &out, &len, &st), -ENOENT);
	T_EQ_INT(spawn_capture(plain, 1024, &out, &len, &st), -ENOENT);

	unsetenv("PATH"); /* the C library's default: /bin:/usr/bin */
	T_EQ_INT(spawn_find("sh", path, sizeof(path)), 0);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		return 1;
	return t_done();
}
