import HRV
import HeartRateProtocol
import LivePipeline
import SelfReport

/// Accumulates a session file line by line (`SessionFileReader`): each line's fields, however
/// they were read, become the file's beats, steps and events. A line that throws leaves the
/// builder as it was: every field is read before anything is added.
struct SessionFileBuilder {
    typealias LineError = SessionFileReader.LineError

    var file: SessionFile?
    /// The packet whose beats are being collected (a packet's rr lines are consecutive,
    /// with the pipeline's nn and metrics lines between them).
    var packet: (number: Int, measurement: HeartRateMeasurement, time: Double)?
    /// The motion seconds, each with the number of other steps before it: a `motion_seconds` line
    /// comes after steps that came after its seconds, so they join the steps at the end (`finish`).
    private var motionSteps: [(stepsBefore: Int, motion: SessionFile.Motion)] = []
    /// false when the steps are not read (`SessionFileReader.Detail`): motion seconds are then
    /// kept without a place.
    private let placesMotion: Bool

    init(placesMotion: Bool = true) {
        self.placesMotion = placesMotion
    }

    /// The first line, which must be a session header.
    mutating func addHeader(_ fields: JSONFields) throws(LineError) {
        guard (try? fields.string("type")) == "session", (try? fields.string("format")) == SessionFileReader.formatName else {
            throw LineError(reason: "not an hrvmon session file (its first line is not a session header)",
                            hint: "pass a session file: `hrvmon sessions` lists them")
        }
        file = SessionFile(header: try header(fields))
    }

