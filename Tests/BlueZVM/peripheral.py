#!/usr/bin/python3
# A heart-rate strap on a virtual controller, for the end-to-end test against the real bluetoothd
# (Tests/BlueZVM/README.md). It registers a GATT application (Heart Rate service 0x180D: 0x2A37
# notify, 0x2A38 read) and an advertisement through BlueZ's GattManager1 and
# LEAdvertisingManager1 (doc/org.bluez.GattManager.rst, doc/org.bluez.LEAdvertisingManager.rst),
# then, like a strap, sends a notification every `interval` seconds whatever the link does: one RR
# interval of MIT-BIH NSR each, numbered in its Energy Expended field. Once subscribed it drops the
# link from its side three times — Device1.Disconnect (bluetoothd's way, after its 2 s disconnect
# timer), an immediate HCI disconnect through the kernel's management interface (btmgmt), and
# Disconnect again — each time waiting for the central to reconnect and subscribe again, then
# streams a little longer and exits. (Powering hci1 off is no link loss under btvirt: its virtual
# radio still lets hci0 connect to a powered-off controller, and the advertisement is not restored.)
# Every notification is logged with whether the central was connected and subscribed.

import argparse
import json
import os
import subprocess
import sys
import time

import dbus
import dbus.mainloop.glib
import dbus.service
from gi.repository import GLib

BLUEZ = 'org.bluez'
PROPS = 'org.freedesktop.DBus.Properties'
OBJECT_MANAGER = 'org.freedesktop.DBus.ObjectManager'
GATT_SERVICE = 'org.bluez.GattService1'
GATT_CHRC = 'org.bluez.GattCharacteristic1'
ADVERTISEMENT = 'org.bluez.LEAdvertisement1'
DEVICE = 'org.bluez.Device1'
ADAPTER = 'org.bluez.Adapter1'
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, '..', 'TestSupport', 'Fixtures', 'mitbih_nsr_5min.txt')


class Log:
    def __init__(self, path):
        self.file = open(path, 'w', buffering=1)

    def __call__(self, event, **fields):
        fields.update(event=event, t=time.time())
        self.file.write(json.dumps(fields) + '\n')


class Application(dbus.service.Object):
    """The GATT application root: an ObjectManager over its service and characteristics."""

    def __init__(self, bus, path):
        super().__init__(bus, path)
        self.path = path
        self.objects = []

    @dbus.service.method(OBJECT_MANAGER, out_signature='a{oa{sa{sv}}}')
    def GetManagedObjects(self):
        return {obj.path: obj.properties() for obj in self.objects}


class Service(dbus.service.Object):
    def __init__(self, bus, path, uuid):
        super().__init__(bus, path)
        self.path, self.uuid = path, uuid

    def properties(self):
        return {GATT_SERVICE: {'UUID': self.uuid, 'Primary': dbus.Boolean(True)}}


class Characteristic(dbus.service.Object):
    def __init__(self, bus, path, service, uuid, flags, value=b''):
        super().__init__(bus, path)
        self.path, self.service, self.uuid, self.flags, self.value = path, service, uuid, flags, value
        self.notifying = False
        self.on_notify = lambda on: None

    def properties(self):
        return {GATT_CHRC: {'UUID': self.uuid, 'Service': dbus.ObjectPath(self.service.path),
                            'Flags': dbus.Array(self.flags, signature='s')}}

    @dbus.service.method(GATT_CHRC, in_signature='a{sv}', out_signature='ay')
    def ReadValue(self, options):
        return dbus.Array([dbus.Byte(b) for b in self.value], signature='y')

    @dbus.service.method(GATT_CHRC)
    def StartNotify(self):
        self.notifying = True
        self.on_notify(True)

    @dbus.service.method(GATT_CHRC)
    def StopNotify(self):
        self.notifying = False
        self.on_notify(False)

    def notify(self, data):
        self.PropertiesChanged(GATT_CHRC, {'Value': dbus.Array([dbus.Byte(b) for b in data], signature='y')}, [])

    @dbus.service.signal(PROPS, signature='sa{sv}as')
    def PropertiesChanged(self, interface, changed, invalidated):
        pass


class Advertisement(dbus.service.Object):
    def __init__(self, bus, path):
        super().__init__(bus, path)
        self.path = path

    @dbus.service.method(PROPS, in_signature='s', out_signature='a{sv}')
    def GetAll(self, interface):
        return {'Type': 'peripheral', 'ServiceUUIDs': dbus.Array(['180d'], signature='s'),
                'LocalName': 'hrvmon VM strap', 'Discoverable': dbus.Boolean(True)}

    @dbus.service.method(ADVERTISEMENT)
    def Release(self):
        pass


