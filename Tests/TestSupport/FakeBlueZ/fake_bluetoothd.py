#!/usr/bin/python3
# Fake bluetoothd for hrvmon tests: models the D-Bus behaviour of BlueZ 5.66
# (Debian 12) closely enough to test a BlueZ client without Bluetooth hardware.
#
# Run with Debian's /usr/bin/python3 (python3-dbus, python3-gi):
#     fake_bluetoothd.py --bus ADDRESS --config FILE.json
# Prints "ready" on stdout once org.bluez is owned and objects are exported,
# then answers line-based control commands on stdin with one JSON line each.
# Logs go to stderr only.  See README.md next to this file for the behaviour
# modelled, where it was checked in the BlueZ source, and the command reference.

import argparse
import collections
import json
import os
import random
import signal
import socket
import sys
import time

import dbus
import dbus.bus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

from pmd_strap import FEATURES, PMD_CONTROL_POINT, PMD_DATA, PMD_SERVICE, PmdStrap

PROPS = 'org.freedesktop.DBus.Properties'
INTROSPECTABLE = 'org.freedesktop.DBus.Introspectable'
OBJECT_MANAGER = 'org.freedesktop.DBus.ObjectManager'
ADAPTER = 'org.bluez.Adapter1'
DEVICE = 'org.bluez.Device1'
BATTERY = 'org.bluez.Battery1'
GATT_SERVICE = 'org.bluez.GattService1'
GATT_CHRC = 'org.bluez.GattCharacteristic1'
GATT_DESC = 'org.bluez.GattDescriptor1'
GATT_MANAGER = 'org.bluez.GattManager1'
ADV_MANAGER = 'org.bluez.LEAdvertisingManager1'
AGENT_MANAGER = 'org.bluez.AgentManager1'
PROFILE_MANAGER = 'org.bluez.ProfileManager1'

DBUS_INVALID_ARGS = 'org.freedesktop.DBus.Error.InvalidArgs'
DBUS_UNKNOWN_PROPERTY = 'org.freedesktop.DBus.Error.UnknownProperty'
DBUS_READ_ONLY = 'org.freedesktop.DBus.Error.PropertyReadOnly'
DBUS_INVALID_SIGNATURE = 'org.freedesktop.DBus.Error.InvalidSignature'

# Default texts of src/error.c (BlueZ 5.66), used for errors and for injected
# failures that give no message.
ERROR_TEXT = {
    'InvalidArguments': 'Invalid arguments in method call',
    'InProgress': 'In Progress',
    'AlreadyExists': 'Already Exists',
    'NotSupported': 'Operation is not supported',
    'NotConnected': 'Not Connected',
    'AlreadyConnected': 'Already Connected',
    'NotAvailable': 'Operation currently not available',
    'DoesNotExist': 'Does Not Exist',
    'NotAuthorized': 'Operation Not Authorized',
    'NotPermitted': 'Operation Not Permitted',
    'NoSuchAdapter': 'No such adapter',
    'AgentNotAvailable': 'Agent Not Available',
    'NotReady': 'Resource Not Ready',
    'Failed': 'Operation failed',
}

# Messages used by BlueZ 5.66 in the places modelled here.
MSG_BUSY = 'Operation already in progress'           # btd_error_busy()
MSG_LE_ABORT_LOCAL = 'le-connection-abort-by-local'  # ERR_LE_CONN_ABORT_BY_LOCAL
MSG_CANCELED = 'br-connection-canceled'              # ERR_BREDR_CONN_CANCELED
MSG_ATT_UNLIKELY = 'Operation failed with ATT error: 0x0e'

BASE_UUID = '-0000-1000-8000-00805f9b34fb'
# Services claimed by internal (non-external) BlueZ profiles are not exported
# as GattService1 objects (device.c add_gatt_service / gatt-client.c
# export_service): GAP 0x1800 (gap plugin) and HID 0x1812 (hog).
CLAIMED_SERVICES = {'1800', '1812'}

UUID_HR_MEASUREMENT = '2a37'
UUID_BODY_SENSOR = '2a38'
UUID_BATTERY_LEVEL = '2a19'


def log(msg):
    sys.stderr.write('fake_bluetoothd[%d]: %s\n' % (os.getpid(), msg))
    sys.stderr.flush()


def bz_error(name, text=None):
    full = name if '.' in name else 'org.bluez.Error.' + name
    if text is None:
        short = full[len('org.bluez.Error.'):] if full.startswith('org.bluez.Error.') else ''
        text = ERROR_TEXT.get(short, 'Injected failure')
    return dbus.DBusException(text, name=full)


def dbus_error(name, text):
    return dbus.DBusException(text, name=name)


def short_uuid(u):
    s = str(u).strip().lower()
    if s.startswith('0x'):
        s = s[2:]
    if len(s) <= 4:
        return '%04x' % int(s, 16)
    return s


def uuid128(u):
    """Normalise like bt_string_to_uuid + bt_uuid_to_uuid128; ValueError if invalid."""
    s = str(u).strip().lower()
    if s.startswith('0x'):
        s = s[2:]
    if 1 <= len(s) <= 4:
        return '0000%04x%s' % (int(s, 16), BASE_UUID)
    if len(s) == 8:
        return '%08x%s' % (int(s, 16), BASE_UUID)
    parts = s.split('-')
    if [len(p) for p in parts] == [8, 4, 4, 4, 12]:
        int(''.join(parts), 16)
        return s
    raise ValueError('invalid UUID %r' % u)


def v_bool(b):
    return dbus.Boolean(bool(b))


def v_bytes(data):
    return dbus.Array([dbus.Byte(b) for b in data], signature='y')


def v_strs(items):
    return dbus.Array([dbus.String(x) for x in items], signature='s')


# Timing jitter (config "jitter": {"seed", "fraction"}): every delay of the
# fake is stretched or shrunk by up to this fraction, from a seeded generator,
# so that the order of replies, signals and notifications varies as it does
# with a real radio and a real kernel.
JITTER = {'rng': None, 'fraction': 0.0}


def jittered(ms):
    rng = JITTER['rng']
    if rng is None or ms <= 0:
        return ms
    f = JITTER['fraction']
    return ms * (1.0 + rng.uniform(-f, f))


def later(ms, fn, *args):
    def run():
        try:
            fn(*args)
        except Exception:
            log('timer callback failed:\n' + traceback_text())
        return False
    return GLib.timeout_add(max(0, int(jittered(ms))), run)


def cancel(source_id):
    if source_id:
        GLib.source_remove(source_id)
    return 0


def traceback_text():
    import traceback
    return traceback.format_exc()


# --------------------------------------------------------------------------
# Signal emission with gdbus semantics (gdbus/object.c, BlueZ 5.66):
#  * PropertiesChanged is coalesced per object and interface and sent from an
#    idle callback with the values current at that time (several properties
#    changed in one step arrive in ONE signal, keys in the order changed);
#    G_DBUS_PROPERTY_CHANGED_FLAG_FLUSH (used for characteristic Value) sends
#    at once, one signal per change, even if the bytes repeat.
#  * A property whose "exists" callback now fails goes to the invalidated list.
#  * InterfacesAdded is sent from the idle callback too (parent path first);
#    property changes on an interface not yet announced are dropped.
#  * Removing a whole object flushes its pending changes and sends
#    InterfacesRemoved at once; removing one interface of a live object
#    (Battery1 on a device) is sent from the idle callback after its pending
#    property changes.
#  * Idle callbacks of different objects run in the order they were scheduled.
# --------------------------------------------------------------------------
class Emitter:
    def __init__(self, fake):
        self.fake = fake
        self.pending = collections.OrderedDict()
        self.idle_id = 0

    def _entry(self, path):
        e = self.pending.get(path)
        if e is None:
            e = {'added': [], 'props': collections.OrderedDict(), 'removed': []}
            self.pending[path] = e
        return e

    def _schedule(self):
        if not self.idle_id:
            self.idle_id = GLib.idle_add(self._on_idle)

    def _on_idle(self):
        self.idle_id = 0
        self.flush_all()
        return False

    def flush_all(self):
        while self.pending:
            path = next(iter(self.pending))
            self._process(path)

    def _process(self, path):
        # parents announce before children
        parent = path.rsplit('/', 1)[0]
        while parent:
            pe = self.pending.get(parent)
            if pe is not None and pe['added']:
                self._process(parent)
            parent = parent.rsplit('/', 1)[0]
        e = self.pending.pop(path, None)
        if e is None:
            return
        obj = self.fake.objects.get(path)
        if e['added'] and obj is not None:
            ifaces = dbus.Dictionary({}, signature='sa{sv}')
            for iface in e['added']:
                ifaces[iface] = obj.props(iface)
            self.fake.root.InterfacesAdded(dbus.ObjectPath(path), ifaces)
        if obj is not None:
            for iface, names in e['props'].items():
                self._emit_props(obj, iface, names)
        if e['removed']:
            self.fake.root.InterfacesRemoved(dbus.ObjectPath(path), v_strs(e['removed']))

    def _emit_props(self, obj, iface, names):
        if iface not in obj.interfaces():
            return
        current = obj.props(iface)
        changed = dbus.Dictionary({}, signature='sv')
        invalidated = []
        for n in names:
            if n in current:
                changed[n] = current[n]
            else:
                invalidated.insert(0, n)
        obj.PropertiesChanged(iface, changed, v_strs(invalidated))

    def added(self, obj, ifaces):
        e = self._entry(obj.path)
        for i in ifaces:
            if i not in e['added']:
                e['added'].append(i)
        self._schedule()

    def changed(self, obj, iface, names, flush=False):
        if self.fake.objects.get(obj.path) is not obj:
            return
        if iface not in obj.interfaces():
            return
        e = self.pending.get(obj.path)
        if e is not None and iface in e['added']:
            return
        e = self._entry(obj.path)
        lst = e['props'].setdefault(iface, [])
        for n in names:
            if n not in lst:
                lst.append(n)
        if flush:
            self.flush_props(obj)
        else:
            self._schedule()

    def flush_props(self, obj, only_iface=None):
        e = self.pending.get(obj.path)
        if e is None:
            return
        for iface in list(e['props'].keys()):
            if only_iface is not None and iface != only_iface:
                continue
            names = e['props'].pop(iface)
            self._emit_props(obj, iface, names)
        if not e['added'] and not e['props'] and not e['removed']:
            del self.pending[obj.path]

    def iface_removed(self, obj, iface):
        """Call BEFORE the object stops listing iface."""
        self.flush_props(obj, iface)
        e = self.pending.get(obj.path)
        if e is not None and iface in e['added']:
            e['added'].remove(iface)
            return
        e = self._entry(obj.path)
        e['removed'].append(iface)
        self._schedule()

    def object_removed(self, obj, all_ifaces):
        """Call BEFORE unregistering; sends InterfacesRemoved now."""
        self.flush_props(obj)
        e = self.pending.pop(obj.path, None)
        announced = [i for i in all_ifaces if not (e and i in e['added'])]
        removed = (e['removed'] if e else []) + list(reversed(announced))
        if announced or (e and e['removed']):
            self.fake.root.InterfacesRemoved(dbus.ObjectPath(obj.path), v_strs(removed))