    /// A line after the header.
    mutating func add<Fields: LineFields>(_ fields: Fields) throws(LineError) {
        let type = try fields.string("type")
        switch type {
        case "rr": try addBeat(fields)
        case "packet": try addPacket(fields)
        case "nn":
            file!.placed.append(SessionFile.PlacedBeat(
                seconds: try fields.double("s"), milliseconds: try fields.double("nn_ms"), kind: try fields.string("class"),
                followsGap: try fields.optionalDouble("after_gap") == 1))
        case "metrics":
            file!.metrics.append(SessionFile.Metrics(
                time: try fields.double("t"), sessionSeconds: try fields.double("session_s"),
                heartRate: try fields.optionalDouble("hr_bpm"), rmssd: try fields.optionalDouble("rmssd_ms"),
                lnRMSSD: try fields.optionalDouble("ln_rmssd"), sdnn: try fields.optionalDouble("sdnn_ms"),
                state: try fields.string("state"), level: try fields.optionalDouble("level"),
                calibrating: try fields.bool("calibrating"), breathingSource: try fields.optionalString("breathing_source")))
        case "error":
            let step = SessionFile.Step.malformed(try hexBytes(try fields.string("bytes")), time: try fields.double("t"))
            flushPacket()
            file!.steps.append(step)
        case "gap":
            let step = SessionFile.Step.gap(time: try fields.double("t"))
            flushPacket()
            file!.steps.append(step)
        case "desk":
            let name = try fields.string("state")
            guard let presence = DeskPresence(rawValue: name) else {
                throw LineError(reason: "state must be \(DeskPresence.allCases.map(\.rawValue).joined(separator: ", ")), not '\(name)'")
            }
            let step = SessionFile.Step.desk(DeskChange(presence, source: try fields.string("source")), time: try fields.double("t"))
            flushPacket()
            file!.steps.append(step)
        case "exercise":
            guard let kind = ExerciseMark.Kind(rawValue: try fields.string("event")) else {
                throw LineError(reason: "exercise event must be started or stopped")
            }
            let mark = ExerciseMark(
                kind: kind, pattern: try fields.string("pattern"), time: try fields.double("t"),
                sessionSeconds: try fields.double("session_s"))
            flushPacket()
            file!.steps.append(.exercise(mark))
            file!.exercises.append(mark)
        case "stress", "activity":
            let reason = try fields.object("reason").map { why throws(LineError) in
                StressReason(
                    rmssdChange: try why.double("rmssd_change_pct") / 100, rmssd: try why.double("rmssd_ms"),
                    referenceRMSSD: try why.double("reference_rmssd_ms"), heartRateAboveRest: try why.double("hr_above_rest_bpm"),
                    breathingRate: try why.optionalDouble("breathing_per_min"))
            }
            file!.episodes.append(StressEpisode(
                kind: type == "stress" ? .stress : .activity, start: try fields.double("start_s"),
                end: try fields.double("end_s"), peakLevel: try fields.optionalDouble("peak_level"), reason: reason))
        case "suggestion":
            file!.suggestions.append(SessionFile.Suggestion(
                time: try fields.exactDouble("t"), sessionSeconds: try fields.double("session_s"),
                reason: try fields.string("reason"), pattern: try fields.string("pattern")))
        case "note":
            // Rare lines whose times a study sends on exactly: read to the last bit.
            file!.notes.append(SessionFile.Note(time: try fields.exactDouble("t"), text: try fields.string("text")))
        case "checkin":
            file!.checkIns.append(SessionFile.TimedCheckIn(time: try fields.exactDouble("t"), checkIn: try fields.checkIn()))
        case "label":
            file!.labels.append(try fields.episodeLabel())
        case "link":
            file!.links.append(SessionFile.LinkChange(
                time: try fields.exactDouble("t"), state: try fields.string("state"), detail: try fields.string("detail")))
        case "sensor":
            if let address = try? fields.string("address") {
                file!.header.deviceAddress = file!.header.deviceAddress ?? address
                file!.header.deviceName = file!.header.deviceName ?? (try? fields.string("name"))
            }
        case "summary":
            file!.summary = SessionFile.Summary(
                time: try fields.exactDouble("t"), seconds: try fields.double("duration_s"), beats: try fields.int("beats"),
                heartRate: try fields.optionalDouble("hr_bpm"), rmssd: try fields.optionalDouble("rmssd_ms"),
                sdnn: try fields.optionalDouble("sdnn_ms"), stressSeconds: try fields.double("stress_s"),
                exercises: try fields.int("exercises"), baseline: try baseline(fields.object("baseline")))
        case "effect":
            // Derived numbers, recomputed by a replay: a damaged one is left out, not fatal.
            if let effect = try? effect(fields) { file!.effects.append(effect) }
        case "resonance_step":
            file!.resonanceSteps.append(ResonanceStepMark(
                index: try fields.int("step"), rate: try fields.optionalDouble("bpm"), stepSeconds: try fields.double("step_s"),
                settleSeconds: try fields.double("settle_s"), inhaleShare: try fields.double("inhale_share"),
                time: try fields.double("t"), sessionSeconds: try fields.double("session_s")))
        case "motion":
            let levelName = try fields.string("level")
            guard let level = MotionSecond.Level(rawValue: levelName) else {
                throw LineError(reason: "level must be \(MotionSecond.Level.allCases.map(\.rawValue).joined(separator: ", ")), not '\(levelName)'")
            }
            let postureName = try fields.optionalString("posture")
            let posture = try postureName.map { name throws(LineError) in
                guard let posture = MotionSecond.Posture(rawValue: name) else { throw LineError(reason: "posture must be upright or lying, not '\(name)'") }
                return posture
            }
            let motion = SessionFile.Motion(
                time: try fields.double("t"),
                second: MotionSecond(
                    level: level, intensity: try fields.double("mg"), cadence: try fields.optionalDouble("spm"), posture: posture,
                    breathing: try fields.optionalDouble("breath_per_min").map { rate throws(LineError) in
                        try MotionSecondsLine.breathing(
                            rate: rate, phase: try fields.string("breath_phase"), began: try fields.double("breath_began_s"),
                            quality: try fields.double("breath_quality"))
                    }))
            try addMotion([(motion, stepsSince: 0)])
        case MotionSecondsLine.type:
            try addMotion(try MotionSecondsLine.seconds(fields))
        case ECGLine.type:
            file!.ecg.append(try ECGLine.samples(fields))
        case "notice", "session":
            break
        default:
            file!.unknownLines += 1
        }
    }

