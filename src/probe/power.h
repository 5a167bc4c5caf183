/* power.h - the board's power facts as the kernel exposes them: the Raspberry Pi firmware's
 * under-voltage flag (hwmon rpi_volt) and the Pi 5's supply report (/chosen/power). */
#ifndef SBCDISK_PROBE_POWER_H
#define SBCDISK_PROBE_POWER_H

#include <stdbool.h>
#include <stdint.h>

#include "common/sysroot.h"

/*
 * Sources (docs/power.md cites each):
 *  - raspberrypi-hwmon (drivers/hwmon/raspberrypi-hwmon.c) registers the hwmon "rpi_volt"
 *    with one attribute, in0_lcrit_alarm = !!(throttled & BIT(16)), the firmware's sticky
 *    "under-voltage has occurred" bit of its last poll; the driver polls every 2 s and asks
 *    the firmware to clear the sticky bits each time, so 1 means "in the last seconds".
 *    Since boot is what the kernel log says ("Undervoltage detected!"), diag's rule.
 *  - the firmware's whole throttled word is in sysfs only as the downstream, deprecated
 *    get_throttled attribute of the firmware device, whose read puts a one-time WARN with a
 *    backtrace into the kernel log: it is not read.
 *  - Pi 5 only, /proc/device-tree/chosen/power/ (one big-endian cell each): max_current (mA
 *    the supply offers, from USB-C, USB-PD or PoE), usb_max_current_enable (0: the USB ports'
 *    current limiter was set low at boot, 600 mA in total), usb_over_current_detected.
 */
struct probe_power {
	bool has_uv_alarm;
	bool uv_alarm;          /* in0_lcrit_alarm is 1 */
	char uv_path[64];       /* "/sys/class/hwmon/hwmon1/in0_lcrit_alarm" */
	bool has_max_current;
	uint32_t max_current_ma;
	bool has_usb_limit;
	uint32_t usb_max_current_enable; /* 0: the low limit */
	bool has_usb_over_current;
	uint32_t usb_over_current;
};

/* The Pi 5 USB current limits (usb-bus-on-raspberry-pi.adoc "Raspberry Pi 5"): 600 mA in
 * total with the low limit, 1600 mA with the high one; the supply that enables the high one
 * by itself offers 5000 mA. */
#define PROBE_PI5_USB_LOW_MA  600
#define PROBE_PI5_USB_HIGH_MA 1600
#define PROBE_PI5_SUPPLY_FULL_MA 5000

/* Read what the tree has; a missing fact is unknown (has_* false), never an error. 0. */
int probe_power_read(struct sysroot *sr, struct probe_power *p);

#endif
