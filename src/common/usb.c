/* usb.c - the USB facts of usb.h that need code: the driver of an interface by its name. */
#include <string.h>

#include "common/usb.h"

enum usb_driver usb_driver_parse(const char *name)
{
	if (!name || !*name)
		return USB_DRIVER_UNKNOWN;
	if (!strcmp(name, "uas"))
		return USB_DRIVER_UAS;
	if (!strcmp(name, "usb-storage"))
		return USB_DRIVER_STORAGE;
	return USB_DRIVER_OTHER;
}