    private mutating func addBeat<Fields: LineFields>(_ fields: Fields) throws(LineError) {
        let ticks = try fields.int("rr_1024")
        let heartRateValue = try fields.int("hr_bpm")
        try Self.checkTicks(ticks)
        let heartRate = try Self.heartRate(heartRateValue)
        let contactName = try fields.string("contact")
        let contact = try Self.contact(contactName)
        let energy = try Self.energy(fields)
        let number = try fields.int("pkt")
        let time = try fields.double("t")
        let received = try fields.exactDouble("recv")  // the packet's arrival, as a `packet` line's `t`
        let sequence = try fields.int("seq")
        if packet?.number != number {
            flushPacket()
            packet = (number, HeartRateMeasurement(heartRate: heartRate, sensorContact: contact, energyExpended: energy), received)
        }
        packet!.measurement.rrIntervals.append(UInt16(ticks))
        file!.beats.append(SessionFile.RawBeat(time: time, sequence: sequence, ticks: UInt16(ticks), heartRate: heartRate, contact: contactName))
    }

    /// A version 2 `packet` line: the notification, and its beats as version 1 wrote them in `rr`
    /// lines (the times back-dated as the pipeline dates them, numbered from the file's start).
    private mutating func addPacket<Fields: LineFields>(_ fields: Fields) throws(LineError) {
        let intervals = try fields.integers("rr_1024")
        guard !intervals.isEmpty else { throw LineError(reason: "rr_1024 is empty: a packet line has its beats") }
        for ticks in intervals { try Self.checkTicks(ticks) }
        let heartRate = try Self.heartRate(try fields.int("hr_bpm"))
        let contactName = try fields.optionalString("contact") ?? "detected"
        let contact = try Self.contact(contactName)
        let energy = try Self.energy(fields)
        // To the last bit, as the live pipeline had it (and JSONSerialization's reading may not
        // give it): a motion second is placed by its distance from the newest packet's arrival.
        let time = try fields.exactDouble("t")
        flushPacket()
        let ticks = intervals.map { UInt16($0) }
        var measurement = HeartRateMeasurement(heartRate: heartRate, sensorContact: contact, energyExpended: energy)
        measurement.rrIntervals = ticks
        file!.steps.append(.packet(measurement, time: time))
        for (interval, beatTime) in zip(ticks, ReceivedBeat.times(of: ticks, arrivedAt: time)) {
            file!.beats.append(SessionFile.RawBeat(
                time: beatTime, sequence: file!.beats.count + 1, ticks: interval, heartRate: heartRate, contact: contactName))
        }
    }


    private static func checkTicks(_ ticks: Int) throws(LineError) {
        guard (1...Int(UInt16.max)).contains(ticks) else { throw LineError(reason: "rr_1024 \(ticks) is not a strap interval (1–65535)") }
    }

    private static func heartRate(_ heartRate: Int) throws(LineError) -> UInt16 {
        guard let value = UInt16(exactly: heartRate) else { throw LineError(reason: "hr_bpm \(heartRate) is out of range") }
        return value
    }

    private static func contact(_ name: String) throws(LineError) -> HeartRateMeasurement.SensorContact {
        guard let contact = HeartRateMeasurement.SensorContact(name: name) else {
            throw LineError(reason: "contact must be detected, not_detected or unsupported, not '\(name)'")
        }
        return contact
    }

    private static func energy<Fields: LineFields>(_ fields: Fields) throws(LineError) -> UInt16? {
        try fields.optionalInt("energy_kj").map { value throws(LineError) -> UInt16 in
            guard let energy = UInt16(exactly: value) else { throw LineError(reason: "energy_kj \(value) is out of range") }
            return energy
        }
    }

    mutating func flushPacket() {
        guard let packet else { return }
        file!.steps.append(.packet(packet.measurement, time: packet.time))
        self.packet = nil
    }

