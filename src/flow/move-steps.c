/* move-steps.c - the move's steps on the resolved disks, each by the domain that does it: the
 * clone, the boot check of the copy, the boot order (the benches: flow/bench-step.c); cli/
 * prints what they give. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "common/util.h"
#include "flow/check.h"
#include "flow/move.h"

/* The clone's own name of a disk: a resolved one, NULL for the running system's. */
static const char *ref_name(const struct probe_ref *r)
{
	return r->kind == PROBE_REF_NONE ? NULL : r->path;
}

int flow_move_clone(struct sysroot *sr, const struct flow_move_plan *p,
		    const struct flow_move_step_opts *so, struct clone_plan *plan,
		    struct clone_opts *co, bool *copied, char *why, size_t cap)
{
	int ret;

	*copied = false;
	memset(co, 0, sizeof(*co));
	why[0] = '\0';
	co->source = ref_name(&p->source);
	co->target = p->target.path;
	co->apply = so->apply;
	if (so->board) {
		co->board = *so->board;
		co->has_board = true;
	}
	ret = clone_plan_make(sr, co, plan, why, cap);
	if (ret)
		return ret;
	/* the path the plan opened is still what the move resolved: never another disk */
	if ((p->source.kind == PROBE_REF_BLOCK || p->source.kind == PROBE_REF_FILE) &&
	    !probe_ref_same(&p->source, &plan->src_ref)) {
		str_fmt(why, cap, "SOURCE '%s' names another disk or file now than when the move "
			"began", p->source.shown);
		return -ESTALE;
	}
	if ((p->target.kind == PROBE_REF_BLOCK || p->target.kind == PROBE_REF_FILE) &&
	    !probe_ref_same(&p->target, &plan->dst_ref)) {
		str_fmt(why, cap, "TARGET '%s' names another disk or file now than when the move "
			"began", p->target.shown);
		return -ESTALE;
	}
	if (!so->apply)
		return 0;
	plan->stop = so->stop;
	plan->progress = so->clone_progress;
	plan->progress_arg = so->clone_progress_arg;
	*copied = true;
	return clone_apply(plan, co, why, cap);
}

int flow_move_check(struct sysroot *sr, const struct flow_move_plan *p,
		    const struct config_board *board, struct flow_move_checked *r, char *why,
		    size_t cap)
{
	const struct blkdev *d = NULL;
	int ret;

	memset(r, 0, sizeof(*r));
	why[0] = '\0';
	/* a fresh read: the copy's new partitions and ids */
	ret = probe_inventory_load(sr, &r->inv);
	if (ret) {
		str_fmt(why, cap, "cannot read the block devices: %s", strerror(-ret));
		return ret;
	}
	ret = boot_facts_read(sr, r->inv, &r->facts);
	if (ret) {
		str_fmt(why, cap, "cannot read the boot facts: %s", strerror(-ret));
		return ret;
	}
	r->has_facts = true;
	if (p->target.kind == PROBE_REF_BLOCK) {
		/* the same device by number: the name a fresh read gives it may differ */
		d = probe_inventory_find_devno(r->inv, major(p->target.devno),
					       minor(p->target.devno));
		if (!d || d->is_partition) {
			str_fmt(why, cap, "TARGET '%s' is %s", p->target.shown,
				d ? "a partition: no disk to check" : "no disk of this system now");
			return -ENODEV;
		}
	}
	ret = flow_check_disk(sr, r->inv, &r->facts, d, p->target.path, board, &r->checks);
	if (ret)
		str_copy(why, cap, strerror(-ret));
	return ret;
}

void flow_move_checked_release(struct flow_move_checked *r)
{
	boot_checks_release(&r->checks);
	if (r->has_facts)
		boot_facts_release(&r->facts);
	probe_inventory_free(r->inv);
	memset(r, 0, sizeof(*r));
}

int flow_move_order(struct sysroot *sr, const struct flow_move_plan *p, bool apply,
		    struct boot_facts *f, struct flow_order *o, char *why, size_t cap)
{
	struct inventory *inv = NULL;
	int ret;

	why[0] = '\0';
	memset(o, 0, sizeof(*o));
	ret = probe_inventory_load(sr, &inv);
	if (ret) {
		str_fmt(why, cap, "cannot read the block devices: %s", strerror(-ret));
		return ret;
	}
	ret = boot_facts_read(sr, inv, f);
	probe_inventory_free(inv);
	if (ret) {
		str_fmt(why, cap, "cannot read the boot facts: %s", strerror(-ret));
		return ret;
	}
	ret = flow_order_make(f, p->media, apply, o, why, cap);
	if (ret && !why[0])
		str_copy(why, cap, strerror(-ret));
	if (ret) {
		flow_order_release(o);
		boot_facts_release(f);
	}
	return ret;
}
