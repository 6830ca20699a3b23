# The Polar Measurement Data part of the end-to-end test's judgement (check.py,
# Tests/BlueZVM/README.md): the control-point exchange hrvmon made through the real bluetoothd, as
# dbus-monitor recorded it (hrvmon's calls, bluetoothd's answers and the indications it passed
# on), held to shared/POLAR-PMD.md's order; the streams started on every connection with beats
# and stopped before hrvmon left; and hrvmon's motion lines held to what the peripheral's frames
# imply.

import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'TestSupport', 'FakeBlueZ'))
from pmd_strap import ACC, ECG, MINIMUM_MTU, NAMES, PMD_CONTROL_POINT, PMD_DATA, PmdStrap  # noqa: E402

GATT_CHRC = 'org.bluez.GattCharacteristic1'
RATE = 50           # what hrvmon asks for (MeasurementDataClient.accelerometerRate)
WALKING_SPM = (102, 114)    # 1.8 steps a second, as MeasurementDataTests hold the fake's walk


def hexed(data):
    return data.hex(' ').upper()


def characteristic_paths(messages, central):
    """uuid -> object path of the central's GATT characteristics, and the MTUs bluetoothd showed."""
    paths, mtus = {}, []
    for m in messages:
        if m.kind != 'signal':
            continue
        for block in re.split(r'(?=object path ")', m.body) if m.member == 'InterfacesAdded' else [m.body]:
            added = re.match(r'object path "(/org/bluez/%s/[^"]+)"' % central, block)
            uuid = re.search(r'string "UUID"\s*variant\s*string "([0-9a-f-]+)"', block)
            if added and uuid and GATT_CHRC in block:
                paths[uuid.group(1)] = added.group(1)
            mtu = re.search(r'string "MTU"\s*variant\s*uint16 (\d+)', block)
            if mtu and (added or m.path.startswith('/org/bluez/%s/' % central)):
                mtus.append(int(mtu.group(1)))
    return paths, mtus


def intensity_range(motion, offsets=400):
    """The RMS around the mean of every 1-s window of the fake strap's accelerometer, as
    MotionMeter computes it: what a motion line's `mg` may be while the strap feels `motion`."""
    strap = PmdStrap(None, 0, None)
    strap.motion = motion
    samples = [strap.sample(ACC, i / RATE) for i in range(offsets + RATE)]
    values = []
    for start in range(offsets):
        window = samples[start:start + RATE]
        mean = [sum(s[k] for s in window) / RATE for k in range(3)]
        values.append(math.sqrt(sum(sum((s[k] - mean[k]) ** 2 for k in range(3)) for s in window) / RATE))
    return min(values), max(values)


class Exchange:
    """hrvmon's control-point calls and what came back, in bus order."""

    def __init__(self, messages, control_point, data_path):
        self.messages = messages
        writes = [m for m in messages if m.kind == 'method call' and m.member == 'WriteValue' and m.path == control_point]
        self.client = writes[0].sender if writes else None
        self.answers = {m.reply_serial: m for m in messages if m.kind in ('method return', 'error') and m.destination == self.client}
        self.control_point, self.data_path = control_point, data_path

    def calls(self, member, path, within):
        return [m for m in within if m.kind == 'method call' and m.sender == self.client and m.member == member and m.path == path]


def check_measurement_data(messages, peripheral, monitor, central, ecg, acquire):
    """(failures, report lines). With `acquire` the beats travel over AcquireNotify's socket, out
    of dbus-monitor's sight: every connection with a control-point write counts."""
    failures, report = [], []
    paths, mtus = characteristic_paths(messages, central)
    control_point, data_path = paths.get(PMD_CONTROL_POINT), paths.get(PMD_DATA)
    link_mtus = sorted(set(e['mtu'] for e in peripheral if e['event'] == 'link_mtu'))
    report.append('ATT MTU: %s on hrvmon\'s side (the control point\'s MTU property), %s on the peripheral\'s (WriteValue\'s option)'
                  % (sorted(set(mtus)) or 'not shown', link_mtus or 'not shown'))
    if control_point is None or data_path is None:
        return failures + ['bluetoothd never showed hrvmon the PMD service (InterfacesAdded of %s and %s)' % (PMD_CONTROL_POINT, PMD_DATA)], report
    if mtus and min(mtus) < MINIMUM_MTU:
        # The small-MTU path: hrvmon says why and writes nothing.
        notices = [line.get('message', '') for line in monitor if line.get('type') == 'notice']
        if not any('ATT MTU of at least %d' % MINIMUM_MTU in n for n in notices):
            failures.append('the link\'s MTU %d is below %d and hrvmon did not say so' % (min(mtus), MINIMUM_MTU))
        if any(m.member == 'WriteValue' and m.path == control_point for m in messages):
            failures.append('hrvmon wrote to the control point on a link below %d' % MINIMUM_MTU)
        report.append('small-MTU path: hrvmon said %s' % next((n for n in notices if 'ATT MTU' in n), 'nothing'))
        return failures, report

    exchange = Exchange(messages, control_point, data_path)
    if exchange.client is None:
        return failures + ['hrvmon never wrote to the PMD control point'], report
    device = control_point.split('/service')[0]
    downs = [m.index for m in messages if m.kind == 'signal' and m.path == device and m.boolean('Connected') is False]
    bounds = [0] + downs + [len(messages)]
    kinds = [ACC, ECG] if ecg else [ACC]
    summaries = []
    for number, (start, end) in enumerate(zip(bounds, bounds[1:]), 1):
        within = messages[start:end]
        if not any((m.value or b'')[:1] == b'\x1e' for m in within) and not (acquire and exchange.calls('WriteValue', control_point, within)):
            continue
        failures += check_connection(exchange, within, kinds, number, summaries)
    report.append('control point, per connection with beats: ' + ' | '.join(summaries))
    failures += check_exit(exchange, messages, peripheral, kinds)
    failures += check_peripheral_side(peripheral)
    motion_failures, motion_report = check_motion(messages, data_path, peripheral, monitor)
    return failures + motion_failures, report + motion_report


