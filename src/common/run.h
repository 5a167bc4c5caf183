/* run.h - start a program found on PATH and keep what it prints: smartctl for drive health,
 * vcgencmd and rpi-eeprom-config for the bootloader. stdin and stderr are /dev/null. */
#ifndef SBCDISK_COMMON_RUN_H
#define SBCDISK_COMMON_RUN_H

#include <stddef.h>

/*
 * Run argv (argv[0] looked up on PATH) and read its standard output into a buffer of at most
 * cap bytes (NUL-terminated; -E2BIG beyond). *status gets the exit code, -1 when it was killed.
 * 0; -ENOENT when the program is not on PATH; -E2BIG, -ENOMEM, -EIO. The caller frees *out.
 */
int run_capture(char *const argv[], size_t cap, char **out, size_t *len, int *status);

#endif
