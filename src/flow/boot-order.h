/* boot-order.h - a new Raspberry Pi boot order as one step: the EEPROM configuration with it, and
 * with apply handed to rpi-eeprom-config; for `boot order` and move's step 4; no printing. */
#ifndef SBCDISK_FLOW_BOOT_ORDER_H
#define SBCDISK_FLOW_BOOT_ORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot.h"
#include "common/sbuf.h"

/* What became of the new order. */
enum flow_order_state {
	FLOW_ORDER_SHOWN,      /* no apply: the change is only shown */
	FLOW_ORDER_UNCHANGED,  /* apply: BOOT_ORDER is that already; nothing was run */
	FLOW_ORDER_NO_EEPROM,  /* apply: the configuration cannot be read here: not applied */
	FLOW_ORDER_NO_TOOL,    /* apply: rpi-eeprom-config is not on PATH: not applied */
	FLOW_ORDER_RUN_FAILED, /* apply: it could not be run (err) */
	FLOW_ORDER_RAN,	       /* apply: it ran: status, out */
};

struct flow_order {
	struct boot_order bo;
	struct sbuf next; /* the EEPROM configuration with the new order, the bytes as read */
	char *shown;	  /* the same, sanitised for the screen */
	size_t line;	  /* boot_eeprom_set_order()'s line and replaced */
	bool replaced;
	enum flow_order_state state;
	int err;   /* RUN_FAILED: -errno */
	char *out; /* RAN: what rpi-eeprom-config printed (may be NULL) */
	int status; /* RAN: its exit status */
};

/*
 * The boot order list ("nvme,sd") on the board of f: the new configuration, and with apply
 * handed to rpi-eeprom-config --apply unless it would not change. 0 (o->state says what
 * became of it); -EINVAL with why for a list the board cannot take; -ENOMEM, -E2BIG. o is
 * initialised here; the caller releases it with flow_order_release().
 */
int flow_order_make(const struct boot_facts *f, const char *list, bool apply,
		    struct flow_order *o, char *why, size_t cap);
void flow_order_release(struct flow_order *o);

#endif
