/* banned.h - functions that overflow or truncate silently; use the capped helpers instead.
 * Included last by util.h (the idea is git's banned.h). */
#ifndef SBCDISK_BANNED_H
#define SBCDISK_BANNED_H

/* the headers that declare them first, whatever a file includes before this one: with
 * _FORTIFY_SOURCE (Debian's package build) their inline definitions would meet the macros */
#include <stdio.h>
#include <string.h>

#define BANNED(func) sorry_##func##_is_banned_use_a_capped_helper

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gets
#define gets(x) BANNED(gets)

#endif
