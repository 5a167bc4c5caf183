/* board.c - the board model from the device tree, the kernel release, and where the boot
 * configuration lives (common/bootloc.c decides). */
#include "common/bootloc.h"
#include "common/paths.h"
#include "probe/probe-int.h"
#include "common/util.h"

void probe_board_fill(struct sysroot *sr, struct inventory *inv)
{
	struct boot_loc loc;

	/* a model that does not fit is unknown, never a cut-off guess */
	if (sysroot_read_dt_string(sr, PATH_PROC_DT_MODEL, inv->board.model,
				   sizeof(inv->board.model)))
		inv->board.model[0] = '\0';
	str_trim(inv->board.model);
	str_sanitize(inv->board.model);
	if (sysroot_read_str(sr, PATH_PROC_OSRELEASE, inv->board.kernel,
			     sizeof(inv->board.kernel)) < 0)
		inv->board.kernel[0] = '\0';
	str_sanitize(inv->board.kernel);
	/* the file fix edits: Bookworm's /boot/firmware or /boot, os_prefix and cmdline= */
	if (!boot_loc_find(sr, &loc) && (loc.has_config || sysroot_exists(sr, loc.cmdline)) &&
	    str_copy(inv->cmdline_txt, sizeof(inv->cmdline_txt), loc.cmdline))
		inv->cmdline_txt[0] = '\0';
}
