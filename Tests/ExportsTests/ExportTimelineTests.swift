import Exports
import HRV
import SessionLog
import Testing

/// The time axis and the grid, on small sessions whose answers are worked out by hand.
@Suite struct ExportTimelineTests {
    static func session(_ lines: [String]) throws -> SessionFile {
        let header = #"{"type":"session","t":1000.5,"format":"hrvmon-session","version":1,"program":"hrvmon","id":"a","start_local":"1970-01-01T05:46:40-05:30","source":"live","device":{},"baseline":null,"config":{}}"#
        return try SessionFileReader.read(Array(([header] + lines).joined(separator: "\n").utf8) + [0x0A], source: "test")
    }

    static func beat(_ t: Double, _ packet: Int, _ seq: Int, ticks: Int) -> String {
        #"{"type":"rr","t":\#(t),"recv":\#(t),"pkt":\#(packet),"seq":\#(seq),"rr_1024":\#(ticks),"rr_ms":0,"hr_bpm":60,"contact":"detected"}"#
    }

    /// 1024 ticks are a second: beats at 1.25 + 1, 2 (wall clock 1002.25, 1003.25); a gap; a
    /// beat that arrived at 1010.75 with 512 ticks: its interval started at 1010.25, 7 s after
    /// the last beat. Zero is 1001 (the first interval started at 1001.25). The stress episode
    /// runs from 1.5 s of RR (first stretch: 0.25 + 1.5) to 2.25 s of RR (the second stretch
    /// starts at 2 s of RR and at 9.25 on the axis: 9.5).
    @Test func stretchesSitOnTheWallClock() throws {
        let file = try Self.session([
            Self.beat(1002.25, 1, 1, ticks: 1024), Self.beat(1003.25, 2, 2, ticks: 1024), #"{"type":"gap","t":1005}"#,
            Self.beat(1010.75, 3, 3, ticks: 512),
            #"{"type":"nn","s":1,"nn_ms":1000,"class":"normal"}"#, #"{"type":"nn","s":2,"nn_ms":1000,"class":"normal"}"#,
            #"{"type":"nn","s":2.5,"nn_ms":500,"class":"implausible","after_gap":true}"#,
            #"{"type":"note","t":1004,"text":"x"}"#, #"{"type":"stress","t":1011,"start_s":1.5,"end_s":2.25,"peak_level":70.4}"#,
        ])
        let timeline = try ExportTimeline(file)
        #expect(timeline.zero == 1001)
        #expect(timeline.raw.map(\.onset) == [1.25, 2.25, 9.75])
        #expect(timeline.raw.map(\.followsGap) == [false, false, true])
        #expect(timeline.corrected.map(\.onset) == [1.25, 2.25, 9.75])
        #expect(timeline.corrected.map(\.classCode) == [0, 0, 5])
        #expect(timeline.events.map(\.kind) == [.stress, .gap, .note])
        #expect(timeline.events.map(\.onset) == [1.75, 2.25, 3])
        #expect(timeline.events.map(\.duration) == [9.5 - 1.75, 7, 0])
        #expect(timeline.events[0].text == "peak level 70")
        // 1001 s after the epoch is 00:16:41 UTC; at −05:30, 18:46:41 the day before.
        #expect(timeline.localZero.iso == "1969-12-31T18:46:41")
    }

    /// A wall clock that puts a stretch before the end of the previous one is not believed: the
    /// stretch starts where the previous ended, and the gap lasts nothing.
    @Test func aStretchNeverStartsBeforeThePreviousEnds() throws {
        let file = try Self.session([
            Self.beat(1002, 1, 1, ticks: 1024), #"{"type":"gap","t":1002.1}"#, Self.beat(1002.5, 2, 2, ticks: 1024),
        ])
        let timeline = try ExportTimeline(file)
        #expect(timeline.raw.map(\.onset) == [1, 2])
        #expect(timeline.events.map(\.duration) == [0])
    }

