# The Polar H10's Measurement Data service (PMD) for the fake bluetoothd: the control point's
# replies as indications, the MTU rule, the strap's own stop, frames at the real rates and an
# optional start delay.  Every byte follows shared/POLAR-PMD.md (the old PMD specification's H10
# exchanges and polar-ble-sdk's tests); README.md next to this file says what is modelled.

import math
import time

from gi.repository import GLib

PMD_SERVICE = 'fb005c80-02e7-f387-1cad-8acd2d8df0c8'
PMD_CONTROL_POINT = 'fb005c81-02e7-f387-1cad-8acd2d8df0c8'
PMD_DATA = 'fb005c82-02e7-f387-1cad-8acd2d8df0c8'

ECG, ACC = 0, 2
# Reading the control point: 0F, then the types offered as a bitmask, ECG and ACC (polar-ble-sdk #281).
FEATURES = bytes([0x0F, 0x05, 0x00])
NAMES = {ECG: 'ecg', ACC: 'acc'}
# Old spec: the H10's get-settings replies' parameters.
SETTINGS = {
    ECG: bytes.fromhex('00 01 82 00 01 01 0E 00'),
    ACC: bytes.fromhex('00 04 19 00 32 00 64 00 C8 00 01 01 10 00 02 03 02 00 04 00 08 00'),
}
OFFERED = {ECG: {'rates': [130], 'resolutions': [14], 'ranges': []},
           ACC: {'rates': [25, 50, 100, 200], 'resolutions': [16], 'ranges': [2, 4, 8]}}
MINIMUM_MTU = 232
# Unless set through Polar's file service the H10's clock restarts at 2019-01-01 at power-up.
POWER_UP_NS = 599616000000000000
SUCCESS, INVALID_OP, INVALID_TYPE, INVALID_PARAMETER = 0, 1, 2, 5
ALREADY_IN_STATE, INVALID_RESOLUTION, INVALID_RATE, INVALID_RANGE, INVALID_MTU = 6, 7, 8, 9, 10
# Samples kept per stream for `pmd ADDRESS sent` (about 2.5 minutes of ECG).
SENT_KEPT = 20000


