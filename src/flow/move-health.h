/* move-health.h - after `move --apply`: the newest stored move and whether it took (the root on
 * its target), is pending (made in this boot) or not; the two drives' stored figures. */
#ifndef SBCDISK_FLOW_MOVE_HEALTH_H
#define SBCDISK_FLOW_MOVE_HEALTH_H

#include <stdbool.h>
#include <stddef.h>

#include "common/sysroot.h"
#include "flow/move.h"
#include "probe/probe.h"
#include "store/store.h"

enum flow_move_state {
	FLOW_MOVE_DONE,	     /* the root is on the target */
	FLOW_MOVE_NOT_TAKEN, /* the root is on the source again */
	FLOW_MOVE_ELSEWHERE, /* on neither, or unknown */
	FLOW_MOVE_PENDING,   /* made in this boot: the reboot that tries it is still to come */
};

struct flow_move_view {
	struct store_move m;
	struct json_object *src, *dst; /* DEVICE objects of the drives found, or NULL */
	struct run *src_run, *dst_run; /* their newest stored runs, or NULL */
	double src_boot_s, dst_boot_s; /* mean boot time, NAN unknown */
	size_t src_boots, dst_boots;
	char root_disk[64];
	bool has_mode;
	unsigned mode;
	enum flow_move_state state;
};

/*
 * The newest move in the result store where flow_move_store_path() says (the running
 * system's, or the one a captured tree keeps), judged against inv and the boot facts; the
 * drives found again by serial number (else by name and model) through device_json. 0;
 * -ENOENT when there is no store or no move in it. The caller releases v with
 * flow_move_view_release().
 */
int flow_move_view_load(struct sysroot *sr, const struct inventory *inv,
			flow_device_json_fn device_json, struct flow_move_view *v);
void flow_move_view_release(struct flow_move_view *v);

#endif