# --------------------------------------------------------------------------
# D-Bus objects
# --------------------------------------------------------------------------
class BzObject(dbus.service.Object):
    """Base for every org.bluez object: Properties like gdbus."""
    SCHEMA = {}        # iface -> {name: signature}
    WRITABLE = {}      # iface -> set of names

    def __init__(self, fake, path):
        self.fake = fake
        self.path = path
        dbus.service.Object.__init__(self, fake.bus, path)

    def interfaces(self):
        return list(self.SCHEMA.keys())

    def all_interfaces(self):
        return [INTROSPECTABLE] + self.interfaces() + [PROPS]

    def props(self, iface):
        return dbus.Dictionary({}, signature='sv')

    def set_prop(self, iface, name, value, sender):
        raise dbus_error(DBUS_READ_ONLY, "Property '%s' is not writable" % name)

    def managed(self):
        d = dbus.Dictionary({}, signature='sa{sv}')
        for iface in self.all_interfaces():
            d[iface] = self.props(iface)
        return d

    @dbus.service.method(PROPS, in_signature='ss', out_signature='v', sender_keyword='sender')
    def Get(self, interface, name, sender=None):
        self.fake.on_call('Get', self.path, sender, PROPS)
        if interface not in self.all_interfaces():
            raise dbus_error(DBUS_INVALID_ARGS, "No such interface '%s'" % interface)
        current = self.props(interface)
        if name not in current:
            raise dbus_error(DBUS_INVALID_ARGS, "No such property '%s'" % name)
        return current[name]

    @dbus.service.method(PROPS, in_signature='s', out_signature='a{sv}', sender_keyword='sender')
    def GetAll(self, interface, sender=None):
        self.fake.on_call('GetAll', self.path, sender, PROPS)
        if interface not in self.all_interfaces():
            raise dbus_error(DBUS_INVALID_ARGS, "No such interface '%s'" % interface)
        return self.props(interface)

    @dbus.service.method(PROPS, in_signature='ssv', out_signature='', sender_keyword='sender')
    def Set(self, interface, name, value, sender=None):
        self.fake.on_call('Set', self.path, sender, PROPS)
        if interface not in self.all_interfaces():
            raise dbus_error(DBUS_INVALID_ARGS, "No such interface '%s'" % interface)
        schema = self.SCHEMA.get(interface, {})
        if name not in schema:
            raise dbus_error(DBUS_UNKNOWN_PROPERTY, "No such property '%s'" % name)
        if name not in self.WRITABLE.get(interface, set()):
            raise dbus_error(DBUS_READ_ONLY, "Property '%s' is not writable" % name)
        if name not in self.props(interface):
            raise dbus_error(DBUS_UNKNOWN_PROPERTY, "No such property '%s'" % name)
        if signature_of(value) != schema[name]:
            raise dbus_error(DBUS_INVALID_SIGNATURE, "Invalid signature for '%s'" % name)
        self.set_prop(interface, name, value, sender)

    @dbus.service.signal(PROPS, signature='sa{sv}as')
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


def signature_of(value):
    if isinstance(value, dbus.Boolean):
        return 'b'
    if isinstance(value, dbus.String):
        return 's'
    if isinstance(value, dbus.UInt32):
        return 'u'
    if isinstance(value, dbus.UInt16):
        return 'q'
    if isinstance(value, dbus.Int16):
        return 'n'
    if isinstance(value, dbus.Byte):
        return 'y'
    return '?'


class Root(dbus.service.Object):
    def __init__(self, fake):
        self.fake = fake
        dbus.service.Object.__init__(self, fake.bus, '/')

    @dbus.service.method(OBJECT_MANAGER, in_signature='', out_signature='a{oa{sa{sv}}}',
                         sender_keyword='sender')
    def GetManagedObjects(self, sender=None):
        self.fake.on_call('GetManagedObjects', '/', sender, OBJECT_MANAGER)
        result = dbus.Dictionary({}, signature='oa{sa{sv}}')
        for path, obj in self.fake.objects.items():
            result[dbus.ObjectPath(path)] = obj.managed()
        return result

    @dbus.service.signal(OBJECT_MANAGER, signature='oa{sa{sv}}')
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature='oas')
    def InterfacesRemoved(self, path, interfaces):
        pass


class ManagerObj(BzObject):
    """/org/bluez: AgentManager1 and ProfileManager1 (accepted, not used)."""
    SCHEMA = collections.OrderedDict([(AGENT_MANAGER, {}), (PROFILE_MANAGER, {})])

    @dbus.service.method(AGENT_MANAGER, in_signature='os', out_signature='', sender_keyword='sender')
    def RegisterAgent(self, agent, capability, sender=None):
        self.fake.on_call('RegisterAgent', self.path, sender, AGENT_MANAGER)

    @dbus.service.method(AGENT_MANAGER, in_signature='o', out_signature='', sender_keyword='sender')
    def UnregisterAgent(self, agent, sender=None):
        self.fake.on_call('UnregisterAgent', self.path, sender, AGENT_MANAGER)

    @dbus.service.method(AGENT_MANAGER, in_signature='o', out_signature='', sender_keyword='sender')
    def RequestDefaultAgent(self, agent, sender=None):
        self.fake.on_call('RequestDefaultAgent', self.path, sender, AGENT_MANAGER)

    @dbus.service.method(PROFILE_MANAGER, in_signature='osa{sv}', out_signature='',
                         sender_keyword='sender')
    def RegisterProfile(self, profile, uuid, options, sender=None):
        self.fake.on_call('RegisterProfile', self.path, sender, PROFILE_MANAGER)

    @dbus.service.method(PROFILE_MANAGER, in_signature='o', out_signature='', sender_keyword='sender')
    def UnregisterProfile(self, profile, sender=None):
        self.fake.on_call('UnregisterProfile', self.path, sender, PROFILE_MANAGER)


