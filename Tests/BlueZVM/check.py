#!/usr/bin/python3
# Judges one run of the end-to-end test (Tests/BlueZVM/README.md).
#
# The reference is what bluetoothd itself put on the bus, recorded by dbus-monitor in the VM:
# every 0x2A37 notification bluetoothd emitted for hci0 (numbered by the peripheral in its Energy
# Expended field) must come out of `hrvmon monitor` exactly once, in order. Also: `hrvmon scan`
# lists the peripheral; the link was lost at least twice and beats flowed again after each loss.
# What the peripheral sent while subscribed but bluetoothd never emitted (lost in the radio or
# inside BlueZ) is reported, not held against hrvmon. In mode `acquire` notifications travel over
# AcquireNotify's socket, which dbus-monitor cannot see: the reference is then what the peripheral
# sent while subscribed, and the comparison is reported only. Polar's Measurement Data exchange
# through bluetoothd is judged by check_pmd.py. Prints a summary; exit status 1 on failure.
#
#     check.py RESULTS_DIR MODE

import json
import os
import re
import sys

from bus_record import read_messages
from check_pmd import check_measurement_data


def json_lines(path):
    out = []
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def bus_events(messages, central):
    """(time, kind, path, detail) from dbus-monitor's record: Value notifications (detail: the
    packet number), Connected / ServicesResolved changes, InterfacesAdded of GATT objects."""
    events = []
    for message in messages:
        if message.kind != 'signal':
            continue
        data = message.value
        if data is not None:
            if len(data) == 6 and data[0] == 0x1E:
                events.append((message.time, 'value', message.path, data[2] | data[3] << 8))
        elif message.member == 'PropertiesChanged' and 'org.bluez.Device1' in message.body:
            for name in ('Connected', 'ServicesResolved'):
                state = message.boolean(name)
                if state is not None:
                    events.append((message.time, name, message.path, state))
        elif message.member == 'InterfacesAdded' and 'org.bluez.GattCharacteristic1' in message.body:
            added = re.search(r'object path "([^"]+)"', message.body)
            if added and added.group(1).startswith('/org/bluez/%s/' % central):
                events.append((message.time, 'InterfacesAdded', added.group(1), None))
    return sorted(events, key=lambda e: e[0])


