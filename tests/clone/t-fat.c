/* t-fat.c - clone's files on a FAT at an offset through mtools: written, read back and
 * listed in an image whose path holds "@@" (mtools' IMAGE@@OFFSET form), and
 * MTOOLS_SKIP_CHECK given to the mtools child only, never set in this process. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "clone/clone-int.h"
#include "common/spawn.h"
#include "t.h"

#define OFF (4ULL << 20)

int main(void)
{
	const char *tools[] = { "mkfs.vfat", "mtype", "mcopy", "mdir", "truncate" };
	const char *td = getenv("TMPDIR");
	char dir[200], img[300], cmd[1024], path[300];
	struct sbuf out = SBUF_INIT(4096);
	static const char text[] = "console=tty1 root=PARTUUID=0badc0de-02 rootwait\n";

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		if (spawn_find(tools[i], path, sizeof(path))) {
			printf("skip: %s missing\n", tools[i]);
			return T_SKIP;
		}
	}
	snprintf(dir, sizeof(dir), "%s/t-fat-XXXXXX", td && td[0] ? td : "/tmp");
	T_MUST(mkdtemp(dir) == NULL);
	snprintf(img, sizeof(img), "%s/a@@1", dir);
	T_MUST(mkdir(img, 0700));
	snprintf(img, sizeof(img), "%s/a@@1/disk.img", dir);
	snprintf(cmd, sizeof(cmd), "truncate -s 72M '%s' && mkfs.vfat -F 32 -s 1 --offset 8192 "
		 "'%s' 65536 >/dev/null 2>&1", img, img);
	T_MUST(system(cmd));
	unsetenv("MTOOLS_SKIP_CHECK");

	T_EQ_INT(clone_fat_write(img, OFF, "cmdline.txt", text, sizeof(text) - 1), 0);
	T_EQ_INT(clone_fat_read(img, OFF, "cmdline.txt", 4096, &out), 0);
	T_EQ_STR(sbuf_str(&out), text);
	sbuf_reset(&out);
	T_EQ_INT(clone_fat_read(img, OFF, "nothing.txt", 4096, &out), -ENOENT);
	sbuf_reset(&out);
	T_EQ_INT(clone_fat_list(img, OFF, &out), 0);
	T_CHECK(strstr(sbuf_str(&out), "::/cmdline.txt") != NULL);
	/* the name before "@@" is not taken for an image of its own */
	snprintf(path, sizeof(path), "%s/a", dir);
	T_CHECK(access(path, F_OK) != 0);
	/* the child's environment is the child's */
	T_CHECK(getenv("MTOOLS_SKIP_CHECK") == NULL);

	sbuf_release(&out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	T_MUST(system(cmd));
	return t_done();
}