    /// A corrected interval longer than the signals' range (a damaged nn_ms) is written as their
    /// maximum, 32,000 units (0x7D00), and its annotation as Swift writes the number.
    @Test func anIntervalBeyondTheScaleIsClipped() throws {
        let file = try Self.session([Self.beat(1002, 1, 1, ticks: 1024), #"{"type":"nn","s":1,"nn_ms":1e300,"class":"implausible"}"#])
        let bytes = EDFPlus.encode(try ExportTimeline(file))
        // Record 0 after the 1024-byte header: RR's four samples, each the 1000 ms interval (8,192
        // units, 0x2000), then NN's four, clipped.
        #expect(Array(bytes[1024..<1032]) == [0x00, 0x20, 0x00, 0x20, 0x00, 0x20, 0x00, 0x20])
        #expect(Array(bytes[1032..<1040]) == [0x00, 0x7D, 0x00, 0x7D, 0x00, 0x7D, 0x00, 0x7D])
        #expect(String(decoding: bytes, as: UTF8.self).contains("NN 1e+300 implausible"))
    }

    @Test func aSessionWithoutBeatsHasNoTimeline() throws {
        let file = try Self.session([#"{"type":"note","t":1004,"text":"x"}"#])
        #expect(throws: ExportTimeline.Refusal.noBeats) { try ExportTimeline(file) }
    }

    /// A clock that jumps a year (a damaged timestamp) is refused rather than sampled; a note a
    /// minute after the last beat lengthens the export to hold it.
    @Test func theAxisHoldsEverythingAndNoMore() throws {
        let jumped = try Self.session([
            Self.beat(1002, 1, 1, ticks: 1024), #"{"type":"gap","t":1003}"#, Self.beat(1002 + 365 * 86_400, 2, 2, ticks: 1024),
        ])
        #expect(throws: ExportTimeline.Refusal.tooLong(seconds: 365 * 86_400 + 1)) { try ExportTimeline(jumped) }
        // The fuzzer's: a beat at 1.795e37 s (no date, nor an Int).
        let farOff = try Self.session([Self.beat(1.795e37, 1, 1, ticks: 1024)])
        #expect(throws: ExportTimeline.Refusal.notADate(1.795e37)) { try ExportTimeline(farOff) }
        let noted = try ExportTimeline(try Self.session([Self.beat(1002, 1, 1, ticks: 1024), #"{"type":"note","t":1062.5,"text":"x"}"#]))
        #expect(noted.end == 61.5 && Tachogram.seconds(noted) == 62)
        // Per record: two signals of 4 two-byte samples, and the annotation signal as wide as its
        // fullest record, the last: "+61␔␔␀" and "+61.5␔note: x␔␀", 21 bytes, padded to 22.
        #expect(EDFPlus.encode(noted).count == 1024 + 62 * (2 * 4 * 2 + 22))
    }

    /// Each sample holds the interval it lies in: (0, 1] is the first, (1, 1.5] the second; the
    /// grid is empty after a gap until the next interval starts.
    @Test func theGridHoldsIntervals() {
        let covering = Tachogram.covering(onsets: [1, 1.5, 4], lengths: [1, 0.5, 1], samples: 20)
        #expect(covering == [0, 0, 0, 0, 1, 1, nil, nil, nil, nil, nil, nil, 2, 2, 2, 2, nil, nil, nil, nil])
    }

    @Test func offsetsOfLocalTimes() {
        #expect(LocalTime.offsetSeconds(of: "2026-11-21T17:45:31+01:00") == 3600)
        #expect(LocalTime.offsetSeconds(of: "2026-11-21T17:45:31-05:30") == -19_800)
        #expect(LocalTime.offsetSeconds(of: "2026-11-21T17:45:31Z") == 0)
        #expect(LocalTime(unix: 1_795_282_731.9, offsetSeconds: 3600).iso == "2026-11-21T18:38:51")
    }
}