    /// Motion seconds read from a line, each placed `stepsSince` steps before it (the packet being
    /// collected is one of them: it ends here).
    private mutating func addMotion(_ seconds: [(SessionFile.Motion, stepsSince: Int)]) throws(LineError) {
        guard placesMotion else { return file!.motion += seconds.map(\.0) }
        let steps = file!.steps.count + (packet == nil ? 0 : 1)
        var placed: [(stepsBefore: Int, motion: SessionFile.Motion)] = []
        var earliest = motionSteps.last?.stepsBefore ?? 0
        for (motion, stepsSince) in seconds {
            guard (0...steps - earliest).contains(stepsSince) else {
                throw LineError(reason: "steps_since \(stepsSince) places a second before the one before it, or before the file's first line")
            }
            earliest = steps - stepsSince
            placed.append((earliest, motion))
        }
        flushPacket()
        motionSteps += placed
        file!.motion += placed.map(\.motion)
    }

    /// The file once every line has been added: the motion seconds among its other steps.
    mutating func finish() -> SessionFile? {
        flushPacket()
        guard var file, !motionSteps.isEmpty else { return file }
        var steps: [SessionFile.Step] = []
        steps.reserveCapacity(file.steps.count + motionSteps.count)
        var next = motionSteps.startIndex
        for (index, step) in file.steps.enumerated() {
            while next < motionSteps.endIndex, motionSteps[next].stepsBefore == index {
                steps.append(.motion(motionSteps[next].motion))
                next += 1
            }
            steps.append(step)
        }
        steps += motionSteps[next...].map { .motion($0.motion) }
        file.steps = steps
        return file
    }

    private func header(_ fields: JSONFields) throws(LineError) -> SessionFile.Header {
        let version = try fields.int("version")
        guard version <= SessionFileReader.newestVersion else {
            throw LineError(reason: "session format version \(version) is newer than this hrvmon reads (\(SessionFileReader.newestVersion))",
                            hint: "update hrvmon")
        }
        let device = try fields.object("device")
        var configuration = ""
        if let config = try fields.object("config") {
            for key in config.keys.sorted() {
                if case .array(let values)? = config.raw(key) {
                    for value in values { configuration += "\(key) = \(value.description)\n" }
                } else {
                    guard case .string(let value)? = config.raw(key) else { throw LineError(reason: "\"\(key)\" must be text") }
                    configuration += "\(key) = \(value)\n"
                }
            }
        }
        return SessionFile.Header(
            version: version, id: try fields.string("id"), start: try fields.double("t"), startLocal: try fields.string("start_local"),
            source: try fields.string("source"), program: try fields.string("program"),
            deviceName: try device?.optionalString("name"), deviceAddress: try device?.optionalString("address"),
            baseline: try baseline(fields.object("baseline")), configuration: configuration)
    }

    private func effect<Fields: LineFields>(_ fields: Fields) throws(LineError) -> SessionFile.Effect {
        func span(_ key: StaticString) throws(LineError) -> SessionFile.Effect.Span {
            let values = try fields.object(key)
            return SessionFile.Effect.Span(rmssd: try values?.optionalDouble("rmssd_ms"), heartRate: try values?.optionalDouble("hr_bpm"))
        }
        return SessionFile.Effect(
            start: try fields.double("start_s"), before: try span("before"), during: try span("during"), after: try span("after"),
            coherence: try fields.object("coherence")?.optionalDouble("mean"))
    }

    private func baseline<Fields: LineFields>(_ fields: Fields?) throws(LineError) -> Baseline? {
        guard let fields else { return nil }
        guard let source = Baseline.Source(rawValue: try fields.string("source")) else {
            throw LineError(reason: "baseline source must be session or personal")
        }
        return Baseline(
            source: source, restingHR: try fields.double("resting_hr_bpm"), lnRMSSDMean: try fields.double("ln_rmssd_mean"),
            lnRMSSDSD: try fields.double("ln_rmssd_sd"), samples: try fields.int("samples"))
    }

    private func hexBytes(_ text: String) throws(LineError) -> [UInt8] {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { throw LineError(reason: "bytes must be pairs of hex digits") }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                throw LineError(reason: "bytes must be pairs of hex digits")
            }
            bytes.append(byte)
        }
        return bytes
    }
}
