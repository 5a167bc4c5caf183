/* fuzz-extlinux.c - extlinux.conf and grub.cfg (boot/order.c): any bytes parse; the root=
 * found is a bounded, clean string that rootspec parses or refuses cleanly. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "common/rootspec.h"
#include "common/util.h"

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct rootspec rs;
	char root[128];
	int ret, i;

	for (i = 0; i < 2; i++) {
		memset(root, 'x', sizeof(root));
		ret = i ? boot_grub_root(text, size, root, sizeof(root)) :
			  boot_extlinux_root(text, size, root, sizeof(root));
		check(ret == 0 || ret == -ENOENT);
		check(memchr(root, '\0', sizeof(root)) != NULL);
		check(str_is_clean_utf8(root));
		if (!ret && root[0]) {
			ret = rootspec_parse(root, strlen(root), &rs);
			check(!ret || ret == -EINVAL || ret == -ENAMETOOLONG);
		}
	}
	return 0;
}