def check_connection(exchange, within, kinds, number, summaries):
    """One connection: indications on before the first write, one write at a time (each after the
    indication answering the one before), every wanted stream started and its frames on the bus."""
    failures = []
    where = 'connection %d' % number
    writes = exchange.calls('WriteValue', exchange.control_point, within)
    if not writes:
        return ['%s: beats but no control-point write (the streams were not started)' % where]
    subscribed = [c for c in exchange.calls('StartNotify', exchange.control_point, within)
                  if c.serial in exchange.answers and exchange.answers[c.serial].index < writes[0].index
                  and (exchange.answers[c.serial].kind == 'method return' or exchange.answers[c.serial].error_name.endswith('InProgress'))]
    if not subscribed:
        failures.append('%s: no StartNotify on the control point answered before the first write' % where)
    indications = [(m.index, m.value) for m in within if m.path == exchange.control_point and m.value is not None]
    steps = []
    for write, following in zip(writes, writes[1:] + [None]):
        value = write.bytes()
        limit = following.index if following else within[-1].index + 1
        reply = next((data for index, data in indications if write.index < index < limit and data[:3] == bytes([0xF0]) + value[:2]), None)
        answer = exchange.answers.get(write.serial)
        if answer is not None and answer.kind == 'error':
            failures.append('%s: WriteValue %s failed: %s' % (where, hexed(value), answer.error_name))
        if reply is None and following is not None:
            failures.append('%s: %s written before the reply to %s' % (where, hexed(following.bytes()), hexed(value)))
        steps.append('%s → %s' % (hexed(value), hexed(reply) if reply else 'no reply'))
    stopped_by_strap = [index for index, data in indications if data[:1] == b'\x01']
    for kind in kinds:
        started = [w for w in writes if w.bytes()[:2] == bytes([2, kind])]
        frames = [m for m in within if m.path == exchange.data_path and (m.value or b'\xff')[0] == kind]
        if not started:
            failures.append('%s: the %s stream was never started' % (where, NAMES[kind]))
        elif not frames:
            failures.append('%s: no %s frame on the bus after the start' % (where, NAMES[kind]))
    for index in stopped_by_strap:
        if not any(w.index > index and w.bytes()[:2] == bytes([2, ACC]) for w in writes):
            failures.append('%s: the strap stopped its stream and hrvmon did not start it again' % where)
    summaries.append('%d: %s%s' % (number, '; '.join(steps), ' (the strap stopped acc: 01 02 indicated)' if stopped_by_strap else ''))
    return failures


