/* bridges.c - our own table of USB storage bridge chips by VID:PID, each with where it is from.
 * Where a source does not name the chip, the entry says only what kind of bridge it is. */
#include "probe/probe-int.h"
#include "common/util.h"

struct bridge {
	uint16_t vid, pid;
	const char *name;
};

/* clang-format off */
static const struct bridge bridges[] = {
	/* usb.ids "JMS567 SATA 6Gb/s bridge"; the same id after the JMS578 firmware update for
	 * Odroid/Pi enclosures (public write-up "JMS578FwUpdate", lsusb shows 152d:0578) */
	{ 0x152d, 0x0578, "JMicron JMS567/JMS578" },
	/* usb.ids "JMS567 SATA 6Gb/s bridge"; linux-usb thread 2023-09 ("lsusb -v", bcdUSB 3.00) */
	{ 0x152d, 0x0567, "JMicron JMS567" },
	/* usb.ids says JMS567; a public teardown of an M2NVU31 enclosure found a JMS583 chip */
	{ 0x152d, 0x0562, "JMicron JMS567/JMS583" },
	/* usb.ids "JMS583Gen 2 to PCIe Gen3x2 Bridge"; in a real quirk list
	 * (listings/16) */
	{ 0x152d, 0x0583, "JMicron JMS583 (NVMe)" },
	/* usb.ids "Gen1 SATA 6Gb/s Bridge" (seed 003 lsusb) */
	{ 0x152d, 0x0576, "JMicron Gen1 SATA bridge" },
	/* raspberrypi/linux#3814 boot log: JMicron enclosure 152d:0561 (klog/23) */
	{ 0x152d, 0x0561, "JMicron SATA bridge" },
	/* usb.ids "JMS561U two ports SATA 6Gb/s bridge"; Sabrent enclosure in raspberrypi/linux#5060
	 * (listings/07) */
	{ 0x152d, 0x1561, "JMicron JMS561U" },
	/* usb.ids "JM20329 SATA Bridge" (listings/11, Odroid N2) */
	{ 0x152d, 0x2329, "JMicron JM20329" },
	/* usb.ids "JMS539 SuperSpeed SATA II 3.0G Bridge" */
	{ 0x152d, 0x2509, "JMicron JMS539" },
	/* usb.ids "ASM1051E SATA 6Gb/s bridge, ASM1053E SATA 6Gb/s bridge, ASM1153 SATA 3Gb/s
	 * bridge, ASM1153E SATA 6Gb/s bridge"; Linux uas-detect.h tells them apart by bcdDevice and
	 * bMaxPower (sysfs-facts section 1.3) */
	{ 0x174c, 0x55aa, "ASMedia ASM1051E/ASM1053E/ASM1153E" },
	/* Argon ONE M.2 "Argon Forty" bridge, lsusb -v in listings/01 */
	{ 0x174c, 0x1156, "ASMedia ASM1156" },
	/* seed 004: M.2 SATA adapter that needed usb-storage.quirks=2109:0715:u */
	{ 0x2109, 0x0715, "VIA Labs SATA bridge" },
	/* listings/11: the VIA device that needed usb-storage.quirks=2109:0711:u */
	{ 0x2109, 0x0711, "VIA Labs SATA bridge" },
	/* seed 003 and pi-boot-facts.md: RTL9210(B) M.2 NVMe/SATA adapters, quirk 0bda:9210:u */
	{ 0x0bda, 0x9210, "Realtek RTL9210" },
	/* listings/16: the Realtek NVMe bridge id next to 152d:0583 in a real quirk list */
	{ 0x0bda, 0x9201, "Realtek NVMe bridge" },
	/* seed 003 lsusb: "Genesys Logic, Inc. SD Card Reader and Writer" (BUFFALO BSCR27U3) */
	{ 0x05e3, 0x0749, "Genesys Logic SD card reader" },
};
/* clang-format on */

const char *probe_bridge_name(uint16_t vid, uint16_t pid)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bridges); i++)
		if (bridges[i].vid == vid && bridges[i].pid == pid)
			return bridges[i].name;
	return NULL;
}
