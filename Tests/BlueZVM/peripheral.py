#!/usr/bin/python3
# A heart-rate strap on a virtual controller, for the end-to-end test against the real bluetoothd
# (Tests/BlueZVM/README.md). It registers a GATT application (Heart Rate service 0x180D: 0x2A37
# notify, 0x2A38 read; Polar's Measurement Data service, PMD) and an advertisement through BlueZ's
# GattManager1 and LEAdvertisingManager1 (doc/org.bluez.GattManager.rst,
# doc/org.bluez.LEAdvertisingManager.rst), then, like a strap, sends a notification every
# `interval` seconds whatever the link does: one RR interval of MIT-BIH NSR each, numbered in its
# Energy Expended field. PMD answers as the H10 does (the fake bluetoothd's pmd_strap.py, after
# shared/POLAR-PMD.md): features read, requests written with response, replies indicated only
# when the control point's indications are on, status codes, an MTU below 232 refused, frames at
# the real rates of at most 232 - 3 bytes. Once subscribed and streaming it stops the
# accelerometer by itself once (`01 02`), and it drops the link from its side three times —
# Device1.Disconnect (bluetoothd's way, after its 2 s disconnect timer), an immediate HCI
# disconnect through the kernel's management interface (btmgmt), and Disconnect again — each
# time waiting for the central to reconnect, subscribe and start the streams again; the wearer
# walks between the first two. Then it logs `finished`, ends its heart-rate notifications and
# streams PMD on until the central leaves.
# (Powering hci1 off is no link loss under btvirt: its virtual radio still lets hci0 connect to
# a powered-off controller, and the advertisement is not restored.) Every notification, control
# point write and reply, and data frame is logged.

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
sys.path.insert(0, os.path.join(HERE, '..', 'TestSupport', 'FakeBlueZ'))
from pmd_strap import ACC, ECG, FEATURES, MINIMUM_MTU, NAMES, PMD_CONTROL_POINT, PMD_DATA, PMD_SERVICE, PmdStrap  # noqa: E402


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
        self.on_access = lambda options: None
        self.on_write = lambda value: None

    def properties(self):
        return {GATT_CHRC: {'UUID': self.uuid, 'Service': dbus.ObjectPath(self.service.path),
                            'Flags': dbus.Array(self.flags, signature='s')}}

    @dbus.service.method(GATT_CHRC, in_signature='a{sv}', out_signature='ay')
    def ReadValue(self, options):
        self.on_access(options)
        return dbus.Array([dbus.Byte(b) for b in self.value], signature='y')

    @dbus.service.method(GATT_CHRC, in_signature='aya{sv}')
    def WriteValue(self, value, options):
        self.on_access(options)
        self.on_write(bytes(value))

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

    deliver = notify

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


class StrapLink:
    """What PmdStrap asks of the link: its characteristics, whether it is up, and its ATT MTU as
    the strap sees it (bluetoothd tells the application the link's MTU with each read and write;
    the H10 itself goes no higher than 232)."""

    def __init__(self, characteristics):
        self.characteristics = {c.uuid: c for c in characteristics}
        self.connected = False
        self.mtu = MINIMUM_MTU

    def chrc(self, uuid):
        return self.characteristics.get(uuid)


class Strap(PmdStrap):
    """The fake's H10 over real GATT: the control point's indications are on when bluetoothd has
    called StartNotify on it; every write, reply and frame is logged."""

    def __init__(self, link, log):
        super().__init__(link, 0, lambda message: log('pmd_note', message=message))
        self.journal = log

    def indications_on(self):
        return self.chrc(PMD_CONTROL_POINT).notifying

    def write(self, value):
        data = bytes(value)
        on = self.indications_on()
        reply = self.answer(data)
        self.journal('pmd_write', hex=data.hex(' ').upper(), indications=on, data_notifying=self.chrc(PMD_DATA).notifying,
                     mtu=self.device.mtu, reply=reply.hex(' ').upper())
        if on:
            # After the write's response, as the strap does (the indication is not the write's result).
            GLib.timeout_add(5, self._indicate, reply)

    def _indicate(self, reply):
        self.journal('pmd_indicate', hex=bytes(reply).hex(' ').upper(), connected=self.device.connected)
        return super()._indicate(reply)


