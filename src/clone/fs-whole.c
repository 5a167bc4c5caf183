// SPDX-License-Identifier: GPL-2.0-or-later
/* fs-whole.c - what clone does not understand (swap, an unknown type, none at all): every
 * byte of the partition copied as it is, nothing read, checked or changed in it. */
#include "clone/fs.h"

static void whole_plan(const struct clone_plan *p, struct clone_part *cp)
{
	(void)p;
	cp->method = CLONE_BY_WHOLE;
	cp->copy_bytes = cp->size;
}

const struct clone_fs clone_fs_whole = {
	.name = "whole",
	.plan = whole_plan,
};
