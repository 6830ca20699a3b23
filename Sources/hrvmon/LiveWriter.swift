import ArgumentParser
import BlueZ
import Glibc
import HRV
import HeartRateProtocol
import Monitor

/// Writes a live session: JSON Lines (the `monitor --format jsonl` contract) or text lines on
/// stdout, and JSON Lines to the session file. Every line is flushed as it is written.
struct LiveWriter {
    let format: MonitorFormat
    private var output = FileStream.standardOutput
    private var log: FileStream?

    init(format: MonitorFormat, log: FileStream?) {
        self.format = format
        self.log = log
    }

    mutating func write(_ event: LiveEvent) {
        switch event {
        case .beat(let beat):
            // A beat has no text line: with text on stdout and no session file, nothing to write.
            guard wantsJSON else { return }
            var object = line("rr", beat.time)
            object.add("rr_1024", Int(beat.ticks))
            object.add("rr_ms", RRTicks.milliseconds(beat.ticks))
            object.add("hr_bpm", Int(beat.heartRate))
            object.add("contact", beat.sensorContact.name)
            if let energy = beat.energyExpended { object.add("energy_kj", Int(energy)) }
            object.add("seq", beat.sequence)
            emit(object, text: nil)
        case .metrics(let report):
            let metrics = report.rmssdWindow.metrics
            var object = line("metrics", report.time)
            object.add("session_s", report.sessionSeconds)
            object.add("hr_bpm", metrics?.meanHR)
            object.add("rmssd_ms", metrics?.rmssd)
            object.add("ln_rmssd", metrics?.lnRMSSD)
            object.add("sdnn_ms", report.sdnnWindow.metrics?.sdnn)
            object.add("pnn50_pct", metrics?.pnn50)
            object.add("mean_nn_ms", metrics?.meanNN)
            object.add("corrected_pct", 100 * report.rmssdWindow.correctedShare)
            object.add("low_quality", report.rmssdWindow.isLowQuality || report.sdnnWindow.isLowQuality)
            object.add("filled", report.rmssdWindow.isFilled)
            object.add("state", report.assessment.state.rawValue)
            object.add("level", report.assessment.level)
            object.add("calibrating", report.assessment.isCalibrating)
            object.add("beats", report.judgedBeats)
            let state = report.assessment.isCalibrating ? "calibrating" : report.assessment.state.rawValue
            emit(object, text: "HR \(Self.number(metrics?.meanHR, 0)) bpm  RMSSD \(Self.number(metrics?.rmssd, 1)) ms  SDNN \(Self.number(report.sdnnWindow.metrics?.sdnn, 1)) ms  \(state)\(report.assessment.level.map { "  level \(Int($0.rounded()))" } ?? "")")
        case .malformed(let packet):
            var object = line("error", packet.time)
            object.add("error", packet.error.description)
            object.add("bytes", packet.bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
            object.add("count", packet.count)
            emit(object, text: "malformed notification (\(packet.count) so far): \(packet.error)")
        case .episode(let episode):
            var object = line(episode.kind.rawValue, nil)
            object.addFields(of: episode)
            emit(object, text: "\(episode.kind.rawValue) from \(Formatting.clock(episode.start)) to \(Formatting.clock(episode.end))")
        case .suggestion(let suggestion):
            var object = line("suggestion", nil)
            object.addFields(of: suggestion, timeKey: "session_s")
            emit(object, text: "\(suggestion.reason): try \(Formatting.fixed(suggestion.minutes, digits: 0)) min of \(suggestion.pattern.name) breathing (`hrvmon breathe`). \(suggestion.tip)")
        }
    }

    mutating func link(_ status: LinkStatus) {
        var object = line("link", WallClock.now())
        object.add("state", status.state.rawValue)
        object.add("detail", status.detail)
        if let retryIn = status.retryIn { object.add("retry_in_s", retryIn) }
        let retry = status.retryIn.map { " (retry in \(Formatting.fixed($0, digits: 1)) s)" } ?? ""
        emit(object, text: "\(status.state.rawValue.replacingUnderscores)\(status.detail.isEmpty ? "" : ": " + status.detail)\(retry)")
    }

    mutating func sensor(_ device: Device) {
        var object = line("sensor", WallClock.now())
        object.add("address", device.address)
        object.add("name", device.name)
        emit(object, text: "sensor \(device.displayName) (\(device.address))")
    }

    /// One more fact about the sensor (location, battery), added by `fields`.
    mutating func sensorDetail(text: String, _ fields: (inout JSONObject) -> Void) {
        var object = line("sensor", WallClock.now())
        fields(&object)
        emit(object, text: text)
    }

    mutating func notice(_ message: String) {
        var object = line("notice", WallClock.now())
        object.add("message", message)
        emit(object, text: message)
    }

    mutating func summary(_ session: LiveSession, seconds: Double) {
        var object = line("summary", WallClock.now())
        object.add("beats", session.recording.rawBeats)
        object.add("malformed", session.malformedPackets)
        object.add("duration_s", seconds)
        if let metrics = session.recording.metrics {
            object.add("rmssd_ms", metrics.rmssd)
            object.add("sdnn_ms", metrics.sdnn)
            object.add("hr_bpm", metrics.meanHR)
        }
        emit(object, text: "\(Formatting.count(session.recording.rawBeats, "beat")), \(Formatting.count(session.malformedPackets, "malformed notification")) in \(Formatting.duration(seconds))")
    }

    /// Flushes the session file to the disk.
    mutating func close() {
        output.flush()
        log?.close(sync: true)
        log = nil
    }

    private func line(_ type: String, _ time: Double?) -> JSONObject {
        var object = JSONObject()
        object.add("type", type)
        if let time { object.add("t", time) }
        return object
    }

    private var wantsJSON: Bool { format == .jsonl || log != nil }

    /// Writes the line where it goes; the text is only built for text output.
    private mutating func emit(_ object: JSONObject, text: @autoclosure () -> String?) {
        if wantsJSON {
            let json = object.serialized + "\n"
            if log != nil {
                log?.write(json)
                log?.flush()
            }
            if format == .jsonl { output.write(json) }
        }
        if format == .text, let text = text() { output.write(WallClock.timeOfDay() + "  " + text + "\n") }
        output.flush()
    }

    private static func number(_ value: Double?, _ digits: Int) -> String {
        value.map { Formatting.fixed($0, digits: digits) } ?? "–"
    }
}

enum MonitorFormat: String, ExpressibleByArgument, CaseIterable {
    case text, jsonl
}

extension HeartRateMeasurement.SensorContact {
    /// The JSON Lines spelling.
    var name: String {
        switch self {
        case .notSupported: "unsupported"
        case .notDetected: "not_detected"
        case .detected: "detected"
        }
    }
}

extension String {
    fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}