class DataCharacteristic(Characteristic):
    def __init__(self, bus, path, service, log):
        super().__init__(bus, path, service, PMD_DATA, ['notify'])
        self.log = log

    def deliver(self, frame):
        kind = frame[0]
        self.log('pmd_frame', kind=NAMES.get(kind, kind), samples=(len(frame) - 10) // (6 if kind == ACC else 3),
                 subscribed=self.notifying)
        self.notify(frame)


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
    parser.add_argument('--ecg', action='store_true', help='the central asks for ECG too: wait for both streams')
    parser.add_argument('--no-streams', action='store_true', help='the central is not to start any (an MTU below 232)')
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
    pmd = Service(bus, '/hrvmon/app/service1', PMD_SERVICE)
    control_point = Characteristic(bus, '/hrvmon/app/service1/char0', pmd, PMD_CONTROL_POINT, ['read', 'write', 'indicate'], FEATURES)
    data = DataCharacteristic(bus, '/hrvmon/app/service1/char1', pmd, log)
    app.objects = [service, measurement, location, pmd, control_point, data]
    link = StrapLink([control_point, data])
    strap = Strap(link, log)
    control_point.on_write = strap.write
    wanted = [] if args.no_streams else [ACC, ECG] if args.ecg else [ACC]
    advertisement = Advertisement(bus, '/hrvmon/advertisement0')

    rr = [round(float(line) * 1.024) for line in open(FIXTURE) if line.strip() and not line.startswith('#')]
    state = {'n': 0, 'connected': False, 'central': None, 'phase': 'waiting', 'since': time.time(), 'losses': 0, 'downs': 0,
             'strap_stopped': False, 'mtu': None}
    plan = ['disconnect', 'mgmt', 'disconnect']

    def fail(message):
        log('failed', reason=message)
        print('peripheral: ' + message, file=sys.stderr)
        state['status'] = 3
        loop.quit()

    def on_notify(on, name='measurement'):
        log('start_notify' if on else 'stop_notify', characteristic=name)
    measurement.on_notify = on_notify
    control_point.on_notify = lambda on: on_notify(on, 'pmd_control_point')
    data.on_notify = lambda on: on_notify(on, 'pmd_data')

    def on_access(options):
        # The link's ATT MTU, which bluetoothd negotiated with the central (BlueZ 5.62+ passes it).
        mtu = options.get('mtu')
        if mtu is not None and int(mtu) != state['mtu']:
            state['mtu'] = int(mtu)
            log('link_mtu', mtu=int(mtu))
        link.mtu = min(int(mtu), MINIMUM_MTU) if mtu is not None else MINIMUM_MTU
    control_point.on_access = on_access

    def streams_ready():
        return all(kind in strap.streams for kind in wanted)

    def track(path, properties):
        if not path.startswith(adapter_path + '/dev_') or DEVICE not in properties:
            return
        connected = properties[DEVICE].get('Connected')
        if connected is None:
            return
        state['central'] = path
        if bool(connected) != state['connected']:
            state['connected'] = link.connected = bool(connected)
            state['downs'] += 0 if connected else 1
            # The streams running when the link went: a strap left streaming drains its battery.
            log('connected' if connected else 'disconnected', device=path, streams=sorted(NAMES[k] for k in strap.streams))
            if not connected:
                strap.link_down()

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

    def set_motion(motion):
        strap.motion = motion
        log('motion', motion=motion)

    def tick():
        n = state['n']
        subscribed = measurement.notifying and state['connected']
        phase = state['phase']
        if phase != 'draining':
            log('notify', n=n, rr=rr[n % len(rr)], subscribed=subscribed)
            measurement.notify(packet(n, rr[n % len(rr)]))
            state['n'] = n + 1
        now = time.time()
        # The walk: between the first two link losses, long enough for a cadence (4 s of history).
        hold = args.hold + 4 if state['losses'] == 1 else args.hold
        # The first wait includes `hrvmon scan` and hrvmon's own start (34 s once under TCG on a busy host).
        patience = args.patience * 3 if phase == 'waiting' and not state['losses'] else args.patience
        if phase == 'waiting':
            # Waiting for the (re)subscription and the streams after the start or a link loss.
            if subscribed and streams_ready():
                state['phase'], state['since'] = 'streaming', now
                if state['losses'] == 1:
                    set_motion('walking')
            elif now - state['since'] > patience:
                fail('no subscription and %s stream %.0f s after %s' % ('+'.join(NAMES[k] for k in wanted), patience,
                                                                          'the start' if not state['losses'] else 'link loss %d' % state['losses']))
                return False
        elif phase == 'streaming' and not state['strap_stopped'] and now - state['since'] >= args.hold / 2:
            # The strap's own stop, once: the central should start the stream again.
            state['strap_stopped'] = True
            log('strap_stop', stopped=strap.strap_stop(ACC))
        elif phase == 'streaming' and now - state['since'] >= hold and not streams_ready():
            if now - state['since'] > args.patience:
                fail('the %s stream was not started again after the strap stopped it' % NAMES[ACC])
                return False
        elif phase == 'streaming' and now - state['since'] >= hold:
            if strap.motion != 'still':
                set_motion('still')
            if not plan:
                # The PMD streams go on, as on a strap: the central is to stop them and leave. The
                # heart-rate notifications end, so that the central can print every one of them
                # before it is interrupted (hrvmon, starved of CPU under TCG, can lag seconds).
                log('finished', sent=state['n'], last=state['n'] - 1)
                state['phase'], state['since'] = 'draining', now
                return True
            force_loss(plan.pop(0))
            state['phase'], state['since'], state['downs_before'] = 'lost', now, state['downs']
        elif phase == 'draining' and not state['connected']:
            log('central_left')
            loop.quit()
            return False
        elif phase == 'draining' and now - state['since'] > args.patience:
            fail('the central did not leave %.0f s after the end' % args.patience)
            return False
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
