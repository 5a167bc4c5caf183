/* paths.h - the system paths sbcdisk reads, spelled once, always opened through sysroot.h.
 * No other file spells "/sys" or "/proc" (shared/STYLE.md habit 2). */
#ifndef SBCDISK_PATHS_H
#define SBCDISK_PATHS_H

#define PATH_SYS_BLOCK      "/sys/block"
#define PATH_SYS_DEV_BLOCK  "/sys/dev/block"
#define PATH_PROC_MOUNTINFO "/proc/self/mountinfo"
#define PATH_PROC_SWAPS     "/proc/swaps"
#define PATH_PROC_CMDLINE   "/proc/cmdline"

#endif
