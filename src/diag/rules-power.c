/* rules-power.c - the power leg from the system's own flags: the firmware's under-voltage
 * flag now (hwmon rpi_volt) and a Raspberry Pi 5 whose USB ports are held to 600 mA. */
#include <inttypes.h>

#include "diag/rules.h"
#include "probe/power.h"
#include "common/paths.h"
#include "common/util.h"

/* The USB drives attached: their names into buf ("sda, sdb"), their number returned. */
static size_t usb_drives(const struct diag_inventory *inv, char *buf, size_t cap)
{
	size_t i, n = 0, len = 0;

	buf[0] = '\0';
	for (i = 0; i < inv->n; i++) {
		if (!inv->devs[i].has_usb)
			continue;
		if (len < cap && !str_fmt(buf + len, cap - len, "%s%s", n ? ", " : "",
					  inv->devs[i].name))
			len = strlen(buf);
		n++;
	}
	return n;
}

static void undervoltage_now(struct rule_ctx *ctx, const struct probe_power *pw)
{
	struct diag_finding *f;

	if (!pw->has_uv_alarm || !pw->uv_alarm)
		return;
	f = rule_get(ctx, "undervoltage-now", DIAG_ERROR, NULL, NULL);
	if (!f)
		return;
	finding_title(f, "The firmware reports under-voltage right now");
	finding_explain(f, "The Raspberry Pi firmware's under-voltage flag is set: the 5 V supply "
			   "fell below about 4.63 V within the last seconds (the kernel's "
			   "raspberrypi-hwmon driver reads the flag every 2 seconds and clears it "
			   "each time). USB drives reset, vanish or corrupt data on a sagging "
			   "supply, and the figures of a benchmark run now are not the drive's.");
	finding_evidence_fact(f, "%s = 1 (hwmon rpi_volt: the firmware's under-voltage bit)",
			      pw->uv_path);
	finding_fix(f, "Use the official power supply (Pi 4: 5.1 V 3 A, Pi 5: 5.1 V 5 A) and a "
		       "short, thick cable; give a hard disk or a bus-powered SSD its own power "
		       "(a powered USB hub or an enclosure with its own supply).");
}

/* Pi 5: the firmware set the USB current limiter low at boot (usb_max_current_enable 0). */
static void usb_current(struct rule_ctx *ctx, const struct probe_power *pw)
{
	const struct diag_inventory *inv = ctx->inv;
	struct diag_finding *f;
	char drives[160];
	size_t n;

	if (!pw->has_usb_limit || pw->usb_max_current_enable)
		return;
	n = usb_drives(inv, drives, sizeof(drives));
	f = rule_get(ctx, "usb-current-limited",
		     pw->has_usb_over_current && pw->usb_over_current ? DIAG_ERROR :
		     n ? DIAG_WARNING : DIAG_INFO, n == 1 ? drives : NULL, NULL);
	if (!f)
		return;
	finding_title(f, "The USB ports may draw only %d mA in total: the supply did not offer 5 A",
		      PROBE_PI5_USB_LOW_MA);
	finding_explain(f, "A Raspberry Pi 5 raises its USB current limit to %d mA only when the "
			   "supply says it can deliver 5 A (USB-PD) or config.txt forces it with "
			   "usb_max_current_enable=1. This boot it kept the low limit, %d mA for all "
			   "USB ports together; a bus-powered SSD or hard disk can draw more than "
			   "that when it writes or spins up, and then resets or disappears.",
			PROBE_PI5_USB_HIGH_MA, PROBE_PI5_USB_LOW_MA);
	if (n)
		finding_explain(f, "USB drives attached: %s.", drives);
	finding_evidence_fact(f, PATH_DT_POWER "/usb_max_current_enable = 0 "
				 "(the low limit was set at boot)");
	if (pw->has_max_current)
		finding_evidence_fact(f, PATH_DT_POWER "/max_current = %" PRIu32
					 " mA (what the supply offered)", pw->max_current_ma);
	if (pw->has_usb_over_current && pw->usb_over_current)
		finding_evidence_fact(f, PATH_DT_POWER "/usb_over_current_detected"
					 " = %" PRIu32 " (a USB over-current event during boot)",
				      pw->usb_over_current);
	finding_fix(f, "Use a 5 A USB-C supply (the official 27 W one), or power the drive from a "
		       "powered USB hub or its own supply. Only if the supply is known to deliver "
		       "5 A without saying so (a bench supply): set usb_max_current_enable=1 in "
		       "config.txt; on a weaker supply that ends in under-voltage and resets.");
	finding_fix_cmd(f, "sbcdisk fix usb-current");
}

void rule_power(struct rule_ctx *ctx)
{
	const struct probe_power *pw = ctx->inv ? ctx->inv->power : NULL;

	if (!pw)
		return;
	undervoltage_now(ctx, pw);
	usb_current(ctx, pw);
}
