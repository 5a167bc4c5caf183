#!/usr/bin/env python3
"""fake-systemd.py - a systemd-like object on a private bus for `sbcdisk boot time`: the
Manager properties systemd-analyze reads (org.freedesktop.systemd1.Manager, values in
microseconds of CLOCK_MONOTONIC), GetDefaultTarget, ListUnits and the units' timestamps.
The figures are those of a Raspberry Pi 4 booting from a USB SSD (no firmware/loader times,
no initrd). Usage: fake-systemd.py READY_FILE (written once the name is owned).
With FAKE_SYSTEMD_FIGURES=FILE, each read of the Manager's timestamps takes them from FILE
("USERSPACE FINISH [INITRD]", microseconds): one boot after another without a restart."""
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

MANAGER = "org.freedesktop.systemd1.Manager"
UNIT = "org.freedesktop.systemd1.Unit"
PROPS = "org.freedesktop.DBus.Properties"
STARTED = 6_912_345       # kernel handed over to systemd at 6.912345 s
FINISHED = 27_843_210     # default target reached at 27.843210 s
UNITS = [  # name, InactiveExit, ActiveEnter (us)
    ("NetworkManager-wait-online.service", 9_100_000, 17_400_000),
    ("dev-sda2.device", 7_000_000, 8_250_000),
    ("systemd-fsck@dev-sda1.service", 8_300_000, 8_512_000),
    ("apt-daily.service", 0, 0),  # never ran: no figure
]


class Unit(dbus.service.Object):
    def __init__(self, bus, path, start, end):
        super().__init__(bus, path)
        self.props = {"InactiveExitTimestampMonotonic": dbus.UInt64(start),
                      "ActiveEnterTimestampMonotonic": dbus.UInt64(end)}

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, iface, name):
        return self.props[name]


class Manager(dbus.service.Object):
    props = {"FirmwareTimestampMonotonic": dbus.UInt64(0),
             "LoaderTimestampMonotonic": dbus.UInt64(0),
             "KernelTimestamp": dbus.UInt64(1_700_000_000_000_000),
             "InitRDTimestampMonotonic": dbus.UInt64(0),
             "UserspaceTimestampMonotonic": dbus.UInt64(STARTED),
             "FinishTimestampMonotonic": dbus.UInt64(FINISHED)}

    @dbus.service.method(PROPS, in_signature="ss", out_signature="v")
    def Get(self, iface, name):
        figures = os.environ.get("FAKE_SYSTEMD_FIGURES")
        if figures:
            v = [int(x) for x in open(figures).read().split()]
            initrd = v[2] if len(v) > 2 else 0
            now = {"UserspaceTimestampMonotonic": v[0], "FinishTimestampMonotonic": v[1],
                   "InitRDTimestampMonotonic": initrd}
            if name in now:
                return dbus.UInt64(now[name])
        return self.props[name]

    @dbus.service.method(MANAGER, in_signature="", out_signature="s")
    def GetDefaultTarget(self):
        return "graphical.target"

    @dbus.service.method(MANAGER, in_signature="", out_signature="a(ssssssouso)")
    def ListUnits(self):
        return [(n, "", "loaded", "active", "running", "",
                 dbus.ObjectPath("/org/freedesktop/systemd1/unit/u%d" % i), 0, "", "/")
                for i, (n, _, _) in enumerate(UNITS)]


DBusGMainLoop(set_as_default=True)
bus = dbus.SessionBus()  # the private bus the test started, reached as the "session" bus
name = dbus.service.BusName("org.freedesktop.systemd1", bus)
Manager(bus, "/org/freedesktop/systemd1")
for i, (n, s, e) in enumerate(UNITS):
    Unit(bus, "/org/freedesktop/systemd1/unit/u%d" % i, s, e)
open(sys.argv[1], "w").close()
GLib.MainLoop().run()