def packet(number, rr_ticks):
    """Flags: 8-bit HR, contact supported and detected, Energy Expended, RR present."""
    heart_rate = min(255, round(60 * 1024 / rr_ticks))
    return bytes([0x1E, heart_rate, number & 0xFF, (number >> 8) & 0xFF, rr_ticks & 0xFF, rr_ticks >> 8])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--adapter', default='hci1')
    parser.add_argument('--log', required=True)
    parser.add_argument('--address-file', required=True)
    parser.add_argument('--interval', type=float, default=0.1)
    parser.add_argument('--hold', type=float, default=6.0, help='seconds of streaming between link losses')
    parser.add_argument('--patience', type=float, default=60.0, help='seconds allowed for each resubscription')
    args = parser.parse_args()

    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    loop = GLib.MainLoop()
    log = Log(args.log)
    adapter_path = '/org/bluez/' + args.adapter
    adapter_props = dbus.Interface(bus.get_object(BLUEZ, adapter_path), PROPS)
    address = str(adapter_props.Get(ADAPTER, 'Address'))

    app = Application(bus, '/hrvmon/app')
    service = Service(bus, '/hrvmon/app/service0', '180d')
    measurement = Characteristic(bus, '/hrvmon/app/service0/char0', service, '2a37', ['notify'])
    location = Characteristic(bus, '/hrvmon/app/service0/char1', service, '2a38', ['read'], bytes([1]))
    app.objects = [service, measurement, location]
    advertisement = Advertisement(bus, '/hrvmon/advertisement0')

    rr = [round(float(line) * 1.024) for line in open(FIXTURE) if line.strip() and not line.startswith('#')]
    state = {'n': 0, 'connected': False, 'central': None, 'phase': 'waiting', 'since': time.time(), 'losses': 0, 'downs': 0}
    plan = ['disconnect', 'mgmt', 'disconnect']

    def fail(message):
        log('failed', reason=message)
        print('peripheral: ' + message, file=sys.stderr)
        state['status'] = 3
        loop.quit()

    def on_notify(on):
        log('start_notify' if on else 'stop_notify')
    measurement.on_notify = on_notify

    def track(path, properties):
        if not path.startswith(adapter_path + '/dev_') or DEVICE not in properties:
            return
        connected = properties[DEVICE].get('Connected')
        if connected is None:
            return
        state['central'] = path
        if bool(connected) != state['connected']:
            state['connected'] = bool(connected)
            state['downs'] += 0 if connected else 1
            log('connected' if connected else 'disconnected', device=path)

    def on_properties(interface, changed, invalidated, path=None):
        if interface == DEVICE:
            track(path, {DEVICE: changed})

    bus.add_signal_receiver(on_properties, 'PropertiesChanged', PROPS, BLUEZ, path_keyword='path')
    bus.add_signal_receiver(lambda path, interfaces: track(path, interfaces), 'InterfacesAdded', OBJECT_MANAGER, BLUEZ)

    def force_loss(how):
        state['losses'] += 1
        log('link_loss', how=how, number=state['losses'])
        if how == 'disconnect':
            device = dbus.Interface(bus.get_object(BLUEZ, state['central']), DEVICE)
            device.Disconnect(reply_handler=lambda: None, error_handler=lambda e: log('error', call='Disconnect', error=str(e)))
        else:
            central = state['central'].rsplit('/dev_', 1)[1].replace('_', ':')
            index = args.adapter[len('hci'):]
            subprocess.Popen(['btmgmt', '--index', index, 'disconnect', '-t', '1', central],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def tick():
        n = state['n']
        subscribed = measurement.notifying and state['connected']
        log('notify', n=n, rr=rr[n % len(rr)], subscribed=subscribed)
        measurement.notify(packet(n, rr[n % len(rr)]))
        state['n'] = n + 1
        now = time.time()
        phase = state['phase']
        if phase == 'waiting':
            # Waiting for the (re)subscription after the start or a link loss.
            if subscribed:
                state['phase'], state['since'] = 'streaming', now
            elif now - state['since'] > args.patience:
                fail('no subscription %.0f s after %s' % (args.patience, 'the start' if not state['losses'] else 'link loss %d' % state['losses']))
                return False
        elif phase == 'streaming' and now - state['since'] >= args.hold:
            if not plan:
                log('finished', sent=state['n'])
                loop.quit()
                return False
            force_loss(plan.pop(0))
            state['phase'], state['since'], state['downs_before'] = 'lost', now, state['downs']
        elif phase == 'lost' and state['downs'] > state['downs_before']:
            # The link went down (the central may already be back: it reconnects within tens of ms).
            state['phase'], state['since'] = 'waiting', now
        elif phase == 'lost' and now - state['since'] > args.patience:
            fail('link loss %d never happened' % state['losses'])
            return False
        return True

    def registered():
        with open(args.address_file, 'w') as f:
            f.write(address)
        log('advertising', address=address)
        GLib.timeout_add(int(args.interval * 1000), tick)

    manager = dbus.Interface(bus.get_object(BLUEZ, adapter_path), 'org.bluez.GattManager1')
    advertising = dbus.Interface(bus.get_object(BLUEZ, adapter_path), 'org.bluez.LEAdvertisingManager1')
    manager.RegisterApplication(
        app.path, {},
        reply_handler=lambda: advertising.RegisterAdvertisement(
            advertisement.path, {}, reply_handler=registered, error_handler=lambda e: fail('RegisterAdvertisement: %s' % e)),
        error_handler=lambda e: fail('RegisterApplication: %s' % e))
    state['status'] = 0
    loop.run()
    sys.exit(state['status'])


if __name__ == '__main__':
    main()
