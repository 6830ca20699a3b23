import HRV
import HeartRateProtocol
import LivePipeline
import SessionLog
import Settings

/// A session file written as `monitor` writes one, by the live pipeline and `SessionRecords`:
/// a strap notifying once a second with the beats completed since, a missed beat, an extra beat
/// and a premature beat for the corrector, a link loss of 20 s (the beats in it are lost), a
/// breathing exercise and a note. The UTC offset is +01:00, so local time is not UTC.
struct RecordedSession {
    static let start = 1_800_000_000.25
    static let note = "felt\ttense <b>"

    var text = ""
    /// Every interval the strap measured, including those lost in the gap.
    var measured: [UInt16] = []
    /// The indices in `measured` of the beats that arrived.
    var received: [Int] = []
    /// Index in `received` of the first beat after the link loss.
    var firstAfterGap = 0
    /// The last beat received before the exercise started, and before it stopped (indices in `received`).
    var exerciseBeats = (start: 0, stop: 0)
    var noteTime = 0.0

    init(beats: Int = 700, gapSeconds: Double = 20) {
        var generator = 12_345 as UInt64
        func jitter() -> Int {
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(generator >> 33 % 61) - 30
        }
        for index in 0..<beats {
            switch index {
            case 120: measured.append(UInt16(2 * 880 + jitter()))  // a missed beat: two intervals in one
            case 220: measured += [300, UInt16(580 + jitter())]  // an extra beat: one interval in two
            case 300: measured += [560, 1_200]  // a premature beat and its pause
            default: measured.append(UInt16(880 + jitter() + (index / 40 % 2 == 0 ? 25 : -25)))
            }
        }
        var header = SessionHeader(
            id: "20270115-093000", start: Self.start, startLocal: "2027-01-15T09:00:00+01:00", source: "live",
            deviceName: "Polar H10 A1B2C3D4", deviceAddress: "A0:9E:1A:12:34:56", baseline: nil, settings: Settings(),
            program: "hrvmon test")
        header.settings.stress.calibration = 60
        var lines = [SessionRecords.header(header).serialized]
        var pipeline = SessionPipeline(pipeline: header.settings.pipeline, judge: try! BeatJudge(settings: header.settings, baseline: nil))
        var clock = Self.start + 2
        var due = clock
        var pending: [UInt16] = []
        func emit(_ event: LiveEvent) {
            if let line = SessionRecords.object(for: .live(event), at: clock) { lines.append(line.serialized) }
        }
        let gapStart = measured.count / 2
        let lost = gapStart..<gapStart + Int(gapSeconds / 0.88)
        for (index, ticks) in measured.enumerated() {
            due += Double(ticks) / 1024
            if index == lost.lowerBound {
                pipeline.receive(HeartRateMeasurement(heartRate: 68, sensorContact: .detected, rrIntervals: pending), at: clock, emit: emit)
                pending = []
                pipeline.breakContinuity(at: clock + 0.5, emit: emit)
                firstAfterGap = received.count
            }
            if lost.contains(index) { continue }
            if due > clock {
                // The strap notifies once a second with the beats completed since.
                if !pending.isEmpty {
                    pipeline.receive(HeartRateMeasurement(heartRate: 68, sensorContact: .detected, rrIntervals: pending), at: clock, emit: emit)
                }
                pending = []
                clock = due.rounded(.up)
            }
            pending.append(ticks)
            received.append(index)
            if received.count == 450 {
                noteTime = clock - 0.4
                lines.append(SessionRecords.object(for: .note(Self.note), at: noteTime)!.serialized)
            }
            if received.count == 500 {
                pipeline.receive(HeartRateMeasurement(heartRate: 68, sensorContact: .detected, rrIntervals: pending), at: clock, emit: emit)
                pending = []
                exerciseBeats.start = received.count - 1
                pipeline.startExercise("resonance", at: clock, emit: emit)
            }
            if received.count == 560 {
                pipeline.receive(HeartRateMeasurement(heartRate: 68, sensorContact: .detected, rrIntervals: pending), at: clock, emit: emit)
                pending = []
                exerciseBeats.stop = received.count - 1
                pipeline.stopExercise(at: clock, emit: emit)
            }
        }
        pipeline.receive(HeartRateMeasurement(heartRate: 68, sensorContact: .detected, rrIntervals: pending), at: clock, emit: emit)
        pipeline.finish(at: clock + 1, emit: emit)
        text = lines.joined(separator: "\n") + "\n"
    }

    var file: SessionFile { try! SessionFileReader.read(Array(text.utf8), source: "recorded") }
}
