import HRV
import HeartRateProtocol
import LivePipeline
import SelfReport
import Settings

/// The JSON Lines of a session: what the session file holds and `monitor --format jsonl` prints,
/// one object per event (docs/reference/session-files.md). Keys are a documented contract.
public enum SessionRecords {
    /// The first line: what produced the session and with which settings, so a replay can use
    /// the same.
    public static func header(_ header: SessionHeader) -> JSONObject {
        var object = record("session", header.start)
        object.add("format", SessionFileReader.formatName)
        object.add("version", SessionFileReader.newestVersion)
        object.add("program", header.program)
        object.add("id", header.id)
        object.add("start_local", header.startLocal)
        object.add("source", header.source)
        var device = JSONObject()
        device.add("name", header.deviceName)
        device.add("address", header.deviceAddress)
        object.add("device", device)
        object.add("baseline", header.baseline.map(JSONObject.init(baseline:)))
        var config = JSONObject()
        for definition in SettingDefinition.all {
            if case .list(let path) = definition.kind {
                config.addRaw(definition.key, "[" + header.settings[keyPath: path].map(JSONObject.quoted).joined(separator: ",") + "]")
            } else {
                config.add(definition.key, definition.value(in: header.settings))
            }
        }
        object.add("config", config)
        return object
    }

    /// The line for an event; nil for events with no line.
    public static func object(for event: SessionEvent, at time: Double) -> JSONObject? {
        switch event {
        case .live(let event): object(for: event, at: time)
        case .link(let status):
            with(record("link", time)) {
                $0.add("state", status.state.rawValue)
                $0.add("detail", status.detail)
                if let retryIn = status.retryIn { $0.add("retry_in_s", retryIn) }
            }
        case .sensor(.identity(let name, let address)):
            with(record("sensor", time)) {
                $0.add("address", address)
                $0.add("name", name)
            }
        case .sensor(.bodySensorLocation(let location)):
            with(record("sensor", time)) { $0.add("body_sensor_location", location) }
        case .sensor(.batteryLevel(let percent)):
            with(record("sensor", time)) { $0.add("battery_pct", percent) }
        case .notice(let message):
            with(record("notice", time)) { $0.add("message", message) }
        case .note(let text):
            with(record("note", time)) { $0.add("text", text) }
        case .motion(let second):
            with(record("motion", time)) {
                $0.add("level", second.level.rawValue)
                $0.add("mg", (second.intensity * 10).rounded() / 10)
                if let cadence = second.cadence { $0.add("spm", cadence.rounded()) }
                if let posture = second.posture { $0.add("posture", posture.rawValue) }
                if let breathing = second.breathing {
                    $0.add("breath_per_min", breathing.rate)
                    $0.add("breath_phase", breathing.phase.rawValue)
                    $0.add("breath_began_s", breathing.breathBegan)
                    $0.add("breath_quality", breathing.quality)
                }
            }
        case .desk(let change):
            with(record("desk", time)) {
                $0.add("state", change.presence.rawValue)
                $0.add("source", change.source)
            }
        case .checkIn(let checkIn):
            with(record("checkin", time)) { $0.addFields(of: checkIn) }
        case .label(let label):
            with(record("label", time)) {
                $0.add("episode", label.episode)
                $0.add("start_s", label.start)
                $0.add("answer", label.answer.rawValue)
                $0.add("via", label.via)
            }
        case .resonanceStep(let mark):
            with(record("resonance_step", mark.time)) {
                $0.add("session_s", mark.sessionSeconds)
                $0.add("step", mark.index)
                $0.add("bpm", mark.rate)
                $0.add("step_s", mark.stepSeconds)
                $0.add("settle_s", mark.settleSeconds)
                $0.add("inhale_share", mark.inhaleShare)
            }
        }
    }

