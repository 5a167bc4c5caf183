/* fuzz-eeprom.c - the bootloader's EEPROM configuration text (boot/order.c): any bytes parse;
 * the decoded BOOT_ORDER stays in range and describes itself; setting a BOOT_ORDER gives a
 * text whose parse has exactly that order, and setting it again changes nothing. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "common/sbuf.h"
#include "common/util.h"

static void check(bool ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sbuf out = SBUF_INIT(BOOT_EEPROM_TEXT_MAX * 2),
		    again = SBUF_INIT(BOOT_EEPROM_TEXT_MAX * 2);
	static struct boot_eeprom e, e2;
	const char *text = (const char *)data;
	uint32_t value = 0xf146;
	char words[512];
	size_t i, line;
	bool replaced;

	if (size > BOOT_EEPROM_TEXT_MAX)
		return 0;
	boot_eeprom_parse(text, size, &e);
	check(e.n_keys <= BOOT_EEPROM_KEYS_MAX);
	check(e.order.n <= BOOT_ORDER_MODES_MAX);
	for (i = 0; i < e.order.n; i++)
		check(boot_mode_name(e.order.modes[i]) != NULL);
	for (i = 0; i < e.n_keys; i++)
		check(str_is_clean_utf8(e.keys[i].key) && str_is_clean_utf8(e.keys[i].value));
	boot_order_describe(&e.order, words, sizeof(words));
	check(strlen(words) < sizeof(words));

	/* the first bytes pick a BOOT_ORDER to write */
	if (size >= 2)
		value = 0xf00u | (data[0] & 7u) << 4 | (data[1] & 7u);
	check(!boot_eeprom_set_order(text, size, value, &out, &line, &replaced));
	/* a NUL or a key past the cap can hide lines from the parser, never add an order */
	if (!memchr(text, '\0', size) && e.n_keys < BOOT_EEPROM_KEYS_MAX) {
		boot_eeprom_parse(sbuf_str(&out), out.len, &e2);
		check(!e2.order.is_default || e2.bad_order);
		if (!e2.order.is_default)
			check(e2.order.value == value);
	}
	check(!boot_eeprom_set_order(sbuf_str(&out), out.len, value, &again, &line, &replaced));
	check(replaced);
	check(again.len == out.len && !memcmp(sbuf_str(&again), sbuf_str(&out), out.len));
	sbuf_release(&out);
	sbuf_release(&again);
	return 0;
}
