// SPDX-License-Identifier: GPL-2.0-or-later
/* id.c - the random ids clone gives the copy: disk ids, partition and file system UUIDs,
 * FAT volume ids, all from getrandom(). */
#include <errno.h>
#include <stdlib.h>
#include <sys/random.h>

#include "clone/clone-int.h"
#include "common/banned.h"
#include "common/util.h"

void clone_random(void *buf, size_t len)
{
	unsigned char *b = buf;

	while (len) {
		ssize_t r = getrandom(b, len, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			abort(); /* no entropy source at all: no id is safe */
		}
		b += r;
		len -= (size_t)r;
	}
}

void clone_uuid_new(char *out, size_t cap)
{
	unsigned char u[16];

	clone_random(u, sizeof(u));
	u[6] = (unsigned char)((u[6] & 0x0f) | 0x40);
	u[8] = (unsigned char)((u[8] & 0x3f) | 0x80);
	str_fmt(out, cap,
		"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0],
		u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13],
		u[14], u[15]);
}