def main():
    results, mode = sys.argv[1], sys.argv[2]
    read = lambda name: open(os.path.join(results, name)).read() if os.path.exists(os.path.join(results, name)) else ''
    failures = []
    peripheral = json_lines(os.path.join(results, 'peripheral.jsonl'))
    monitor = json_lines(os.path.join(results, 'monitor.jsonl'))
    central = read('central').strip() or 'hci0'
    messages = read_messages(os.path.join(results, 'dbus-monitor.txt'))
    events = bus_events(messages, central)

    address = next((e['address'] for e in peripheral if e['event'] == 'advertising'), None)
    try:
        listed = [s.get('address') for s in json.loads(read('scan.json') or '{}').get('sensors', [])]
    except ValueError:
        listed = []
    if address is None:
        failures.append('the peripheral never advertised')
    elif address not in listed:
        failures.append('hrvmon scan did not list %s (it listed %s; stderr: %s)' % (address, listed, read('scan.err').strip()))
    failures += ['peripheral: ' + e['reason'] for e in peripheral if e['event'] == 'failed']
    if read('monitor.status').strip() not in ('0', ''):
        failures.append('hrvmon monitor exited %s: %s' % (read('monitor.status').strip(), read('monitor.err').strip()[-300:]))

    sent = [e for e in peripheral if e['event'] == 'notify']
    subscribed = [e['n'] for e in sent if e['subscribed']]
    losses = [e for e in peripheral if e['event'] == 'link_loss']
    emitted = [e[3] for e in events if e[1] == 'value']
    if mode == 'acquire':
        emitted = subscribed
    received = [line['energy_kj'] for line in monitor if line.get('type') == 'rr' and 'energy_kj' in line]
    if not events and mode != 'acquire':
        failures.append('no dbus-monitor record of bluetoothd\'s signals')

    counts = {}
    for n in received:
        counts[n] = counts.get(n, 0) + 1
    missing = [n for n in emitted if n not in counts]
    duplicated = sorted(n for n, c in counts.items() if c > 1)
    unexpected = sorted(set(counts) - set(emitted))
    if missing:
        failures.append('%d notifications bluetoothd emitted never came out of hrvmon: %s' % (len(missing), missing[:10]))
    if duplicated:
        failures.append('printed twice: %s' % duplicated[:10])
    if unexpected:
        failures.append('printed but never emitted by bluetoothd: %s' % unexpected[:10])
    if [n for n in received if n in set(emitted)] != [n for n in emitted if n in counts]:
        failures.append('beats out of order')
    below = [n for n in subscribed if n not in set(emitted)]
    sent_at = {e['n']: e['t'] for e in sent}
    def near_loss(n):
        if not losses:
            return '#%d' % n
        loss = min(losses, key=lambda l: abs(l['t'] - sent_at[n]))
        return '#%d %+.2f s from forced loss %d' % (n, sent_at[n] - loss['t'], loss['number'])

    # Each link loss: the order of bluetoothd's signals until the first notification after it, and
    # the gap from Connected going false to that notification.
    # The loss each forced disconnection caused (not hrvmon's own Disconnect when it stops).
    all_downs = [e for e in events if e[1] == 'Connected' and e[3] is False]
    downs = [d for d in (next((d for d in all_downs if d[0] >= loss['t']), None) for loss in losses) if d is not None]
    if len(losses) < 2 or len(downs) < 2:
        failures.append('only %d link losses forced, %d seen on the bus' % (len(losses), len(downs)))
    reconnects = []
    received_at = {}
    for line in monitor:
        if line.get('type') == 'rr' and 'energy_kj' in line:
            received_at.setdefault(line['energy_kj'], line['recv'])
    if mode == 'acquire':
        downs = [(d['t'], 'Connected', None, False) for d in (next((d for d in peripheral if d['event'] == 'disconnected' and d['t'] >= loss['t']), None) for loss in losses) if d]
    for down in downs:
        after = [e for e in events if e[0] > down[0]]
        if mode == 'acquire':
            first = min((t for t in received_at.values() if t > down[0]), default=None)
            if first is None:
                failures.append('no beat after the link loss at %.2f' % down[0])
            else:
                reconnects.append('%.2f s to the first beat printed' % (first - down[0]))
            continue
        first_value = next((e for e in after if e[1] == 'value'), None)
        if first_value is None:
            failures.append('no notification after the link loss at %.2f' % down[0])
            continue
        order = []
        for e in after:
            if e[0] > first_value[0]:
                break
            name = e[1] if e[1] != 'value' else 'Value'
            if e[1] in ('Connected', 'ServicesResolved'):
                name += '=' + ('true' if e[3] else 'false')
            if not order or order[-1] != name:
                order.append(name)
        later = []
        for name in ('Connected', 'ServicesResolved'):
            if name + '=true' not in order and any(e[1] == name and e[3] and e[0] > first_value[0] for e in after):
                later.append(name + '=true')
        reconnects.append('%.2f s (%s; then %s)' % (first_value[0] - down[0], ' → '.join(order), ', '.join(later) or 'nothing'))

    waits = []
    states = [line for line in monitor if line.get('type') == 'link']
    for i, line in enumerate(states):
        if line.get('state') == 'connecting':
            nxt = next((s for s in states[i + 1:] if s.get('state') != 'connecting'), None)
            if nxt:
                waits.append(nxt['t'] - line['t'])
    silent = read('bluetoothd.log').count('is already connected')

    print('bluez-vm-test %s: bluetoothd emitted %d notifications for hrvmon, hrvmon printed %d: %d missing, %d duplicated. '
          'The peripheral sent %d, %d of them while subscribed; %d of those never left bluetoothd (radio/BlueZ: %s).'
          % (mode, len(emitted), len(counts), len(missing), len(duplicated), len(sent), len(subscribed), len(below),
             ', '.join(near_loss(n) for n in below[:8]) or 'none'))
    print('  %d link losses; after each, link down → first notification: %s' % (len(downs), '; '.join(reconnects)))
    print('  longest wait in connecting: %.1f s; bluetoothd logged "Device … is already connected" (Connected never announced) %d times'
          % (max(waits or [0]), silent))
    pmd_failures, pmd_report = check_measurement_data(messages, peripheral, monitor, central, '--ecg' in read('monitor-options'), mode == 'acquire')
    for line in pmd_report:
        print('  PMD ' + line)
    failures += pmd_failures
    for failure in failures:
        print('  FAIL: ' + failure)
    if mode == 'acquire':
        print('  (acquire is a comparison, not a check: notifications lost while the socket is acquired again count above)')
        sys.exit(0)
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
