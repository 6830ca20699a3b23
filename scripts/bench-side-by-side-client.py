#!/usr/bin/python3
"""The smallest useful Python heart-rate client, the baseline of scripts/bench-side-by-side.py.

Connects the BlueZ device with address ADDRESS (which must already be known to bluetoothd), calls
StartNotify on its Heart Rate Measurement (0x2A37) characteristic and prints one JSON line per RR
interval, flushed at once. No artifact correction, no metrics, no reconnection: the floor of what
a Python D-Bus client costs, not an equivalent of hrvmon.

Usage: /usr/bin/python3 scripts/bench-side-by-side-client.py ADDRESS   (python3-dbus, python3-gi;
the bus is $DBUS_SYSTEM_BUS_ADDRESS or the system bus)
"""
import sys

import dbus
import dbus.mainloop.glib
from gi.repository import GLib

HEART_RATE_MEASUREMENT = "00002a37-0000-1000-8000-00805f9b34fb"
DEVICE, CHARACTERISTIC = "org.bluez.Device1", "org.bluez.GattCharacteristic1"


def rr_intervals(value):
    """RR intervals in 1/1024 s from a 0x2A37 value: flags, UInt8/UInt16 HR, energy, RR..."""
    flags = value[0]
    if not flags & 0x10:
        return []
    start = (3 if flags & 0x01 else 2) + (2 if flags & 0x08 else 0)
    return [value[i] | value[i + 1] << 8 for i in range(start, len(value) - 1, 2)]


def on_properties_changed(interface, changed, invalidated):
    if "Value" in changed:
        for rr in rr_intervals(bytes(changed["Value"])):
            sys.stdout.write('{"type":"rr","rr_ms":%r}\n' % (rr * 1000 / 1024))
        sys.stdout.flush()


def characteristic(objects, device):
    for path, interfaces in objects.items():
        if path.startswith(device + "/") and interfaces.get(CHARACTERISTIC, {}).get("UUID") == HEART_RATE_MEASUREMENT:
            return path


def start_notify(path):
    # The handler is registered before StartNotify, so no notification can be missed.
    bus.add_signal_receiver(on_properties_changed, "PropertiesChanged", "org.freedesktop.DBus.Properties",
                            "org.bluez", path)
    bus.get_object("org.bluez", path).StartNotify(dbus_interface=CHARACTERISTIC)


def on_interfaces_added(path, interfaces):
    if characteristic({path: interfaces}, device):
        start_notify(path)


dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
bus = dbus.SystemBus()
manager = dbus.Interface(bus.get_object("org.bluez", "/"), "org.freedesktop.DBus.ObjectManager")
# GATT objects are exported once services are resolved after the first connection: listen before
# reading the tree, so they cannot appear in between.
manager.connect_to_signal("InterfacesAdded", on_interfaces_added)
objects = manager.GetManagedObjects()
device = next(path for path, interfaces in objects.items()
              if interfaces.get(DEVICE, {}).get("Address") == sys.argv[1])
bus.get_object("org.bluez", device).Connect(dbus_interface=DEVICE)
if characteristic(objects, device):
    start_notify(characteristic(objects, device))
GLib.MainLoop().run()
