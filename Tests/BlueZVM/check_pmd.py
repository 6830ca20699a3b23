# The Polar Measurement Data part of the end-to-end test's judgement (check.py,
# Tests/BlueZVM/README.md): the control-point exchange hrvmon made through the real bluetoothd, as
# dbus-monitor recorded it (hrvmon's calls, bluetoothd's answers and the indications it passed
# on), held to shared/POLAR-PMD.md's order; the streams started on every connection with beats
# and stopped before hrvmon left; and hrvmon's motion lines held to the samples in the frames
# bluetoothd passed on.

import math
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'TestSupport', 'FakeBlueZ'))
from pmd_strap import ACC, ECG, MINIMUM_MTU, NAMES, PMD_CONTROL_POINT, PMD_DATA  # noqa: E402

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
    motion_failures, motion_report = check_motion(messages, data_path, monitor)
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


def check_motion(messages, data_path, monitor):
    """hrvmon's motion lines held to the accelerometer samples bluetoothd passed on, in its order:
    line k is the second of samples 50k to 50k + 49 (MotionMeter at 50 Hz), so its intensity (the
    RMS around the second's mean, rounded to 0.1 mG) and posture follow from them; a second below
    40 mG is still; one of 80 mG or more after three more such seconds is walking at the strap's
    1.8 steps a second."""
    failures = []
    frames = [m.value for m in messages if m.path == data_path and m.value is not None]
    samples = []
    for frame in frames:
        if frame[0] == ACC and frame[9] == 1:
            body = frame[10:]
            samples += [tuple(int.from_bytes(body[i + 2 * k:i + 2 * k + 2], 'little', signed=True) for k in range(3))
                        for i in range(0, len(body) - 5, 6)]
    lines = [line for line in monitor if line.get('type') == 'motion']
    if len(lines) != len(samples) // RATE:
        failures.append('%d accelerometer samples on the bus make %d seconds of motion; hrvmon printed %d motion lines'
                        % (len(samples), len(samples) // RATE, len(lines)))
    seconds = [second_of(samples[k * RATE:(k + 1) * RATE]) for k in range(len(samples) // RATE)]
    checked = {'still': 0, 'walking': 0}
    for k, (line, (intensity, upright)) in enumerate(zip(lines, seconds)):
        wrong = []
        if abs(line.get('mg', -1) - intensity) > 0.1:
            wrong.append('%s mG (the samples make %.2f)' % (line.get('mg'), intensity))
        if upright is not None and line.get('posture') != ('upright' if upright else 'lying'):
            wrong.append('posture %s' % line.get('posture'))
        kind = 'still' if intensity < 40 else 'walking' if k >= 3 and all(i >= 80 for i, _ in seconds[k - 3:k + 1]) else None
        if kind is not None:
            checked[kind] += 1
            if line.get('level') != kind:
                wrong.append('level %s' % line.get('level'))
            if kind == 'walking' and not WALKING_SPM[0] <= line.get('spm', 0) <= WALKING_SPM[1]:
                wrong.append('%s steps/min' % line.get('spm'))
        if wrong:
            failures.append('motion line %d (t %.2f): %s, expected %s' % (k + 1, line['t'], ', '.join(wrong), kind or 'moving or walking'))
    for kind in ('still', 'walking'):
        if not checked[kind]:
            failures.append('no %s second among the samples to check hrvmon against' % kind)
    report = ['accelerometer: %d frames (%d samples) and %d ECG frames on the bus → %d motion lines (%d expected); '
              'held to the samples: all intensities, %d still seconds, %d walking (%d-%d steps/min)'
              % (sum(1 for f in frames if f[0] == ACC), len(samples), sum(1 for f in frames if f[0] == ECG), len(lines),
                 len(samples) // RATE, checked['still'], checked['walking'], *WALKING_SPM)]
    return failures, report


def second_of(window):
    """MotionMeter's intensity of one second of samples, and whether gravity lies in the strap's
    plane (upright), goes through it (lying) or is undecided (None)."""
    mean = [sum(s[k] for s in window) / len(window) for k in range(3)]
    intensity = math.sqrt(sum(sum((s[k] - mean[k]) ** 2 for k in range(3)) for s in window) / len(window))
    g = math.sqrt(sum(m * m for m in mean))
    through_face = abs(mean[2]) / g if g else 0
    if not 700 < g < 1300 or 0.5 <= through_face <= 0.8:
        return intensity, None
    return intensity, through_face < 0.5
