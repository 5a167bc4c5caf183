/* usb.h - USB facts that more than one layer names: the driver bound to a storage interface,
 * the link speeds sysfs reports, and the sizes of the names sysfs gives. */
#ifndef SBCDISK_USB_H
#define SBCDISK_USB_H

/* The driver of a USB mass-storage interface (its "driver" link). The values are stable: the
 * kernel-log summary keeps the same numbers. */
enum usb_driver {
	USB_DRIVER_UNKNOWN = 0, /* no driver link, or not read */
	USB_DRIVER_UAS = 1,     /* "uas" */
	USB_DRIVER_STORAGE = 2, /* "usb-storage" (Bulk-Only Transport) */
	USB_DRIVER_OTHER = 3,   /* anything else */
};

/* "uas" -> USB_DRIVER_UAS, "usb-storage" -> USB_DRIVER_STORAGE, "" or NULL -> unknown. */
enum usb_driver usb_driver_parse(const char *name);

/* Link speeds in Mbit/s, as the device's "speed" attribute prints them. */
#define USB_SPEED_LOW_MBPS     1.5   /* USB 1.x low speed */
#define USB_SPEED_FULL_MBPS    12    /* USB 1.x full speed */
#define USB_SPEED_HIGH_MBPS    480   /* USB 2.0 */
#define USB_SPEED_SUPER_MBPS   5000  /* USB 3.x Gen 1 */
#define USB_SPEED_SUPER2_MBPS  10000 /* USB 3.x Gen 2 (also Gen 1x2) */
#define USB_SPEED_SUPER22_MBPS 20000 /* USB 3.2 Gen 2x2 */

/* Buffer sizes for what sysfs names: a driver ("usb-storage"), a port ("2-1.4.3"), an
 * interface ("2-1.4.3:1.0"), a string descriptor (manufacturer, product, serial). */
#define USB_DRIVER_NAME_MAX 32
#define USB_PORT_NAME_MAX   32
#define USB_IFACE_NAME_MAX  48
#define USB_STRING_MAX      128

#endif