class PmdStrap:
    def __init__(self, device, start_delay_ms, log, start_reply_delay_ms=0, failed_feature_reads=0):
        self.device = device
        # How many feature reads (of the control point) still fail before one is answered.
        self.failed_feature_reads = failed_feature_reads
        self.feature_reads = 0
        self.start_delay_ms = start_delay_ms
        self.start_reply_delay_ms = start_reply_delay_ms
        self.log = log
        self.powered_at = time.monotonic()
        self.streams = {}           # type -> {'rate', 'timer', 'delay', 'sent', 'last_ns'}
        self.motion = 'still'
        # What the client wrote, for the tests: hex, and whether indications were on then.
        self.writes = []
        self.starts = 0
        self.stops = 0
        # Every sample delivered, per stream, for the tests: [monotonic time taken, values...].
        self.sent = {ECG: [], ACC: []}

    def chrc(self, uuid):
        return self.device.chrc(uuid)

    def clock_ns(self):
        return POWER_UP_NS + int((time.monotonic() - self.powered_at) * 1e9)

    def indications_on(self):
        c = self.chrc(PMD_CONTROL_POINT)
        return c is not None and any(s['registered'] for s in c.sessions.values())

    # ---- control point
    def fail_feature_read(self):
        self.feature_reads += 1
        if self.failed_feature_reads <= 0:
            return False
        self.failed_feature_reads -= 1
        return True

    def write(self, value):
        data = bytes(value)
        on = self.indications_on()
        self.writes.append({'hex': data.hex(' ').upper(), 'indications': on})
        reply = self.answer(data)
        if not on:
            # The strap indicates only when its CCC is on: the reply is lost.
            self.log('PMD: %s written with indications off; reply %s lost' % (data.hex(), reply.hex()))
            return
        late = self.start_reply_delay_ms if data[:1] == b'\x02' else 0
        GLib.timeout_add(self.device.fake.att_delay_ms + late, self._indicate, reply)

    def _indicate(self, reply):
        c = self.chrc(PMD_CONTROL_POINT)
        if c is not None and self.device.connected:
            c.deliver(reply)
        return False

    def answer(self, data):
        if len(data) < 2:
            return bytes([0xF0, data[0] if data else 0, 0, INVALID_PARAMETER, 0])
        op, kind = data[0], data[1]
        head = bytes([0xF0, op, kind])
        if op not in (1, 2, 3):
            return head + bytes([INVALID_OP, 0])
        if kind not in SETTINGS:
            return head + bytes([INVALID_TYPE, 0])
        if op == 1:
            return head + bytes([SUCCESS, 0]) + SETTINGS[kind]
        if op == 3:
            if kind not in self.streams:
                return head + bytes([ALREADY_IN_STATE, 0])
            self.stop_stream(kind)
            self.stops += 1
            return head + bytes([SUCCESS, 0])
        if self.device.mtu < MINIMUM_MTU:
            return head + bytes([INVALID_MTU, 0])
        if kind in self.streams:
            return head + bytes([ALREADY_IN_STATE, 0, 1])
        settings = parse_settings(data[2:])
        if settings is None:
            return head + bytes([INVALID_PARAMETER, 0])
        offered = OFFERED[kind]
        rate = settings.get(0)
        if rate not in offered['rates']:
            return head + bytes([INVALID_RATE, 0])
        if settings.get(1) not in offered['resolutions']:
            return head + bytes([INVALID_RESOLUTION, 0])
        if offered['ranges'] and settings.get(2) not in offered['ranges']:
            return head + bytes([INVALID_RANGE, 0])
        self.start_stream(kind, rate)
        self.starts += 1
        return head + bytes([SUCCESS, 0, 1])

    # ---- streams
    def per_frame(self, kind):
        # A notification carries mtu - 3 bytes; the frame header is 10.
        return (self.device.mtu - 3 - 10) // (6 if kind == ACC else 3)

    def start_stream(self, kind, rate):
        s = {'rate': rate, 'timer': 0, 'sent': 0, 'frames': 0}
        self.streams[kind] = s
        s['timer'] = GLib.timeout_add(self.start_delay_ms, self._begin, kind, s)

    def _begin(self, kind, s):
        if self.streams.get(kind) is not s:
            return False
        s['started'] = time.monotonic()
        s['timer'] = GLib.timeout_add(max(1, int(1000 * self.per_frame(kind) / s['rate'])), self._frame, kind, s)
        return False

    def _frame(self, kind, s):
        if self.streams.get(kind) is not s or not self.device.connected:
            return False
        n = self.per_frame(kind)
        rate = s['rate']
        # Samples due by now, at the real rate (timers drift; the count does not).
        due = int((time.monotonic() - s['started']) * rate)
        while s['sent'] + n <= due:
            first = s['sent']
            samples = [self.sample(kind, (first + i) / rate) for i in range(n)]
            s['sent'] += n
            stamp = POWER_UP_NS + int((s['started'] - self.powered_at + s['sent'] / rate) * 1e9)
            frame = bytes([kind]) + stamp.to_bytes(8, 'little') + bytes([1 if kind == ACC else 0])
            for sample in samples:
                frame += b''.join(int(v).to_bytes(2 if kind == ACC else 3, 'little', signed=True) for v in sample)
            c = self.chrc(PMD_DATA)
            if c is not None:
                c.deliver(frame)
                if len(self.sent[kind]) < SENT_KEPT:
                    self.sent[kind] += [[s['started'] + (first + i + 1) / rate] + list(v) for i, v in enumerate(samples)]
            s['frames'] += 1
        return True

    def sample(self, kind, t):
        if kind == ECG:
            # A QRS-like spike once a second over a small baseline wander (µV).
            phase = t % 1.0
            return (int(1200 * math.exp(-((phase - 0.3) / 0.012) ** 2) + 40 * math.sin(2 * math.pi * 0.25 * t)),)
        # Upright: gravity along the strap's x axis (in the plane of its face), breathing on z.
        x, y, z = 1000.0, 0.0, 15 * math.sin(2 * math.pi * 0.25 * t)
        if self.motion == 'walking':
            x += 250 * math.sin(2 * math.pi * 1.8 * t)
            y += 60 * math.sin(2 * math.pi * 0.9 * t)
        elif self.motion == 'lying':
            x, z = 15 * math.sin(2 * math.pi * 0.25 * t), 1000.0
        return (round(x), round(y), round(z))

    def stop_stream(self, kind):
        s = self.streams.pop(kind, None)
        if s is not None and s['timer']:
            GLib.source_remove(s['timer'])

    def strap_stop(self, kind):
        """The strap stops a stream by itself and says so: 01 then the types."""
        if kind not in self.streams:
            return False
        self.stop_stream(kind)
        self._indicate(bytes([0x01, kind]))
        return True

    def link_down(self):
        # A stream ends with the link.
        for kind in list(self.streams):
            self.stop_stream(kind)

    def sent_samples(self):
        return {NAMES[k]: v for k, v in self.sent.items()}

    def state(self):
        return {'streams': sorted(NAMES[k] for k in self.streams),
                'frames': {NAMES[k]: s['frames'] for k, s in self.streams.items()},
                'writes': list(self.writes), 'starts': self.starts, 'stops': self.stops,
                'feature_reads': self.feature_reads,
                'indications': self.indications_on()}


def parse_settings(data):
    """[type][count][values], u16 for rate, resolution, range; u8 for channels."""
    out = {}
    i = 0
    while i < len(data):
        if i + 1 >= len(data):
            return None
        kind, count = data[i], data[i + 1]
        size = 1 if kind == 4 else 2
        i += 2
        if i + size * count > len(data) or count != 1:
            return None
        out[kind] = int.from_bytes(data[i:i + size], 'little')
        i += size
    return out
