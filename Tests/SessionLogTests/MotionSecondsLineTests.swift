import HRV
import HeartRateProtocol
import LivePipeline
import SessionLog
import Testing

/// The `motion_seconds` line (docs/reference/session-files.md): the accelerometer's seconds, up
/// to 20 to a line, read back each in its place among the steps the live pipeline was given and at
/// its time to the millisecond, as the pipeline placed it, so a replay gives the detector the
/// seconds the live session gave it.
@Suite struct MotionSecondsLineTests {
    static let header = MotionLineTests.header.replacing(#""version":1"#, with: #""version":2"#)

    /// A session's events through `SessionFileLines` as the recorder writes them, each step the
    /// pipeline is given described in `given`.
    struct Recording {
        var lines = SessionFileLines()
        var text = MotionSecondsLineTests.header + "\n"
        var given: [String] = []
        var pipeline = SessionPipeline(pipeline: .init(), judge: BeatJudge(detector: StressDetector()))

        mutating func event(_ event: SessionEvent, at time: Double) {
            var line = SessionLine(event, at: time)
            text += lines.line(for: event, at: time, line: &line) ?? ""
        }

        mutating func packet(_ ticks: UInt16, at time: Double) {
            var measurement = HeartRateMeasurement(heartRate: 60, sensorContact: .detected, energyExpended: nil)
            measurement.rrIntervals = [ticks]
            text += lines.packet(measurement, at: time)
            given.append("packet \(time) \(ticks)")
            var events: [LiveEvent] = []
            pipeline.receive(measurement, at: time) { events.append($0) }
            for live in events { event(.live(live), at: time) }
        }

        mutating func motion(_ second: MotionSecond, at time: Double) {
            pipeline.receive(second, at: time)
            event(.motion(second), at: time)
            given.append("motion \(MotionTime(time).seconds) \(second)")
        }

        mutating func desk(_ change: DeskChange, at time: Double) {
            pipeline.receive(desk: change.presence)
            event(.desk(change), at: time)
            given.append("desk \(change.presence)")
        }

        mutating func step(_ describe: String, at time: Double, _ give: (inout SessionPipeline, (LiveEvent) -> Void) -> Void) {
            var events: [LiveEvent] = []
            give(&pipeline) { events.append($0) }
            for live in events { event(.live(live), at: time) }
            given.append(describe)
        }

        func read() throws -> SessionFile {
            try SessionFileReader.read(Array(text.utf8), source: "test")
        }

        var motionLines: [String] { text.split(separator: "\n").map(String.init).filter { $0.contains(#""type":"motion_seconds""#) } }
    }

    static func describe(_ step: SessionFile.Step) -> String {
        switch step {
        case .packet(let measurement, let time): "packet \(time) \(measurement.rrIntervals[0])"
        case .motion(let motion): "motion \(motion.time) \(motion.second)"
        case .malformed: "malformed"
        case .gap: "gap"
        case .exercise(let mark): "exercise \(mark.kind)"
        case .desk(let change, _): "desk \(change.presence)"
        }
    }

    static let still = MotionSecond(level: .still, intensity: 6.3, posture: .upright)
    static let walking = MotionSecond(level: .walking, intensity: 182.4, cadence: 108, posture: .upright)
    static let moving = MotionSecond(level: .moving, intensity: 61, posture: nil)
    static let lying = MotionSecond(level: .still, intensity: 3, posture: .lying)

    /// Seconds before the first beat, between packets, two from one frame, around a gap, a
    /// malformed notification, an exercise and a change at the desk, and a stream that stops: all read back in the
    /// order they came, whichever line holds them.
    @Test func everySecondReadsBackInItsPlaceAndTime() throws {
        var recording = Recording()
        let start = 1_795_282_731.2345679
        recording.motion(Self.still, at: start - 0.4)
        for second in 0..<90 {
            let time = start + Double(second)
            recording.packet(UInt16(1000 + second % 7), at: time)
            switch second {
            case 10: recording.step("gap", at: time) { $0.breakContinuity(at: time, emit: $1) }
            case 15: recording.step("malformed", at: time) { $0.receive([0x10], at: time, emit: $1) }
            case 20: recording.step("exercise started", at: time) { $0.startExercise("6/min", at: time, emit: $1) }
            case 40: recording.step("exercise stopped", at: time) { $0.stopExercise(at: time, emit: $1) }
            case 30: recording.desk(DeskChange(.atDesk, source: "mutter"), at: time)
            default: break
            }
            // The stream stops at 50 s; two seconds come in one frame at 25 s.
            guard second < 50 else { continue }
            let motion = [Self.still, Self.walking, Self.moving, Self.lying][second / 13]
            recording.motion(motion, at: time + 0.3337 + Double(second % 5) * 0.0991)
            if second == 25 { recording.motion(motion, at: time + 0.3337) }
        }
        let written = recording.text
        recording.text += recording.lines.finish()
        #expect(recording.text == written, "the seconds of a stream that stopped are written with the next line 20 s on, not at the end")
        let file = try recording.read()
        #expect(file.steps.map(Self.describe) == recording.given)
        #expect(file.motion.count == 52)
        #expect(recording.motionLines.count == 3, "two lines of 20 seconds, then the 12 of a stream that stopped")
    }

    /// Seconds with the chest's breathing among seconds without: each reads back with its
    /// rate, phase, onset and quality exactly, as the live detector judged with them.
    @Test func chestBreathingReadsBackExactly() throws {
        var recording = Recording()
        let breathing = [
            ChestBreathing(rate: 13.2, phase: .inhaling, breathBegan: 1.4, quality: 0.93),
            ChestBreathing(rate: 6.1, phase: .exhaling, breathBegan: 7.3, quality: 0.5),
        ]
        var seconds: [MotionSecond] = []
        for second in 0..<25 {
            recording.packet(1024, at: 100 + Double(second))
            var motion = second % 4 == 3 ? Self.walking : Self.still
            if motion.level == .still, second % 3 != 0 { motion.breathing = breathing[second % 2] }
            seconds.append(motion)
            recording.motion(motion, at: 100.5 + Double(second))
        }
        recording.text += recording.lines.finish()
        let file = try recording.read()
        #expect(file.motion.map(\.second) == seconds)
        #expect(recording.motionLines[0].contains(#""breath_phase":"-ei-ie--i-i--ei-ie--""#), "\(recording.motionLines[0])")
        #expect(!recording.motionLines.contains { $0.contains("13.200") }, "a tenth as a tenth")
        let perSecond = try MotionLineTests.read([
            #"{"type":"packet","t":100,"hr_bpm":60,"rr_1024":[1000]}"#,
            #"{"type":"motion","t":100.5,"level":"still","mg":6.3,"posture":"upright","breath_per_min":13.2,"breath_phase":"inhaling","breath_began_s":1.4,"breath_quality":0.93}"#,
        ])
        #expect(perSecond.motion.first?.second.breathing == breathing[0])
        #expect(throws: (any Error).self) {
            try MotionLineTests.read([
                #"{"type":"packet","t":100,"hr_bpm":60,"rr_1024":[1000]}"#,
                #"{"type":"motion","t":100.5,"level":"still","mg":6.3,"breath_per_min":13.2,"breath_phase":"holding","breath_began_s":1.4,"breath_quality":0.93}"#,
            ])
        }
    }

    /// What is still waiting when the session ends is written before the summary.
    @Test func theLastSecondsComeAtTheEnd() throws {
        var recording = Recording()
        for second in 0..<25 {
            recording.packet(1024, at: 100 + Double(second))
            recording.motion(Self.walking, at: 100.5 + Double(second))
        }
        #expect(recording.motionLines.count == 1)
        recording.text += recording.lines.finish()
        #expect(recording.motionLines.count == 2)
        #expect(try recording.read().steps.map(Self.describe) == recording.given)
        #expect(recording.motionLines[0] == #"{"type":"motion_seconds","t":100.5,"offset_ms":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],"#
            + #""level":"wwwwwwwwwwwwwwwwwwww","mg":[182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4,182.4],"#
            + #""spm":[108,108,108,108,108,108,108,108,108,108,108,108,108,108,108,108,108,108,108,108],"posture":"uuuuuuuuuuuuuuuuuuuu","#
            + #""steps_since":[19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0]}"#)
    }

    /// A file of `motion` lines, a second each (written before `motion_seconds`), reads as it did:
    /// each second where its line is.
    @Test func motionLinesOfOlderFilesKeepTheirPlace() throws {
        let file = try MotionLineTests.read([
            #"{"type":"packet","t":100,"hr_bpm":60,"rr_1024":[1000]}"#,
            #"{"type":"motion","t":100.5,"level":"still","mg":6.3,"posture":"upright"}"#,
            #"{"type":"packet","t":101,"hr_bpm":60,"rr_1024":[1001]}"#,
            #"{"type":"gap","t":101.2}"#,
            #"{"type":"motion","t":101.5,"level":"walking","mg":182.4,"spm":108,"posture":"upright"}"#,
        ])
        #expect(file.steps.map(Self.describe) == [
            "packet 100.0 1000", "motion 100.5 \(Self.still)", "packet 101.0 1001", "gap", "motion 101.5 \(Self.walking)",
        ])
    }

    /// A listing reads no packets, so it has no steps to place seconds among: a session cut short
    /// after a `motion_seconds` line (its last line is always read) still lists, its motion unplaced.
    @Test(arguments: [SessionFileReader.Detail.overview, .metrics])
    func aListingReadsMotionWithoutSteps(detail: SessionFileReader.Detail) throws {
        let lines = [
            Self.header, #"{"type":"packet","t":100,"hr_bpm":60,"rr_1024":[1000]}"#,
            #"{"type":"motion_seconds","t":99.5,"offset_ms":[0],"level":"s","mg":[5],"posture":"u","steps_since":[1]}"#,
        ]
        let file = try SessionFileReader.read(Array(lines.joined(separator: "\n").utf8), source: "test", detail: detail)
        #expect(file.steps.isEmpty && file.motion.count == 1)
        #expect(try SessionFileReader.read(Array(lines.joined(separator: "\n").utf8), source: "test").steps.count == 2)
    }

    @Test(arguments: [
        (#""offset_ms":[0,0],"level":"s","mg":[5],"posture":"u","steps_since":[0]"#, "offset_ms, level, mg, posture and steps_since must hold one entry for each second"),
        (#""offset_ms":[0],"level":"x","mg":[5],"posture":"u","steps_since":[0]"#, "level must be letters s (still), m (moving), w (walking), not 'x'"),
        (#""offset_ms":[0],"level":"s","mg":[5],"posture":"s","steps_since":[0]"#, "posture must be letters u (upright), l (lying), - (not known), not 's'"),
        (#""offset_ms":[0],"level":"w","mg":[5],"posture":"u","steps_since":[0]"#, "spm must hold a number for each walking second"),
        (#""offset_ms":[0],"level":"s","mg":[5],"spm":[100],"posture":"u","steps_since":[0]"#, "spm must hold a number for each walking second, no more"),
        (#""offset_ms":[0],"level":"s","mg":[5],"posture":"u","steps_since":[2]"#, "steps_since 2 places a second before"),
        (#""offset_ms":[0,0],"level":"ss","mg":[5,5],"posture":"uu","steps_since":[0,1]"#, "steps_since 1 places a second before the one before it"),
        (#""offset_ms":[0],"level":"s","mg":["5"],"posture":"u","steps_since":[0]"#, "\"mg\" must be a list of numbers"),
    ])
    func aDamagedLineIsRefusedWithItsReason(fields: String, reason: String) {
        do {
            _ = try MotionLineTests.read([
                #"{"type":"packet","t":100,"hr_bpm":60,"rr_1024":[1000]}"#, #"{"type":"motion_seconds","t":100.5,"# + fields + "}",
            ])
            Issue.record("read: \(fields)")
        } catch {
            #expect("\(error)".contains("test:3: " + reason), "\(error)")
        }
    }
}