class AdapterObj(BzObject):
    SCHEMA = collections.OrderedDict([
        (ADAPTER, {'Address': 's', 'AddressType': 's', 'Name': 's', 'Alias': 's', 'Class': 'u',
                   'Powered': 'b', 'Discoverable': 'b', 'DiscoverableTimeout': 'u',
                   'Pairable': 'b', 'PairableTimeout': 'u', 'Discovering': 'b', 'UUIDs': 'as',
                   'Modalias': 's', 'Roles': 'as'}),
        (GATT_MANAGER, {}),
        (ADV_MANAGER, {'ActiveInstances': 'y', 'SupportedInstances': 'y',
                       'SupportedIncludes': 'as', 'SupportedSecondaryChannels': 'as'}),
    ])
    WRITABLE = {ADAPTER: {'Alias', 'Powered', 'Discoverable', 'DiscoverableTimeout',
                          'Pairable', 'PairableTimeout'}}

    def __init__(self, fake, model):
        self.model = model
        BzObject.__init__(self, fake, model.path)

    def props(self, iface):
        m = self.model
        p = dbus.Dictionary({}, signature='sv')
        if iface == ADAPTER:
            p['Address'] = dbus.String(m.address)
            p['AddressType'] = dbus.String('public')
            p['Name'] = dbus.String(m.local_name)
            p['Alias'] = dbus.String(m.alias or m.local_name)
            p['Class'] = dbus.UInt32(0)
            p['Powered'] = v_bool(m.powered)
            p['Discoverable'] = v_bool(m.discoverable)
            p['DiscoverableTimeout'] = dbus.UInt32(m.discoverable_timeout)
            p['Pairable'] = v_bool(m.pairable)
            p['PairableTimeout'] = dbus.UInt32(m.pairable_timeout)
            p['Discovering'] = v_bool(m.discovering)
            p['UUIDs'] = v_strs(m.uuids)
            p['Modalias'] = dbus.String('usb:v1D6Bp0246d0542')
            p['Roles'] = v_strs(['central', 'peripheral'])
        elif iface == ADV_MANAGER:
            p['ActiveInstances'] = dbus.Byte(0)
            p['SupportedInstances'] = dbus.Byte(5)
            p['SupportedIncludes'] = v_strs(['tx-power', 'appearance', 'local-name'])
            p['SupportedSecondaryChannels'] = v_strs([])
        return p

    def set_prop(self, iface, name, value, sender):
        self.model.set_prop(name, value)

    @dbus.service.method(ADAPTER, in_signature='', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def StartDiscovery(self, sender=None, ok=None, err=None):
        self.fake.on_call('StartDiscovery', self.path, sender, ADAPTER)
        self.model.start_discovery(sender, ok, err)

    @dbus.service.method(ADAPTER, in_signature='a{sv}', out_signature='', sender_keyword='sender')
    def SetDiscoveryFilter(self, properties, sender=None):
        self.fake.on_call('SetDiscoveryFilter', self.path, sender, ADAPTER)
        self.model.set_discovery_filter(sender, properties)

    @dbus.service.method(ADAPTER, in_signature='', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def StopDiscovery(self, sender=None, ok=None, err=None):
        self.fake.on_call('StopDiscovery', self.path, sender, ADAPTER)
        self.model.stop_discovery(sender, ok, err)

    @dbus.service.method(ADAPTER, in_signature='o', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def RemoveDevice(self, device, sender=None, ok=None, err=None):
        self.fake.on_call('RemoveDevice', self.path, sender, ADAPTER)
        self.model.remove_device_call(str(device), ok, err)

    @dbus.service.method(ADAPTER, in_signature='', out_signature='as', sender_keyword='sender')
    def GetDiscoveryFilters(self, sender=None):
        self.fake.on_call('GetDiscoveryFilters', self.path, sender, ADAPTER)
        return v_strs(['UUIDs', 'RSSI', 'Pathloss', 'Transport', 'DuplicateData',
                       'Discoverable', 'Pattern'])


class DeviceObj(BzObject):
    SCHEMA = collections.OrderedDict([
        (DEVICE, {'Address': 's', 'AddressType': 's', 'Name': 's', 'Alias': 's',
                  'Appearance': 'q', 'Icon': 's', 'Paired': 'b', 'Bonded': 'b', 'Trusted': 'b',
                  'Blocked': 'b', 'LegacyPairing': 'b', 'RSSI': 'n', 'Connected': 'b',
                  'UUIDs': 'as', 'Adapter': 'o', 'ServicesResolved': 'b'}),
        (BATTERY, {'Percentage': 'y', 'Source': 's'}),
    ])
    WRITABLE = {DEVICE: {'Alias', 'Trusted', 'Blocked'}}

    def __init__(self, fake, model):
        self.model = model
        BzObject.__init__(self, fake, model.path)

    def interfaces(self):
        return [DEVICE] + ([BATTERY] if self.model.battery1 else [])

    def props(self, iface):
        m = self.model
        p = dbus.Dictionary({}, signature='sv')
        if iface == DEVICE:
            p['Address'] = dbus.String(m.address)
            p['AddressType'] = dbus.String(m.address_type)
            if m.name:
                p['Name'] = dbus.String(m.name)
            p['Alias'] = dbus.String(m.alias or m.name or m.address.replace(':', '-'))
            if m.appearance is not None:
                p['Appearance'] = dbus.UInt16(m.appearance)
            if m.icon:
                p['Icon'] = dbus.String(m.icon)
            p['Paired'] = v_bool(m.paired)
            p['Bonded'] = v_bool(m.bonded)
            p['Trusted'] = v_bool(m.trusted)
            p['Blocked'] = v_bool(m.blocked)
            p['LegacyPairing'] = v_bool(False)
            if m.rssi != 0:
                p['RSSI'] = dbus.Int16(m.rssi)
            p['Connected'] = v_bool(m.connected)
            p['UUIDs'] = v_strs(m.uuids_property())
            p['Adapter'] = dbus.ObjectPath(m.adapter.path)
            p['ServicesResolved'] = v_bool(m.services_resolved)
        elif iface == BATTERY and m.battery1:
            p['Percentage'] = dbus.Byte(m.battery_reported)
            p['Source'] = dbus.String('GATT Battery Service')
        return p

    def set_prop(self, iface, name, value, sender):
        self.model.set_prop(name, value)

    @dbus.service.method(DEVICE, in_signature='', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def Connect(self, sender=None, ok=None, err=None):
        self.model.counters['connect_calls'] += 1
        self.fake.on_call('Connect', self.path, sender, DEVICE)
        self.model.connect_call(ok, err)

    @dbus.service.method(DEVICE, in_signature='', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def Disconnect(self, sender=None, ok=None, err=None):
        self.model.counters['disconnect_calls'] += 1
        self.fake.on_call('Disconnect', self.path, sender, DEVICE)
        self.model.disconnect_call(ok, err, remove=False)


class ServiceObj(BzObject):
    SCHEMA = collections.OrderedDict([
        (GATT_SERVICE, {'UUID': 's', 'Device': 'o', 'Primary': 'b', 'Includes': 'ao'})])

    def __init__(self, fake, model):
        self.model = model
        BzObject.__init__(self, fake, model.path)

    def props(self, iface):
        p = dbus.Dictionary({}, signature='sv')
        if iface == GATT_SERVICE:
            p['UUID'] = dbus.String(uuid128(self.model.uuid))
            p['Device'] = dbus.ObjectPath(self.model.device.path)
            p['Primary'] = v_bool(True)
            p['Includes'] = dbus.Array([], signature='o')
        return p


class CharObj(BzObject):
    SCHEMA = collections.OrderedDict([
        (GATT_CHRC, {'UUID': 's', 'Service': 'o', 'Value': 'ay', 'Notifying': 'b', 'Flags': 'as',
                     'WriteAcquired': 'b', 'NotifyAcquired': 'b', 'MTU': 'q'})])

    def __init__(self, fake, model):
        self.model = model
        BzObject.__init__(self, fake, model.path)

    def props(self, iface):
        c = self.model
        p = dbus.Dictionary({}, signature='sv')
        if iface == GATT_CHRC:
            p['UUID'] = dbus.String(uuid128(c.uuid))
            p['Service'] = dbus.ObjectPath(c.service.path)
            p['Value'] = v_bytes(c.value)
            if 'notify' in c.flags or 'indicate' in c.flags:
                p['Notifying'] = v_bool(c.notifying)
            p['Flags'] = v_strs(c.flags)
            if 'write-without-response' in c.flags:
                p['WriteAcquired'] = v_bool(False)
            if 'notify' in c.flags:
                p['NotifyAcquired'] = v_bool(c.acquired is not None and c.acquired.get('sock') is not None)
            if c.device.connected:
                p['MTU'] = dbus.UInt16(c.device.mtu)
        return p

    @dbus.service.method(GATT_CHRC, in_signature='a{sv}', out_signature='ay', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def ReadValue(self, options, sender=None, ok=None, err=None):
        self.model.device.counters['read_calls'] += 1
        self.fake.on_call('ReadValue', self.path, sender, GATT_CHRC)
        self.model.read_value(options, ok, err)

    @dbus.service.method(GATT_CHRC, in_signature='aya{sv}', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def WriteValue(self, value, options, sender=None, ok=None, err=None):
        self.fake.on_call('WriteValue', self.path, sender, GATT_CHRC)
        self.model.write_value(value, options, ok, err)

    @dbus.service.method(GATT_CHRC, in_signature='a{sv}', out_signature='hq', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def AcquireWrite(self, options, sender=None, ok=None, err=None):
        self.fake.on_call('AcquireWrite', self.path, sender, GATT_CHRC)
        if not self.model.device.connected:
            raise bz_error('Failed', 'Not connected')
        raise bz_error('NotSupported')

    @dbus.service.method(GATT_CHRC, in_signature='a{sv}', out_signature='hq', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def AcquireNotify(self, options, sender=None, ok=None, err=None):
        self.model.device.counters['acquire_calls'] += 1
        self.fake.on_call('AcquireNotify', self.path, sender, GATT_CHRC)
        self.model.acquire_notify(sender, ok, err)

    @dbus.service.method(GATT_CHRC, in_signature='', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def StartNotify(self, sender=None, ok=None, err=None):
        self.model.device.counters['start_notify_calls'] += 1
        self.fake.on_call('StartNotify', self.path, sender, GATT_CHRC)
        self.model.start_notify(sender, ok, err)

    @dbus.service.method(GATT_CHRC, in_signature='', out_signature='', sender_keyword='sender')
    def StopNotify(self, sender=None):
        self.model.device.counters['stop_notify_calls'] += 1
        self.fake.on_call('StopNotify', self.path, sender, GATT_CHRC)
        self.model.stop_notify(sender)


class DescObj(BzObject):
    SCHEMA = collections.OrderedDict([
        (GATT_DESC, {'UUID': 's', 'Characteristic': 'o', 'Value': 'ay'})])

    def __init__(self, fake, model):
        self.model = model
        BzObject.__init__(self, fake, model.path)

    def props(self, iface):
        p = dbus.Dictionary({}, signature='sv')
        if iface == GATT_DESC:
            p['UUID'] = dbus.String(uuid128(self.model.uuid))
            p['Characteristic'] = dbus.ObjectPath(self.model.chrc.path)
            p['Value'] = v_bytes(self.model.value)
        return p

    @dbus.service.method(GATT_DESC, in_signature='a{sv}', out_signature='ay', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def ReadValue(self, options, sender=None, ok=None, err=None):
        self.fake.on_call('ReadValue', self.path, sender, GATT_DESC)
        self.model.read_value(options, ok, err)

    @dbus.service.method(GATT_DESC, in_signature='aya{sv}', out_signature='', sender_keyword='sender',
                         async_callbacks=('ok', 'err'))
    def WriteValue(self, value, options, sender=None, ok=None, err=None):
        self.fake.on_call('WriteValue', self.path, sender, GATT_DESC)
        if not self.model.chrc.device.connected:
            raise bz_error('Failed', 'Not connected')
        # descriptor_write_value: CCC writes go through StartNotify/StopNotify
        raise bz_error('NotPermitted', 'Write not permitted')


def parse_read_options(options):
    offset = 0
    for key, value in options.items():
        if str(key).lower() == 'offset':
            if not isinstance(value, dbus.UInt16):
                raise bz_error('InvalidArguments')
            offset = int(value)
        if str(key).lower() == 'type' and not isinstance(value, dbus.String):
            raise bz_error('InvalidArguments')
    return offset


# --------------------------------------------------------------------------
# GATT models
# --------------------------------------------------------------------------
class ServiceModel:
    def __init__(self, device, handle, uuid):
        self.device = device
        self.handle = handle
        self.uuid = uuid
        self.path = '%s/service%04x' % (device.path, handle)
        self.chrcs = []
        self.obj = None


class DescModel:
    def __init__(self, chrc, handle, uuid):
        self.chrc = chrc
        self.handle = handle
        self.uuid = uuid
        self.path = '%s/desc%04x' % (chrc.path, handle)
        self.value = b''
        self.obj = None

    def read_value(self, options, ok, err):
        dev = self.chrc.device
        if not dev.connected:
            raise bz_error('Failed', 'Not connected')
        offset = parse_read_options(options)
        enabled = any(s['registered'] for s in self.chrc.sessions.values()) or \
            (self.chrc.acquired is not None and self.chrc.acquired.get('registered'))
        data = (b'\x01\x00' if enabled else b'\x00\x00') if self.uuid == '2902' else b''

        def done():
            if not dev.connected:
                err(bz_error('Failed', MSG_ATT_UNLIKELY))
                return
            self.value = data
            if self.obj is not None:
                self.chrc.device.fake.emitter.changed(self.obj, GATT_DESC, ['Value'])
            ok(v_bytes(data[offset:]))
        later(dev.fake.att_delay_ms, done)


class CharModel:
    def __init__(self, service, handle, uuid, flags):
        self.service = service
        self.device = service.device
        self.fake = service.device.fake
        self.handle = handle
        self.value_handle = handle + 1
        self.uuid = uuid
        self.flags = flags
        self.path = '%s/char%04x' % (service.path, handle)
        self.descs = []
        self.obj = None
        self.value = b''            # the cached attribute value (Value property)
        self.notifying = False
        # StartNotify sessions: sender -> {'registered': bool, 'pending': (ok, err) | None}
        # 'registered' is notify_id != 0 in gatt-client.c
        self.sessions = collections.OrderedDict()
        # AcquireNotify: {'owner', 'registered', 'sock', 'watch', 'pending': (ok, err) | None}
        self.acquired = None
        self.read_ops = []

    def emit(self, names, flush=False):
        if self.obj is not None:
            self.fake.emitter.changed(self.obj, GATT_CHRC, names, flush)

    def peer_value(self):
        d = self.device
        if self.uuid == UUID_BODY_SENSOR:
            return bytes([int(d.body_sensor_location) & 0xff])
        if self.uuid == UUID_BATTERY_LEVEL:
            return bytes([int(d.battery) & 0xff])
        if self.uuid == '2a29':
            return d.manufacturer.encode()
        if self.uuid == '2a24':
            return d.model.encode()
        if self.uuid == PMD_CONTROL_POINT:
            return FEATURES
        return b''

    # gatt-client.c characteristic_read_value / chrc_read_cb
    def read_value(self, options, ok, err):
        if not self.device.connected:
            raise bz_error('Failed', 'Not connected')
        offset = parse_read_options(options)
        op = {}

        def done():
            self.read_ops.remove(op)
            if 'read' not in self.flags:
                # the peer answers with ATT "Read Not Permitted"
                err(bz_error('NotPermitted', 'Read not permitted'))
                return
            if self.uuid == PMD_CONTROL_POINT and self.device.pmd.fail_feature_read():
                # A strap slow to answer: bluetoothd gives up on the read.
                err(bz_error('Failed'))
                return
            data = self.peer_value()
            self.value = data
            self.emit(['Value'], flush=True)   # write_characteristic_cb
            ok(v_bytes(data[offset:]))
        op['err'] = err
        op['timer'] = later(self.fake.att_delay_ms, done)
        self.read_ops.append(op)

    def write_value(self, value, options, ok, err):
        if not self.device.connected:
            raise bz_error('Failed', 'Not connected')
        if 'write' not in self.flags:
            raise bz_error('NotSupported')
        strap = self.device.pmd

        def done():
            # The write response first, then the strap's answer as an indication.
            if not self.device.connected:
                err(bz_error('Failed', MSG_ATT_UNLIKELY))
                return
            ok()
            strap.write(value)
        later(self.fake.att_delay_ms, done)

    # gatt-client.c characteristic_start_notify
    def start_notify(self, sender, ok, err):
        dev = self.device
        if dev.disconn_timer:
            raise bz_error('NotConnected')
        if self.acquired is not None:
            raise bz_error('NotPermitted', 'Notify acquired')
        if 'notify' not in self.flags and 'indicate' not in self.flags:
            raise bz_error('NotSupported')
        s = self.sessions.get(sender)
        if s is not None:
            if s['registered']:
                ok()
                return
            raise bz_error('InProgress')
        s = {'registered': False, 'pending': None}
        self.sessions[sender] = s
        if not dev.connected:
            # queued; registered automatically when the device connects
            ok()
            return
        s['registered'] = True
        s['pending'] = (ok, err)
        later(self.fake.att_delay_ms, self._register_done, sender, s)

    def _register_done(self, sender, s):
        # register_notify_cb
        if self.sessions.get(sender) is not s or s['pending'] is None:
            return
        ok, err = s['pending']
        s['pending'] = None
        if not self.notifying:
            self.notifying = True
            self.emit(['Notifying'])
        ok()

    def _reregister(self):
        # btd_gatt_client_connected -> register_notify for every session
        for sender, s in list(self.sessions.items()):
            s['registered'] = True

            def done(sender=sender, s=s):
                if self.sessions.get(sender) is s and self.device.connected and not self.notifying:
                    self.notifying = True
                    self.emit(['Notifying'])
            later(self.fake.att_delay_ms, done)

    def update_notifying(self):
        if not self.notifying:
            return
        if any(s['registered'] for s in self.sessions.values()):
            return
        self.notifying = False
        self.emit(['Notifying'])

    # gatt-client.c characteristic_stop_notify
    def stop_notify(self, sender):
        if self.acquired is not None:
            self.destroy_sock()
            return
        s = self.sessions.pop(sender, None)
        if s is None:
            raise bz_error('Failed', 'No notify session started')
        if s['pending'] is not None:
            s['pending'][0]()
            s['pending'] = None
        self.update_notifying()

    # gatt-client.c characteristic_acquire_notify
    def acquire_notify(self, sender, ok, err):
        dev = self.device
        if not dev.connected:
            raise bz_error('Failed', 'Not connected')
        if self.acquired is not None:
            raise bz_error('NotPermitted', 'Notify acquired')
        if self.sessions:
            raise bz_error('InProgress')
        if 'notify' not in self.flags:
            raise bz_error('NotSupported')
        a = {'owner': sender, 'registered': True, 'sock': None, 'watch': 0, 'pending': (ok, err)}
        self.acquired = a
        later(self.fake.att_delay_ms, self._acquire_registered, a)

    def _acquire_registered(self, a):
        if self.acquired is not a or a['pending'] is None:
            return
        if not self.device.services_resolved:
            a['waiting_ready'] = True     # characteristic_ready after GATT ready
            return
        self._create_sock(a)

    def client_ready(self):
        a = self.acquired
        if a is not None and a.get('waiting_ready') and a['pending'] is not None:
            a['waiting_ready'] = False
            self._create_sock(a)

    def _create_sock(self, a):
        ok, err = a['pending']
        a['pending'] = None
        if not self.device.connected:
            self.acquired = None
            err(bz_error('Failed', 'Not connected'))
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        # socketpair(SOCK_NONBLOCK | SOCK_CLOEXEC): O_NONBLOCK is shared with the
        # descriptor the client receives
        ours.setblocking(False)
        theirs.setblocking(False)
        a['sock'] = ours
        a['watch'] = GLib.io_add_watch(ours.fileno(), GLib.PRIORITY_DEFAULT,
                                       GLib.IO_HUP | GLib.IO_ERR, self._sock_hup, a)
        self.emit(['NotifyAcquired'])
        ufd = dbus.types.UnixFd(theirs.fileno())
        theirs.close()
        try:
            ok(ufd, dbus.UInt16(self.device.mtu))
        finally:
            # UnixFd holds a dup until collected; drop it now or the reader
            # would never see our end hang up.
            os.close(ufd.take())

    def _sock_hup(self, fd, condition, a):
        if self.acquired is a:
            a['watch'] = 0
            self.destroy_sock()
        return False

    # gatt-client.c destroy_sock for the notify io
    def destroy_sock(self):
        a = self.acquired
        if a is None:
            return
        self.acquired = None
        if a.get('watch'):
            GLib.source_remove(a['watch'])
            a['watch'] = 0
        if a.get('sock') is not None:
            a['sock'].close()
            a['sock'] = None
            self.emit(['NotifyAcquired'])
        if a.get('pending') is not None:
            a['pending'][1](bz_error('Failed', MSG_ATT_UNLIKELY))
            a['pending'] = None

    def deliver(self, data):
        """One notification from the peer. Returns how many subscribers got it."""
        if not self.device.connected:
            return 0
        n = 0
        a = self.acquired
        if a is not None and a['registered'] and a.get('sock') is not None:
            try:
                a['sock'].send(data)
                n += 1
            except OSError as e:
                log('sendmsg: %s' % e)
        for s in list(self.sessions.values()):
            if s['registered']:
                # notify_cb: each session's callback rewrites the value and
                # flushes a PropertiesChanged, even for identical bytes
                self.value = bytes(data)
                self.emit(['Value'], flush=True)
                n += 1
        return n

    def client_left(self, sender):
        # notify_client_disconnect
        if sender in self.sessions:
            del self.sessions[sender]
            self.update_notifying()
        a = self.acquired
        if a is not None and a['owner'] == sender:
            a['registered'] = False      # socket stays until it hangs up

    def link_down(self):
        # btd_gatt_client_disconnected + cancelled ATT requests
        for op in list(self.read_ops):
            cancel(op['timer'])
            op['err'](bz_error('Failed', MSG_ATT_UNLIKELY))
        self.read_ops = []
        for sender, s in list(self.sessions.items()):
            if s['pending'] is not None:
                ok, err = s['pending']
                s['pending'] = None
                del self.sessions[sender]
                err(bz_error('Failed', MSG_ATT_UNLIKELY))
            else:
                s['registered'] = False
        a = self.acquired
        if a is not None:
            if a.get('pending') is not None:
                self.destroy_sock()
            elif a.get('sock') is not None:
                a['registered'] = False
                try:
                    a['sock'].shutdown(socket.SHUT_RDWR)   # io_shutdown -> HUP
                except OSError:
                    pass

    def free(self):
        # characteristic_free: sockets closed, sessions dropped (no signals)
        for op in list(self.read_ops):
            cancel(op['timer'])
            op['err'](bz_error('Failed', MSG_ATT_UNLIKELY))
        self.read_ops = []
        a = self.acquired
        self.acquired = None
        if a is not None:
            if a.get('watch'):
                GLib.source_remove(a['watch'])
            if a.get('sock') is not None:
                a['sock'].close()
            if a.get('pending') is not None:
                a['pending'][1](bz_error('Failed', MSG_ATT_UNLIKELY))
        for s in self.sessions.values():
            if s['pending'] is not None:
                s['pending'][1](bz_error('Failed', MSG_ATT_UNLIKELY))
        self.sessions.clear()


# --------------------------------------------------------------------------
# Device model
# --------------------------------------------------------------------------
class DeviceModel:
    def __init__(self, fake, adapter, cfg):
        self.fake = fake
        self.adapter = adapter
        self.cfg = cfg
        self.address = str(cfg['address']).upper()
        self.address_type = cfg.get('address_type', 'public')
        self.path = '%s/dev_%s' % (adapter.path, self.address.replace(':', '_'))
        self.name = cfg.get('name')
        self.services_cfg = [short_uuid(s) for s in cfg.get('services', ['180d', '180f'])]
        # Polar's Measurement Data service beside the heart-rate one (pmd_strap.py).
        self.pmd = PmdStrap(self, int(cfg.get('pmd_start_delay_ms', 0)), log, int(cfg.get('pmd_start_reply_delay_ms', 0)),
                            int(cfg.get('pmd_failed_feature_reads', 0))) \
            if cfg.get('pmd') else None
        adv = cfg.get('advertised_uuids')
        if adv is None:
            adv = self.services_cfg[:1]
        self.advertised = [uuid128(u) for u in adv]
        self.rssi_cfg = int(cfg.get('rssi', -60))
        self.in_range = bool(cfg.get('in_range', True))
        self.body_sensor_location = cfg.get('body_sensor_location')
        self.battery = cfg.get('battery')
        self.mtu = int(cfg.get('mtu', 247))
        self.appearance = cfg.get('appearance')
        self.icon = cfg.get('icon')
        self.manufacturer = cfg.get('manufacturer', 'Fake Manufacturer')
        self.model = cfg.get('model', 'Fake Model')
        self.connect_delay_ms = int(cfg.get('connect_delay_ms', 100))
        self.resolve_delay_ms = int(cfg.get('resolve_delay_ms', 300))
        self.connect_timeout_ms = int(cfg.get('connect_timeout_ms', fake.connect_timeout_ms))
        # bluetoothd 5.66's connect race (device.c device_add_connection): when
        # att_connect_cb runs before the kernel's Device Connected event, the
        # device is marked connected silently ("Device ... is already
        # connected") and Connected = true is never emitted.  Otherwise the
        # mgmt event may come this long after the link is up (and notifications
        # flow).
        self.announce_connected = bool(cfg.get('announce_connected', True))
        self.connected_signal_delay_ms = int(cfg.get('connected_signal_delay_ms', 0))
        # Stored in /var/lib/bluetooth once connected (device_store): reloaded
        # when its adapter comes back.
        self.stored = bool(cfg.get('known_at_start', False))
        self.counters = collections.OrderedDict(
            (k, 0) for k in ('start_notify_calls', 'stop_notify_calls', 'acquire_calls',
                             'connect_calls', 'disconnect_calls', 'read_calls'))
        self.obj = None
        self.reset(known=bool(cfg.get('known_at_start', False)))

    def reset(self, known):
        """State of a fresh btd_device: from storage (known) or just discovered."""
        cfg = self.cfg
        self.temporary = not known
        self.paired = known and bool(cfg.get('paired', False))
        self.bonded = known and bool(cfg.get('bonded', cfg.get('paired', False)))
        self.trusted = known and bool(cfg.get('trusted', False))
        self.blocked = False
        self.alias = None
        self.rssi = 0
        self.eir_uuids = None
        self.stored_uuids = self.full_uuids() if known else []
        self.svc_resolved_state = False   # le_state.svc_resolved
        self.connected = False
        self.services_resolved = False    # svc_refreshed -> ServicesResolved
        self.connecting = None
        self.disconn_timer = 0
        self.disconnect_waiters = []
        self.resolve_timer = 0
        self.connected_timer = 0
        self.temp_timer = 0
        self.battery_timer = 0
        self.gatt = None                  # in-memory GATT db (services)
        self.battery1 = False
        self.battery_reported = 0

    # ---- helpers
    def full_uuids(self):
        s = set(uuid128(u) for u in ['1800', '1801'] + self.services_cfg + ([PMD_SERVICE] if self.pmd else []))
        return sorted(s)

    def uuids_property(self):
        # dev_property_get_uuids
        if self.svc_resolved_state:
            return self.full_uuids()
        if self.eir_uuids:
            return self.eir_uuids
        return self.stored_uuids

    def is_private(self):
        if self.address_type != 'random':
            return False
        return (int(self.address.split(':')[0], 16) >> 6) in (0, 1)

    def emit(self, names, flush=False):
        if self.obj is not None:
            self.fake.emitter.changed(self.obj, DEVICE, names, flush)

    def set_temporary(self, temporary):
        # btd_device_set_temporary
        if self.temporary == temporary or self.is_private():
            return
        self.temporary = temporary
        if temporary:
            self.restart_temp_timer()
        else:
            self.temp_timer = cancel(self.temp_timer)

    def restart_temp_timer(self):
        self.temp_timer = cancel(self.temp_timer)
        if self.fake.temporary_timeout_ms > 0 and self.obj is not None:
            self.temp_timer = later(self.fake.temporary_timeout_ms, self._disappeared)

    def _disappeared(self):
        self.temp_timer = 0
        log('temporary device %s disappeared' % self.address)
        self.fake.remove_device(self)

    def chrc(self, uuid):
        for svc in self.gatt or []:
            for c in svc.chrcs:
                if c.uuid == uuid:
                    return c
        return None

    def all_chrcs(self):
        return [c for svc in (self.gatt or []) for c in svc.chrcs]

    def set_prop(self, name, value):
        if name == 'Alias':
            self.alias = str(value) or None
            self.emit(['Alias'])
        elif name == 'Trusted':
            if bool(value) != self.trusted:
                self.trusted = bool(value)
                self.emit(['Trusted'])
        elif name == 'Blocked':
            if bool(value) != self.blocked:
                self.blocked = bool(value)
                self.emit(['Blocked'])
                if self.blocked and self.connected:
                    self.link_down('blocked')

    # ---- discovery report (adapter.c update_found_devices)
    def seen(self, rssi):
        if self.obj is None:
            self.reset(known=False)
            self.rssi = rssi
            self.eir_uuids = list(self.advertised)
            self.fake.export_device(self)
        else:
            if self.eir_uuids != self.advertised and not self.svc_resolved_state:
                self.eir_uuids = list(self.advertised)
                self.emit(['UUIDs'])
            else:
                self.eir_uuids = list(self.advertised)
            # device_set_rssi_with_delta(RSSI_THRESHOLD = 8)
            if rssi == 0 or self.rssi == 0:
                if self.rssi != rssi:
                    self.rssi = rssi
                    self.emit(['RSSI'])
            elif abs(self.rssi - rssi) >= 8:
                self.rssi = rssi
                self.emit(['RSSI'])
        if self.temporary:
            self.restart_temp_timer()    # device_update_last_seen

    def invalidate_rssi(self):
        if self.rssi != 0:
            self.rssi = 0
            self.emit(['RSSI'])

    # ---- Connect (device.c dev_connect / device_connect_le / att_connect_cb)
    def connect_call(self, ok, err):
        if self.connected:
            ok()
            return
        if self.connecting is not None:
            raise bz_error('Failed', MSG_BUSY)           # strerror(EALREADY)
        if not self.adapter.powered:
            raise bz_error('Failed', 'Input/output error')  # bt_io_connect fails -> -EIO
        self.set_temporary(False)
        c = {'ok': ok, 'err': err, 'timer': 0}
        self.connecting = c
        if self.in_range:
            c['timer'] = later(self.connect_delay_ms, self._connected, c)
        else:
            c['timer'] = later(self.connect_timeout_ms, self._connect_failed, c, MSG_LE_ABORT_LOCAL)

    def range_changed(self):
        c = self.connecting
        if c is not None and self.in_range:
            cancel(c['timer'])
            c['timer'] = later(self.connect_delay_ms, self._connected, c)

    def _connect_failed(self, c, message):
        if self.connecting is not c:
            return
        self.connecting = None
        cancel(c['timer'])
        c['err'](bz_error('Failed', message))

    def abort_connect(self, message):
        if self.connecting is not None:
            self._connect_failed(self.connecting, message)

    def _connected(self, c):
        if self.connecting is not c:
            return
        self.connecting = None
        self.connected = True
        self.stored = self.stored or not self.is_private()
        self.temp_timer = cancel(self.temp_timer)   # device_add_connection
        if self.announce_connected:
            if self.connected_signal_delay_ms > 0:
                self.connected_timer = later(self.connected_signal_delay_ms, self._announce_connected)
            else:
                self.emit(['Connected'])            # idle: after the reply below
        for chrc in self.all_chrcs():
            chrc._reregister()
        c['ok']()
        self.resolve_timer = later(self.resolve_delay_ms, self._resolved)

    def _announce_connected(self):
        self.connected_timer = 0
        if self.connected:
            self.emit(['Connected'])

    def _resolved(self):
        # gatt_client_ready_cb: register_gatt_services, btd_gatt_client_ready,
        # device_svc_resolved
        self.resolve_timer = 0
        if not self.connected:
            return
        before = self.uuids_property()
        self.svc_resolved_state = True
        self.stored_uuids = self.full_uuids()
        if self.uuids_property() != before:
            self.emit(['UUIDs'])
        self.set_temporary(False)
        if self.gatt is None:
            self.fake.build_gatt(self)
        self.fake.export_gatt(self)
        self.eir_uuids = None
        if not self.services_resolved:
            self.services_resolved = True
            self.emit(['ServicesResolved'])
        for chrc in self.all_chrcs():
            chrc.client_ready()
        if self.chrc(UUID_BATTERY_LEVEL) is not None and self.battery is not None:
            self.battery_timer = later(2 * self.fake.att_delay_ms, self._battery_registered)

    # ServicesResolved flapping (bleak #625/#1806) and a stale GATT cache: the
    # peer's Service Changed makes bluetoothd re-discover (gatt-client.c
    # service_changed_cb -> device_svc_resolved false, then true).  With
    # refresh the cached objects are dropped and exported again, and every
    # notification session goes with them (characteristic_free).
    def flap(self, refresh):
        if not self.connected or not self.services_resolved:
            return False
        self.services_resolved = False
        self.emit(['ServicesResolved'])
        if refresh:
            self.fake.unexport_gatt(self)
            self.gatt = None
        self.resolve_timer = cancel(self.resolve_timer)
        self.resolve_timer = later(self.resolve_delay_ms, self._resolved)
        return True

    def _battery_registered(self):
        # profiles/battery: read level, enable notifications, btd_battery_register
        self.battery_timer = 0
        if not self.connected or self.obj is None or self.battery1:
            return
        self.battery1 = True
        self.battery_reported = int(self.battery) & 0xff
        self.fake.emitter.added(self.obj, [BATTERY])

    def set_battery(self, level):
        self.battery = level
        delivered = 0
        if self.connected:
            c = self.chrc(UUID_BATTERY_LEVEL)
            if c is not None:
                delivered = c.deliver(bytes([level & 0xff]))
            if self.battery1 and self.battery_reported != (level & 0xff):
                self.battery_reported = level & 0xff
                self.fake.emitter.changed(self.obj, BATTERY, ['Percentage'])
        return delivered

    # ---- Disconnect (device_request_disconnect, DISCONNECT_TIMER = 2 s)
    def disconnect_call(self, ok, err, remove):
        if self.connecting is not None:
            self._connect_failed(self.connecting, MSG_CANCELED)
        if not self.connected:
            ok()
            if remove:
                self.fake.remove_device(self)
            return
        self.disconnect_waiters.append((ok, remove))
        if not self.disconn_timer:
            self.disconn_timer = later(self.fake.disconnect_timer_ms, self._disconnect_timer)

    def _disconnect_timer(self):
        self.disconn_timer = 0
        self.link_down('local')

    # ---- link loss / disconnection (device_remove_connection, att_disconnected_cb)
    def link_down(self, reason):
        if not self.connected:
            return False
        log('link down %s (%s)' % (self.address, reason))
        self.connected = False
        self.disconn_timer = cancel(self.disconn_timer)
        self.resolve_timer = cancel(self.resolve_timer)
        self.connected_timer = cancel(self.connected_timer)
        self.battery_timer = cancel(self.battery_timer)
        names = []
        if self.services_resolved:
            self.services_resolved = False
            names.append('ServicesResolved')
        names.append('Connected')
        self.eir_uuids = None
        waiters, self.disconnect_waiters = self.disconnect_waiters, []
        remove = False
        for ok, rm in waiters:
            ok()
            remove = remove or rm
        self.emit(names)
        if self.temporary:
            self.restart_temp_timer()
        # ATT channel gone: battery profile disconnects, GATT client cleans up
        if self.battery1 and self.obj is not None:
            self.fake.emitter.iface_removed(self.obj, BATTERY)
            self.battery1 = False
        for chrc in self.all_chrcs():
            chrc.link_down()
        if self.pmd is not None:
            self.pmd.link_down()
        if not self.fake.gatt_cache_enabled(self):
            # gatt_cache_cleanup: gatt_db_clear -> services unregistered
            self.fake.unexport_gatt(self)
            self.gatt = None
            self.svc_resolved_state = False
        if remove:
            self.fake.remove_device(self)
        return True


# --------------------------------------------------------------------------
# Adapter model
# --------------------------------------------------------------------------
class AdapterModel:
    def __init__(self, fake, cfg):
        self.fake = fake
        self.name = cfg.get('name', 'hci0')
        self.path = '/org/bluez/' + self.name
        self.address = str(cfg.get('address', '00:1A:7D:DA:71:13')).upper()
        self.alias = cfg.get('alias')
        self.local_name = cfg.get('local_name', 'fakehost')
        self.powered = bool(cfg.get('powered', True))
        self.discoverable = False
        self.discoverable_timeout = 180
        self.pairable = True
        self.pairable_timeout = 0
        self.discovering = False
        self.uuids = [uuid128(u) for u in ('1800', '1801', '180a', '110e', '110c', '1200')]
        # discovery clients: sender -> {'filter': dict|None, 'active': bool, 'pending': (ok, err)|None}
        self.clients = collections.OrderedDict()
        self.scan_timer = 0
        self.found = []
        self.blocked = False
        self.obj = None

    def reset(self):
        """A controller plugged in again: bluetoothd powers it up (AutoEnable)."""
        self.powered = not self.blocked
        self.discovering = False
        self.clients.clear()
        self.found = []

    def emit(self, names):
        if self.obj is not None:
            self.fake.emitter.changed(self.obj, ADAPTER, names)

    def devices(self):
        return [d for d in self.fake.devices.values() if d.adapter is self]

    def set_prop(self, name, value):
        if name == 'Powered':
            if self.blocked and bool(value):
                raise bz_error('Failed', 'Blocked through rfkill')
            self.set_powered(bool(value))
        elif name == 'Alias':
            self.alias = str(value)
            self.emit(['Alias'])
        elif name in ('Discoverable', 'Pairable', 'DiscoverableTimeout', 'PairableTimeout'):
            if name == 'Discoverable' and not self.powered:
                raise bz_error('NotReady')
            attr = {'Discoverable': 'discoverable', 'Pairable': 'pairable',
                    'DiscoverableTimeout': 'discoverable_timeout',
                    'PairableTimeout': 'pairable_timeout'}[name]
            cast = bool if name in ('Discoverable', 'Pairable') else int
            if getattr(self, attr) != cast(value):
                setattr(self, attr, cast(value))
                self.emit([name])

    # ---- power (property_set_powered / adapter_stop)
    def set_powered(self, on):
        if on == self.powered:
            return
        if on:
            self.powered = True
            self.emit(['Powered'])
            return
        # property_set_mode(POWERED, off): remove_temporary_devices first
        for d in self.devices():
            if d.obj is not None and d.temporary:
                self.fake.remove_device(d)
        self.powered = False
        for d in self.devices():
            d.abort_connect(MSG_LE_ABORT_LOCAL)
        # adapter_stop
        for sender, c in list(self.clients.items()):
            if c['pending'] is not None:
                c['pending'][1](bz_error('InProgress', MSG_BUSY))
        self.clients.clear()
        self._discovery_cleanup()
        self.scan_timer = cancel(self.scan_timer)
        self.discovering = False
        for d in self.devices():
            d.link_down('adapter powered off')
        self.emit(['Discovering', 'Powered'])

    # ---- discovery
    def _active(self):
        return [(s, c) for s, c in self.clients.items() if c['active']]

    def set_discovery_filter(self, sender, properties):
        if not self.powered:
            raise bz_error('NotReady')
        flt = parse_filter(properties)
        c = self.clients.get(sender)
        if c is not None:
            c['filter'] = flt
            if flt is not None or c['active']:
                return
            del self.clients[sender]
        elif flt is not None:
            self.clients[sender] = {'filter': flt, 'active': False, 'pending': None}

    def start_discovery(self, sender, ok, err):
        if not self.powered:
            raise bz_error('NotReady')
        c = self.clients.get(sender)
        if c is not None and (c['active'] or c['pending'] is not None):
            raise bz_error('InProgress', MSG_BUSY)
        if c is None:
            c = {'filter': None, 'active': False, 'pending': None}
            self.clients[sender] = c
        c['active'] = True
        if self.discovering:
            ok()
            return
        c['pending'] = (ok, err)
        later(self.fake.mgmt_delay_ms, self._start_complete, sender, c)

    def _start_complete(self, sender, c):
        # start_discovery_complete: reply, then Discovering
        if self.clients.get(sender) is not c or c['pending'] is None:
            return
        ok, err = c['pending']
        c['pending'] = None
        ok()
        if not self.discovering and self._active():
            self.discovering = True
            self.emit(['Discovering'])
            self.scan_timer = cancel(self.scan_timer)
            self.scan_timer = later(self.fake.first_report_ms, self._scan)

    def stop_discovery(self, sender, ok, err):
        if not self.powered:
            raise bz_error('NotReady')
        c = self.clients.get(sender)
        if c is None or not c['active']:
            raise bz_error('Failed', 'No discovery started')
        if c['pending'] is not None:
            raise bz_error('InProgress', MSG_BUSY)
        if len(self._active()) > 1 or not self.discovering:
            self._discovery_remove(sender)
            ok()
            if not self._active():
                self._stop_scan()
            return
        c['pending'] = (ok, err)
        later(self.fake.mgmt_delay_ms, self._stop_complete, sender, c)

    def _stop_complete(self, sender, c):
        if self.clients.get(sender) is not c or c['pending'] is None:
            return
        ok, err = c['pending']
        c['pending'] = None
        ok()
        self._discovery_remove(sender)
        if not self._active():
            self._stop_scan()

    def _discovery_remove(self, sender):
        # discovery_remove: keeps a client's pre-set filter while it is on the bus
        c = self.clients.get(sender)
        if c is None:
            return
        c['active'] = False
        if c['filter'] is None:
            del self.clients[sender]

    def _stop_scan(self):
        self.scan_timer = cancel(self.scan_timer)
        self._discovery_cleanup()
        if self.discovering:
            self.discovering = False
            self.emit(['Discovering'])

    def _discovery_cleanup(self):
        # discovery_cleanup: RSSI invalidated for devices found in this session
        found, self.found = self.found, []
        for d in found:
            if d.obj is not None:
                d.invalidate_rssi()

    def client_left(self, sender):
        # discovery_disconnect -> discovery_stop (no reply)
        c = self.clients.pop(sender, None)
        if c is None:
            return
        if c['active'] and not self._active():
            self._stop_scan()

    def _matches(self, d):
        active = [c for s, c in self._active()]
        le_scanned = any(c['filter'] is None or c['filter']['transport'] in ('le', 'auto')
                         for c in active)
        if not le_scanned:
            return False
        for c in active:
            f = c['filter']
            if f is None:
                return True
            if f['transport'] == 'bredr':
                continue
            if f['rssi'] is not None and d.rssi_cfg < f['rssi']:
                continue
            if not f['uuids'] or any(u in d.advertised for u in f['uuids']):
                return True
        return False

    def _scan(self):
        self.scan_timer = 0
        if not self.discovering or not self.powered:
            return
        for d in self.devices():
            if d.in_range and not d.connected and self._matches(d):
                d.seen(d.rssi_cfg)
                if d not in self.found:
                    self.found.append(d)
        self.scan_timer = later(self.fake.advertising_interval_ms, self._scan)

    def remove_device_call(self, path, ok, err):
        # adapter.c remove_device
        dev = None
        for d in self.devices():
            if d.path == path and d.obj is not None:
                dev = d
        if dev is None:
            raise bz_error('DoesNotExist')
        if not self.powered:
            raise bz_error('NotReady')
        dev.set_temporary(True)
        if not dev.connected:
            self.fake.remove_device(dev)
            ok()
            return
        dev.disconnect_call(ok, err, remove=True)


def parse_filter(properties):
    """adapter.c parse_discovery_filter_dict"""
    if len(properties) == 0:
        return None
    f = {'uuids': [], 'rssi': None, 'pathloss': None, 'transport': 'auto',
         'duplicate_data': False, 'discoverable': False, 'pattern': None}
    for key, value in properties.items():
        key = str(key)
        if key == 'UUIDs':
            if not isinstance(value, dbus.Array):
                raise bz_error('InvalidArguments')
            for u in value:
                if not isinstance(u, dbus.String):
                    raise bz_error('InvalidArguments')
                try:
                    f['uuids'].append(uuid128(u))
                except ValueError:
                    raise bz_error('InvalidArguments')
        elif key == 'RSSI':
            if not isinstance(value, dbus.Int16) or not -127 <= int(value) <= 20:
                raise bz_error('InvalidArguments')
            f['rssi'] = int(value)
        elif key == 'Pathloss':
            if not isinstance(value, dbus.UInt16) or int(value) > 137:
                raise bz_error('InvalidArguments')
            f['pathloss'] = int(value)
        elif key == 'Transport':
            if not isinstance(value, dbus.String) or str(value) not in ('le', 'bredr', 'auto'):
                raise bz_error('InvalidArguments')
            f['transport'] = str(value)
        elif key in ('DuplicateData', 'Discoverable'):
            if not isinstance(value, dbus.Boolean):
                raise bz_error('InvalidArguments')
            f['duplicate_data' if key == 'DuplicateData' else 'discoverable'] = bool(value)
        elif key == 'Pattern':
            if not isinstance(value, dbus.String):
                raise bz_error('InvalidArguments')
            f['pattern'] = str(value)
        else:
            raise bz_error('InvalidArguments')
    if f['rssi'] is not None and f['pathloss'] is not None:
        raise bz_error('InvalidArguments')
    return f


# --------------------------------------------------------------------------
# The daemon
# --------------------------------------------------------------------------
class Fake:
    def __init__(self, bus, cfg, loop):
        self.bus = bus
        self.cfg = cfg
        self.loop = loop
        g = cfg.get
        self.temporary_timeout_ms = int(g('temporary_timeout_ms', 30000))
        self.disconnect_timer_ms = int(g('disconnect_timer_ms', 2000))
        self.connect_timeout_ms = int(g('connect_timeout_ms', 2000))
        self.advertising_interval_ms = int(g('advertising_interval_ms', 500))
        self.first_report_ms = int(g('first_report_ms', 50))
        self.att_delay_ms = int(g('att_delay_ms', 20))
        self.mgmt_delay_ms = int(g('mgmt_delay_ms', 10))
        self.startup_delay_ms = int(g('startup_delay_ms', 0))
        self.gatt_cache = g('gatt_cache', 'always')
        jitter = g('jitter')
        if jitter:
            JITTER['rng'] = random.Random(jitter.get('seed', 0))
            JITTER['fraction'] = float(jitter.get('fraction', 0.5))
        if self.gatt_cache not in ('always', 'yes', 'no'):
            raise ValueError('gatt_cache must be always, yes or no')
        self.emitter = Emitter(self)
        self.objects = collections.OrderedDict()
        self.calls = []
        self.fail_next = {}
        self.terminating = False
        self.root = Root(self)
        self.manager = ManagerObj(self, '/org/bluez')
        self.adapters = collections.OrderedDict()
        self.devices = collections.OrderedDict()
        for acfg in g('adapters', []):
            a = AdapterModel(self, acfg)
            self.adapters[a.name] = a
        for dcfg in g('devices', []):
            an = dcfg.get('adapter', 'hci0')
            if an not in self.adapters:
                log('device %s: no adapter %s, ignored' % (dcfg.get('address'), an))
                continue
            d = DeviceModel(self, self.adapters[an], dcfg)
            self.devices[d.address] = d
        bus.add_signal_receiver(self.on_name_owner_changed, signal_name='NameOwnerChanged',
                                dbus_interface='org.freedesktop.DBus',
                                bus_name='org.freedesktop.DBus', path='/org/freedesktop/DBus')

    # ---- object registry
    def export(self, obj, announce=True):
        self.objects[obj.path] = obj
        if announce:
            self.emitter.added(obj, obj.all_interfaces())

    def unexport(self, obj):
        if self.objects.get(obj.path) is not obj:
            return
        self.emitter.object_removed(obj, obj.all_interfaces())
        del self.objects[obj.path]
        obj.remove_from_connection()

    def export_adapter(self, a, announce):
        a.obj = AdapterObj(self, a)
        self.export(a.obj, announce)
        for d in a.devices():
            if d.stored:
                d.reset(known=True)
                self.export_device(d, announce)

    def export_device(self, d, announce=True):
        d.obj = DeviceObj(self, d)
        self.export(d.obj, announce)
        if d.temporary:
            d.restart_temp_timer()

    def remove_adapter(self, a):
        """adapter_remove (controller unplugged): every device goes, GATT
        objects first, then the adapter; sessions and filters go with them."""
        for d in a.devices():
            self.remove_device(d)
        a.scan_timer = cancel(a.scan_timer)
        a.clients.clear()
        a.discovering = False
        self.unexport(a.obj)
        a.obj = None

    def remove_device(self, d):
        """btd_adapter_remove_device: GATT objects first, then the device."""
        if d.obj is None:
            return
        d.abort_connect(MSG_CANCELED)
        d.link_down('device removed')
        d.temp_timer = cancel(d.temp_timer)
        self.unexport_gatt(d)
        if d in d.adapter.found:
            d.adapter.found.remove(d)
        obj = d.obj
        self.unexport(obj)
        d.obj = None
        d.reset(known=False)

    def gatt_cache_enabled(self, d):
        # device.c gatt_cache_is_enabled (main.conf [GATT] Cache, default always)
        if self.gatt_cache == 'always':
            return True
        if self.gatt_cache == 'yes':
            return d.paired
        return False

    def build_gatt(self, d):
        services = []
        svc = ServiceModel(d, 0x0001, '1801')
        c = CharModel(svc, 0x0002, '2a05', ['indicate'])
        c.descs.append(DescModel(c, 0x0004, '2902'))
        svc.chrcs.append(c)
        services.append(svc)
        h = 0x000c                       # 0x0005-0x000b: GAP (claimed, not exported)
        for uuid in d.services_cfg:
            if uuid in ('1800', '1801'):
                continue
            if uuid in CLAIMED_SERVICES:
                h += 8
                continue
            svc = ServiceModel(d, h, uuid)
            h += 1
            chars = []
            if uuid == '180d':
                chars.append((UUID_HR_MEASUREMENT, ['notify']))
                if d.body_sensor_location is not None:
                    chars.append((UUID_BODY_SENSOR, ['read']))
            elif uuid == '180f':
                if d.battery is not None:
                    chars.append((UUID_BATTERY_LEVEL, ['read', 'notify']))
            elif uuid == '180a':
                chars.append(('2a29', ['read']))
                chars.append(('2a24', ['read']))
            for cu, flags in chars:
                c = CharModel(svc, h, cu, flags)
                h += 2
                if 'notify' in flags or 'indicate' in flags:
                    c.descs.append(DescModel(c, h, '2902'))
                    h += 1
                svc.chrcs.append(c)
            services.append(svc)
        if d.pmd is not None:
            svc = ServiceModel(d, h, PMD_SERVICE)
            h += 1
            for cu, flags in ((PMD_CONTROL_POINT, ['read', 'write', 'indicate']), (PMD_DATA, ['notify'])):
                c = CharModel(svc, h, cu, flags)
                c.descs.append(DescModel(c, h + 2, '2902'))
                h += 3
                svc.chrcs.append(c)
            services.append(svc)
        d.gatt = services

    def export_gatt(self, d):
        for svc in d.gatt or []:
            if svc.obj is None:
                svc.obj = ServiceObj(self, svc)
                self.export(svc.obj)
            for c in svc.chrcs:
                if c.obj is None:
                    c.obj = CharObj(self, c)
                    self.export(c.obj)
                for desc in c.descs:
                    if desc.obj is None:
                        desc.obj = DescObj(self, desc)
                        self.export(desc.obj)

    def unexport_gatt(self, d):
        for svc in d.gatt or []:
            for c in svc.chrcs:
                for desc in c.descs:
                    if desc.obj is not None:
                        self.unexport(desc.obj)
                        desc.obj = None
                c.free()
                if c.obj is not None:
                    self.unexport(c.obj)
                    c.obj = None
            if svc.obj is not None:
                self.unexport(svc.obj)
                svc.obj = None

    # ---- startup / shutdown
    def start(self, announce_ready):
        self.export(self.manager, announce=False)
        if self.startup_delay_ms <= 0:
            for a in self.adapters.values():
                self.export_adapter(a, announce=False)
            announce_ready()
            return
        # bluetoothd owns the name before the kernel's adapters are registered;
        # they appear later (InterfacesAdded), first unpowered, then powered.
        wanted = {}
        for a in self.adapters.values():
            wanted[a.name] = a.powered
            a.powered = False

        def register():
            for a in self.adapters.values():
                self.export_adapter(a, announce=True)

            def power():
                for a in self.adapters.values():
                    if wanted[a.name]:
                        a.powered = True
                        a.emit(['Powered'])
                announce_ready()
            later(self.mgmt_delay_ms, power)
        later(self.startup_delay_ms, register)

    def terminate(self, why):
        if self.terminating:
            return
        self.terminating = True
        log('terminating (%s)' % why)
        try:
            # adapter_shutdown: temporary devices removed, adapters powered down
            for a in self.adapters.values():
                if a.obj is not None and a.powered:
                    a.set_powered(False)
            self.emitter.flush_all()
            self.bus.flush()
        except Exception:
            log('shutdown failed:\n' + traceback_text())
        self.loop.quit()

    # ---- bus clients
    def on_name_owner_changed(self, name, old, new):
        if not name.startswith(':') or new != '':
            return
        for a in self.adapters.values():
            a.client_left(name)
        for d in self.devices.values():
            for c in d.all_chrcs():
                c.client_left(name)

    def on_call(self, method, path, sender, iface):
        self.calls.append({'method': method, 'path': path, 'sender': sender, 'interface': iface})
        f = self.fail_next.pop(method, None)
        if f is not None:
            log('injected failure for %s on %s: %s' % (method, path, f[0]))
            raise bz_error(f[0], f[1])

    # ---- control channel
    def device_arg(self, addr):
        d = self.devices.get(str(addr).upper())
        if d is None:
            raise KeyError('unknown device %s' % addr)
        return d

    def handle(self, line):
        parts = line.split()
        if not parts:
            raise ValueError('empty command')
        cmd, args = parts[0], parts[1:]
        if cmd == 'notify':
            d = self.device_arg(args[0])
            hexs = args[1] if len(args) > 1 else '-'
            data = b'' if hexs == '-' else bytes.fromhex(hexs)
            c = d.chrc(UUID_HR_MEASUREMENT)
            n = c.deliver(data) if (c is not None and d.connected) else 0
            # what a client could have seen of the link when the notification went out
            return {'delivered': n, 'services_resolved': d.services_resolved,
                    'connected_announced': d.connected and d.announce_connected
                    and not d.connected_timer}
        if cmd == 'drop':
            d = self.device_arg(args[0])
            return {'dropped': d.link_down('link loss')}
        if cmd == 'range':
            d = self.device_arg(args[0])
            if args[1] not in ('on', 'off') or args[2:] not in ([], ['connect']):
                raise ValueError('range ADDRESS on|off [connect]')
            d.in_range = args[1] == 'on'
            if d.in_range:
                d.range_changed()
                return {}
            dropped = d.link_down('out of range')
            if args[2:] == ['connect']:
                # Another client's Connect, made in the same instant the link drops: it is pending
                # before any client can have heard of the loss.
                d.connect_call(lambda: None, lambda e: None)
            return {'dropped': dropped}
        if cmd == 'remove':
            d = self.device_arg(args[0])
            existed = d.obj is not None
            self.remove_device(d)
            return {'removed': existed}
        if cmd == 'power':
            a = self.adapters.get(args[0])
            if a is None or a.obj is None:
                raise KeyError('unknown adapter %s' % args[0])
            if args[1] not in ('on', 'off'):
                raise ValueError('power ADAPTER on|off')
            a.set_powered(args[1] == 'on')
            return {}
        if cmd == 'adapter':
            a = self.adapters.get(args[0])
            if a is None or args[1] not in ('remove', 'add'):
                raise ValueError('adapter NAME remove|add')
            if args[1] == 'remove':
                if a.obj is None:
                    raise KeyError('adapter %s is not there' % args[0])
                self.remove_adapter(a)
            else:
                if a.obj is not None:
                    raise KeyError('adapter %s is there already' % args[0])
                a.reset()
                self.export_adapter(a, announce=True)
            return {}
        if cmd == 'rfkill':
            a = self.adapters.get(args[0])
            if a is None or a.obj is None or args[1] not in ('block', 'unblock'):
                raise ValueError('rfkill ADAPTER block|unblock')
            a.blocked = args[1] == 'block'
            # rfkill block powers the controller down; bluetoothd powers it up
            # again on unblock (main.conf AutoEnable, default true in 5.66).
            a.set_powered(not a.blocked)
            return {}
        if cmd == 'connect':
            # Another client (or BlueZ's own auto-connect) starts a connection.
            d = self.device_arg(args[0])
            if d.obj is None:
                raise KeyError('device %s is not exported' % args[0])
            d.connect_call(lambda: None, lambda e: None)
            return {}
        if cmd == 'flap':
            d = self.device_arg(args[0])
            refresh = len(args) > 1 and args[1] == 'refresh'
            return {'flapped': d.flap(refresh)}
        if cmd == 'fail':
            if len(args) < 2:
                raise ValueError('fail METHOD ERRORNAME [MESSAGE]')
            msg = line.split(None, 3)[3] if len(args) >= 3 else None
            self.fail_next[args[0]] = (args[1], msg)
            return {}
        if cmd == 'battery':
            d = self.device_arg(args[0])
            return {'delivered': d.set_battery(int(args[1]))}
        if cmd == 'rssi':
            d = self.device_arg(args[0])
            d.rssi_cfg = int(args[1])
            return {}
        if cmd == 'sessions':
            d = self.device_arg(args[0])
            c = d.chrc(UUID_HR_MEASUREMENT)
            r = {'notify_clients': len(c.sessions) if c else 0,
                 'registered_clients': sum(1 for s in c.sessions.values() if s['registered']) if c else 0,
                 'acquired': bool(c and c.acquired is not None and c.acquired.get('sock') is not None),
                 'notifying': bool(c and c.notifying),
                 'connected': d.connected}
            r.update(d.counters)
            return r
        if cmd == 'state':
            d = self.device_arg(args[0])
            return {'exported': d.obj is not None, 'connected': d.connected,
                    'connecting': d.connecting is not None,
                    'services_resolved': d.services_resolved, 'temporary': d.temporary,
                    'paired': d.paired, 'trusted': d.trusted, 'rssi': d.rssi,
                    'in_range': d.in_range, 'gatt_exported': bool(d.gatt and d.gatt[0].obj),
                    'battery1': d.battery1, 'path': d.path,
                    'hr_measurement_path': (d.chrc(UUID_HR_MEASUREMENT).path
                                            if d.chrc(UUID_HR_MEASUREMENT) else None)}
        if cmd == 'calls':
            calls = list(self.calls)
            if args and args[0] == 'clear':
                self.calls = []
            return {'calls': calls}
        if cmd == 'discovery':
            out = {}
            for a in self.adapters.values():
                out[a.name] = {'discovering': a.discovering, 'powered': a.powered,
                               'clients': [{'sender': s, 'active': c['active'], 'filter': c['filter']}
                                           for s, c in a.clients.items()]}
            return {'adapters': out}
        if cmd == 'pmd':
            # pmd ADDRESS state | sent | motion still|walking|lying | stop acc|ecg (the strap's own stop)
            d = self.device_arg(args[0])
            if d.pmd is None:
                raise KeyError('device %s has no PMD service' % args[0])
            if args[1:] == ['state']:
                return d.pmd.state()
            if args[1:] == ['sent']:
                return d.pmd.sent_samples()
            if len(args) == 3 and args[1] == 'motion' and args[2] in ('still', 'walking', 'lying'):
                d.pmd.motion = args[2]
                return {}
            if len(args) == 3 and args[1] == 'stop' and args[2] in ('acc', 'ecg'):
                return {'stopped': d.pmd.strap_stop(2 if args[2] == 'acc' else 0)}
            raise ValueError('pmd ADDRESS state|sent|motion still|walking|lying|stop acc|ecg')
        if cmd == 'ping':
            return {}
        raise ValueError('unknown command %r' % cmd)

    def control_line(self, line):
        line = line.strip()
        if not line:
            return
        try:
            reply = self.handle(line)
            reply = dict({'ok': True}, **reply)
        except Exception as e:
            if not isinstance(e, (KeyError, ValueError, IndexError)):
                log('command %r failed:\n%s' % (line, traceback_text()))
            reply = {'ok': False, 'error': '%s: %s' % (type(e).__name__, e)}
        # signals caused by the command go out before its reply
        try:
            self.emitter.flush_all()
            self.bus.flush()
        except Exception:
            log('flush failed:\n' + traceback_text())
        # CLOCK_MONOTONIC is shared by all processes on the machine, so a benchmark can
        # measure from here (the signals are on the bus socket) to its client's output.
        reply['flushed_at'] = time.clock_gettime(time.CLOCK_MONOTONIC)
        sys.stdout.write(json.dumps(reply) + '\n')
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description='Fake BlueZ 5.66 bluetoothd for tests')
    ap.add_argument('--bus', required=True, help='D-Bus address of the (private) system bus')
    ap.add_argument('--config', required=True, help='JSON configuration file')
    args = ap.parse_args()
    # A child of a Swift test (Foundation.Process) inherits the test thread's
    # signal mask, which blocks SIGTERM/SIGINT; SIGTERM must stop us promptly.
    blocked = signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if blocked:
        log('unblocked %d signals blocked by the parent' % len(blocked))
    with open(args.config) as f:
        cfg = json.load(f)

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    loop = GLib.MainLoop()
    bus = dbus.bus.BusConnection(args.bus)
    fake = Fake(bus, cfg, loop)
    result = bus.request_name('org.bluez', dbus.bus.NAME_FLAG_DO_NOT_QUEUE)
    if result not in (dbus.bus.REQUEST_NAME_REPLY_PRIMARY_OWNER,
                      dbus.bus.REQUEST_NAME_REPLY_ALREADY_OWNER):
        log('could not own org.bluez (reply %d)' % result)
        sys.exit(2)

    for signum in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_HIGH, signum,
                             lambda s=signum: fake.terminate('signal %d' % s) or False)

    buf = bytearray()

    def on_stdin(fd, condition):
        try:
            data = os.read(fd, 65536)
        except OSError as e:
            log('stdin: %s' % e)
            data = b''
        if not data:
            fake.terminate('stdin closed')
            return False
        buf.extend(data)
        while b'\n' in buf:
            i = buf.index(b'\n')
            line = bytes(buf[:i]).decode('utf-8', 'replace')
            del buf[:i + 1]
            fake.control_line(line)
        return True

    def announce_ready():
        fake.emitter.flush_all()
        bus.flush()
        sys.stdout.write('ready\n')
        sys.stdout.flush()
        log('ready on %s as %s' % (args.bus, bus.get_unique_name()))

    fake.start(announce_ready)
    GLib.io_add_watch(0, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP | GLib.IO_ERR, on_stdin)
    loop.run()
    try:
        bus.close()
    except Exception:
        pass
    log('exit')
    sys.stdout.flush()
    os._exit(0)


if __name__ == '__main__':
    main()