    private static func object(for event: LiveEvent, at time: Double) -> JSONObject? {
        switch event {
        case .beat(let beat):
            with(record("rr", beat.time)) {
                $0.add("recv", beat.received)
                $0.add("pkt", beat.packet)
                $0.add("seq", beat.sequence)
                $0.add("rr_1024", Int(beat.ticks))
                $0.add("rr_ms", RRTicks.milliseconds(beat.ticks))
                $0.add("hr_bpm", Int(beat.heartRate))
                $0.add("contact", beat.sensorContact.name)
                if let energy = beat.energyExpended { $0.add("energy_kj", Int(energy)) }
            }
        case .placed(let beat):
            with(record("nn", nil)) {
                $0.add("s", beat.seconds)
                $0.addRaw("nn_ms", beat.interval.exactMilliseconds)
                $0.add("class", beat.artifact?.rawValue ?? "normal")
                if beat.followsGap { $0.add("after_gap", true) }
            }
        case .metrics(let report):
            with(record("metrics", report.time)) {
                let metrics = report.rmssdWindow.metrics
                $0.add("session_s", report.sessionSeconds)
                $0.add("hr_bpm", metrics?.meanHR)
                $0.add("rmssd_ms", metrics?.rmssd)
                $0.add("ln_rmssd", metrics?.lnRMSSD)
                $0.add("sdnn_ms", report.sdnnWindow.metrics?.sdnn)
                $0.add("pnn50_pct", metrics?.pnn50)
                $0.add("mean_nn_ms", metrics?.meanNN)
                $0.add("corrected_pct", 100 * report.rmssdWindow.correctedShare)
                $0.add("low_quality", report.rmssdWindow.isLowQuality)
                $0.add("filled", report.rmssdWindow.isFilled)
                $0.add("state", report.assessment.state.rawValue)
                $0.add("level", report.assessment.level)
                $0.add("z", report.assessment.zScore)
                $0.add("calibrating", report.assessment.isCalibrating)
                $0.add("beats", report.judgedBeats)
                $0.add("breathing_per_min", report.assessment.breathingRate)
                $0.add("breathing_source", report.assessment.breathingSource?.rawValue)
                $0.add("motion", report.assessment.motion?.rawValue)
                $0.add("dfa_alpha1", report.dfaAlpha1)
                $0.add("coherence", report.coherence?.score)
            }
        case .malformed(let packet):
            with(record("error", packet.time)) {
                $0.add("error", packet.error.description)
                $0.add("bytes", packet.bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined())
                $0.add("count", packet.count)
            }
        case .gap(let time):
            record("gap", time)
        case .episode(let episode):
            with(record(episode.kind.rawValue, time)) { $0.addFields(of: episode) }
        case .suggestion(let suggestion):
            with(record("suggestion", time)) { $0.addFields(of: suggestion, timeKey: "session_s") }
        case .exercise(let mark):
            with(record("exercise", mark.time)) {
                $0.add("event", mark.kind.rawValue)
                $0.add("pattern", mark.pattern)
                $0.add("session_s", mark.sessionSeconds)
            }
        case .effect(let effect):
            with(record("effect", time)) { $0.addFields(of: effect) }
        }
    }

    /// The session file's line for a notification that carried beats, received at `time`, in
    /// place of its beats' `rr` lines: what arrived, from which every `rr` field is recomputed
    /// (`contact` only when not `detected`; `energy_kj` when sent).
    public static func packet(_ measurement: HeartRateMeasurement, at time: Double) -> JSONObject {
        with(record("packet", time)) {
            $0.add("hr_bpm", Int(measurement.heartRate))
            $0.addIntegers("rr_1024", measurement.rrIntervals.map { Int($0) })
            if measurement.sensorContact != .detected { $0.add("contact", measurement.sensorContact.name) }
            if let energy = measurement.energyExpended { $0.add("energy_kj", Int(energy)) }
        }
    }

    public static func summary(_ summary: SessionSummary) -> JSONObject {
        with(record("summary", summary.time)) {
            $0.add("beats", summary.beats)
            $0.add("malformed", summary.malformed)
            $0.add("duration_s", summary.seconds)
            $0.add("rmssd_ms", summary.metrics?.rmssd)
            $0.add("sdnn_ms", summary.metrics?.sdnn)
            $0.add("hr_bpm", summary.metrics?.meanHR)
            $0.add("stress_s", summary.stressSeconds)
            $0.add("exercises", summary.exercises)
            $0.add("baseline", summary.baseline.map(JSONObject.init(baseline:)))
        }
    }

    private static func record(_ type: String, _ time: Double?) -> JSONObject {
        var object = JSONObject()
        object.add("type", type)
        if let time { object.add("t", time) }
        return object
    }

    private static func with(_ object: JSONObject, _ fill: (inout JSONObject) -> Void) -> JSONObject {
        var object = object
        fill(&object)
        return object
    }
}

/// What the header line records.
public struct SessionHeader {
    public var id: String
    /// Unix seconds.
    public var start: Double
    /// ISO 8601 local time with offset, for people reading the file.
    public var startLocal: String
    /// live or demo.
    public var source: String
    public var deviceName: String?
    public var deviceAddress: String?
    /// The personal baseline the session judges against; nil: it calibrates on its first minutes.
    public var baseline: Baseline?
    public var settings: Settings
    /// `hrvmon` and its version.
    public var program: String

    public init(
        id: String, start: Double, startLocal: String, source: String, deviceName: String?, deviceAddress: String?,
        baseline: Baseline?, settings: Settings, program: String
    ) {
        self.id = id
        self.start = start
        self.startLocal = startLocal
        self.source = source
        self.deviceName = deviceName
        self.deviceAddress = deviceAddress
        self.baseline = baseline
        self.settings = settings
        self.program = program
    }
}
