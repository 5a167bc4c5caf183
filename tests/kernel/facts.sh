# shellcheck shell=bash
# facts.sh - run in the guest (sourced by a case's run.sh): what the kernel says about every
# disk, read with the shell and the usual tools, never with sbcdisk, into $K/facts/:
# lsblk.json (lsblk -J -b), lsusb-t.txt, and DISK.txt per disk with KEY=VALUE lines from
# sysfs: the USB device (port, ids, speed, bcdUSB, the interface's driver, the SCSI host's
# proc_name, the hubs and the root hub), the PCI function and its port (link speed and
# width), the SD card (type, name, manfid, oemid, date, serial).
mkdir -p "$K/facts"
lsblk -J -b -d -o NAME,MAJ:MIN,SIZE,TYPE,RO,RM,ROTA,MODEL,VENDOR,REV,SERIAL,TRAN \
	>"$K/facts/lsblk.json"
lsusb -t >"$K/facts/lsusb-t.txt" 2>&1

# val FILE: its content, or the word none
val() { if [ -r "$1" ]; then tr -d '\n' <"$1"; else echo none; fi; }

for b in /sys/block/sd* /sys/block/nvme*n* /sys/block/mmcblk[0-9]; do
	[ -e "$b" ] || continue
	n=${b##*/} f=$K/facts/${b##*/}.txt
	p=$(readlink -f "$b/device")
	: >"$f"
	hubs=''
	udev=''
	# up from the disk: the SCSI host, the USB interface and device, hubs, the PCI function
	while [ "$p" != /sys/devices ] && [ -n "$p" ]; do
		d=${p##*/}
		case $d in
		host[0-9]*)
			{
				echo "scsi_host_proc_name=$(val "/sys/class/scsi_host/$d/proc_name")"
				echo "scsi_host_parent_driver=$(basename "$(readlink "${p%/*}/driver")")"
			} >>"$f"
			;;
		[0-9]*-*:*.[0-9]*)
			echo "usb_interface_driver=$(basename "$(readlink "$p/driver")")" >>"$f" ;;
		usb[0-9]*) echo "usb_root_hub_speed=$(val "$p/speed")" >>"$f" ;;
		[0-9]*-[0-9]*)
			if [ -z "$udev" ]; then
				udev=$d
				{
					echo "usb_port=$d"
					echo "usb_vid=$(val "$p/idVendor")"
					echo "usb_pid=$(val "$p/idProduct")"
					echo "usb_speed=$(val "$p/speed")"
					echo "usb_version=$(val "$p/version" | tr -d ' ')"
					echo "usb_serial=$(val "$p/serial")"
					echo "usb_product=$(val "$p/product")"
				} >>"$f"
			else
				hubs="$hubs $d:$(val "$p/idVendor"):$(val "$p/idProduct"):$(val "$p/speed")"
			fi
			;;
		????:??:??.?)
			case $n in nvme*) ;; *) p=${p%/*}; continue ;; esac
			if [ -r "$p/current_link_speed" ] && ! grep -q pcie_speed "$f"; then
				{
					echo "pcie_address=$d"
					echo "pcie_speed=$(val "$p/current_link_speed")"
					echo "pcie_width=$(val "$p/current_link_width")"
					echo "pcie_max_speed=$(val "$p/max_link_speed")"
					echo "pcie_max_width=$(val "$p/max_link_width")"
					q=${p%/*}
					echo "pcie_port_max_speed=$(val "$q/max_link_speed")"
					echo "pcie_port_max_width=$(val "$q/max_link_width")"
				} >>"$f"
			fi
			;;
		esac
		p=${p%/*}
	done
	[ -n "$udev" ] && echo "usb_hubs=${hubs# }" >>"$f"
	case $n in
	mmcblk*)
		for a in type name manfid oemid date serial; do
			echo "mmc_$a=$(val "$b/device/$a")"
		done >>"$f"
		;;
	esac
done
