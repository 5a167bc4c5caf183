/* boot-order.c - a new Raspberry Pi boot order: the EEPROM configuration changed through boot/,
 * handed to rpi-eeprom-config only when it changes (`boot order`, move's step 4). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "flow/boot-order.h"

int flow_order_make(const struct boot_facts *f, const char *list, bool apply,
		    struct flow_order *o, char *why, size_t cap)
{
	/* the change is made to the bytes as read; only what is shown is sanitised */
	const char *text = f->has_eeprom ? f->eeprom_raw : "";
	int ret;

	memset(o, 0, sizeof(*o));
	sbuf_init(&o->next, BOOT_EEPROM_TEXT_MAX + 64);
	o->state = FLOW_ORDER_SHOWN;
	if (boot_order_from_names(list, f->soc, f->compute_module, f->has_caps, f->caps, &o->bo,
				  why, cap))
		return -EINVAL;
	ret = boot_eeprom_set_order(text, strlen(text), o->bo.value, &o->next, &o->line,
				    &o->replaced);
	if (ret)
		return ret;
	o->shown = malloc(o->next.len + 1);
	if (!o->shown)
		return -ENOMEM;
	memcpy(o->shown, sbuf_str(&o->next), o->next.len + 1);
	str_sanitize_text(o->shown, o->next.len);
	if (!apply)
		return 0;
	if (boot_order_unchanged(f, o->bo.value)) {
		/* rpi-eeprom-config --apply would stage an identical image for the next boot */
		o->state = FLOW_ORDER_UNCHANGED;
		return 0;
	}
	if (!f->has_eeprom) {
		/* rpi-eeprom-config --apply replaces all of it */
		o->state = FLOW_ORDER_NO_EEPROM;
		return 0;
	}
	ret = boot_eeprom_apply(sbuf_str(&o->next), o->next.len, &o->out, &o->status);
	if (ret == -ENOENT) {
		o->state = FLOW_ORDER_NO_TOOL;
	} else if (ret) {
		o->state = FLOW_ORDER_RUN_FAILED;
		o->err = ret;
	} else {
		o->state = FLOW_ORDER_RAN;
		if (o->out)
			str_sanitize_text(o->out, strlen(o->out));
	}
	return 0;
}

void flow_order_release(struct flow_order *o)
{
	free(o->out);
	free(o->shown);
	sbuf_release(&o->next);
	o->out = o->shown = NULL;
}
