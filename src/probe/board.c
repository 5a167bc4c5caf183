/* board.c - the board model from the device tree, the kernel release, and where the boot
 * configuration lives (Bookworm's /boot/firmware or the older /boot). */
#include <fcntl.h>
#include <unistd.h>

#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

/* The device tree's model is a NUL-terminated string (sysroot_read would keep the NUL as '?').
 * One that does not end within cap bytes is not a model: unknown, never a cut-off guess. */
static void read_dt_string(struct sysroot *sr, const char *path, char *buf, size_t cap)
{
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = sysroot_open_fd(sr, path, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return;
	n = read(fd, buf, cap - 1);
	close(fd);
	if (n <= 0) {
		buf[0] = '\0';
		return;
	}
	buf[n] = '\0'; /* strlen() now stops at the first NUL */
	if ((size_t)n == cap - 1 && !memchr(buf, '\0', (size_t)n)) {
		buf[0] = '\0';
		return;
	}
	str_trim(buf);
	str_sanitize(buf);
}

void probe_board_fill(struct sysroot *sr, struct inventory *inv)
{
	read_dt_string(sr, PATH_PROC_DT_MODEL, inv->board.model, sizeof(inv->board.model));
	if (sysroot_read_str(sr, PATH_PROC_OSRELEASE, inv->board.kernel,
			     sizeof(inv->board.kernel)) < 0)
		inv->board.kernel[0] = '\0';
	str_sanitize(inv->board.kernel);
	/* Bookworm moved the boot partition to /boot/firmware; config.txt tells which one */
	if (sysroot_exists(sr, PATH_BOOT_FW_CONFIG))
		str_copy(inv->cmdline_txt, sizeof(inv->cmdline_txt), PATH_BOOT_FW_CMDLINE);
	else if (sysroot_exists(sr, PATH_BOOT_CMDLINE))
		str_copy(inv->cmdline_txt, sizeof(inv->cmdline_txt), PATH_BOOT_CMDLINE);
}