def check_exit(exchange, messages, peripheral, kinds):
    """On exit every stream stopped, each stop answered, before hrvmon's Disconnect."""
    failures = []
    leaving = next((m for m in messages if m.kind == 'method call' and m.sender == exchange.client and m.member == 'Disconnect'), None)
    if leaving is None:
        return ['hrvmon never called Disconnect on exit']
    before = messages[:leaving.index]
    last_down = max((m.index for m in before if m.kind == 'signal' and m.boolean('Connected') is False), default=-1)
    for kind in kinds:
        stops = [w for w in exchange.calls('WriteValue', exchange.control_point, before[last_down + 1:]) if w.bytes() == bytes([3, kind])]
        replied = [m for m in before if stops and m.index > stops[0].index and m.path == exchange.control_point
                   and (m.value or b'')[:4] in (bytes([0xF0, 3, kind, 0]), bytes([0xF0, 3, kind, 6]))]
        if not stops:
            failures.append('hrvmon disconnected without stopping the %s stream' % NAMES[kind])
        elif not replied:
            failures.append('hrvmon disconnected before the strap answered the stop of %s' % NAMES[kind])
    final = [e for e in peripheral if e['event'] in ('pmd_write', 'disconnected', 'finished')]
    after_finish = final[next((i for i, e in enumerate(final) if e['event'] == 'finished'), len(final)):]
    written = [e['hex'] for e in after_finish if e['event'] == 'pmd_write']
    left = next((e for e in after_finish if e['event'] == 'disconnected'), None)
    if left is None or left['streams']:
        failures.append('the peripheral was left streaming %s' % (left['streams'] if left else '(it never saw hrvmon leave)'))
    elif not all(hexed(bytes([3, kind])) in written for kind in kinds):
        failures.append('the peripheral saw no stop request before hrvmon left (writes after the end: %s)' % written)
    return failures


def check_peripheral_side(peripheral):
    """What the strap saw: indications and data notifications on at every write."""
    failures = []
    for e in peripheral:
        if e['event'] == 'pmd_write' and not (e['indications'] and e['data_notifying']):
            failures.append('%s written with indications %s and data notifications %s' % (
                e['hex'], 'on' if e['indications'] else 'off', 'on' if e['data_notifying'] else 'off'))
    return failures


def check_motion(messages, data_path, peripheral, monitor):
    """Every accelerometer sample bluetoothd passed on makes hrvmon's motion seconds (one line per
    50), and a line whose second lies wholly in a still or walking spell says what that spell's
    frames imply: level, posture, intensity (the range over all 1-s windows) and cadence."""
    failures = []
    frames = [m.value for m in messages if m.path == data_path and m.value is not None]
    samples = sum((len(f) - 10) // 6 for f in frames if f[0] == ACC)
    lines = [line for line in monitor if line.get('type') == 'motion']
    if len(lines) != samples // RATE:
        failures.append('%d accelerometer samples on the bus make %d seconds of motion; hrvmon printed %d motion lines'
                        % (samples, samples // RATE, len(lines)))
    # The peripheral's spells: (start, end, motion), and the moments a stream (re)started or the link went.
    spells, since, motion = [], None, None
    breaks = []
    for e in peripheral:
        if e['event'] == 'motion' or (e['event'] == 'notify' and since is None):
            if since is not None:
                spells.append((since, e['t'], motion))
            since, motion = e['t'], e.get('motion', 'still')
        elif e['event'] == 'pmd_write' and e['hex'].startswith('02 02') or e['event'] in ('disconnected', 'strap_stop'):
            breaks.append(e['t'])
    if since is not None:
        spells.append((since, math.inf, motion))
    ranges = {m: intensity_range(m) for m in ('still', 'walking')}
    checked = {'still': 0, 'walking': 0}
    for line in lines:
        # A walking second needs 4 s of walking behind it (the cadence's history), and frames
        # arrive up to ~1.5 s after their samples: margins on the safe side.
        reach = 6.0 if any(s[2] == 'walking' and s[0] <= line['t'] <= s[1] for s in spells) else 4.0
        spell = next((s for s in spells if s[0] <= line['t'] - reach and line['t'] <= s[1]), None)
        if spell is None or any(line['t'] - reach <= b <= line['t'] for b in breaks):
            continue
        kind = spell[2]
        low, high = ranges[kind]
        wrong = []
        if line.get('level') != kind:
            wrong.append('level %s' % line.get('level'))
        if line.get('posture') != 'upright':
            wrong.append('posture %s' % line.get('posture'))
        if not low - 1 <= line.get('mg', -1) <= high + 1:
            wrong.append('%s mG (%.1f-%.1f implied)' % (line.get('mg'), low, high))
        if kind == 'walking' and not WALKING_SPM[0] <= line.get('spm', 0) <= WALKING_SPM[1]:
            wrong.append('%s steps/min' % line.get('spm'))
        if wrong:
            failures.append('motion at %.2f while the strap felt %s: %s' % (line['t'], kind, ', '.join(wrong)))
        checked[kind] += 1
    for kind in ('still', 'walking'):
        if not checked[kind]:
            failures.append('no motion line wholly inside a %s spell to check' % kind)
    report = ['accelerometer: %d frames (%d samples) and %d ECG frames on the bus → %d motion lines; checked against the frames: '
              '%d still (%.1f-%.1f mG), %d walking (%.1f-%.1f mG, %d-%d steps/min)'
              % (sum(1 for f in frames if f[0] == ACC), samples, sum(1 for f in frames if f[0] == ECG), len(lines),
                 checked['still'], *ranges['still'], checked['walking'], *ranges['walking'], *WALKING_SPM)]
    return failures, report
