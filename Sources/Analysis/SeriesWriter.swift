import HRV
import Platform
import Presentation
import SessionLog

/// Writes rolling-window rows (`analyze --series`): JSON Lines for `json`, CSV otherwise.
///
/// RMSSD, ln RMSSD, pNN50, HR and the corrected share come from the RMSSD window; SDNN from the
/// SDNN window; state and level from the stress detector. A row is written for the first beat at
/// or after each step boundary.
public struct SeriesWriter {
    public static let columns = [
        "t_s", "rr_ms", "artifact", "hr_bpm", "rmssd_ms", "ln_rmssd", "pnn50_pct", "sdnn_ms",
        "corrected_pct", "low_quality", "filled", "state", "level",
    ]

    public let format: OutputFormat
    public let step: Double
    private var nextRowTime = 0.0

    public init(format: OutputFormat, step: Double) {
        self.format = format
        self.step = step
    }

    public func writeHeader(to output: inout FileStream) {
        if format != .json { output.write(Self.columns.joined(separator: ",") + "\n") }
    }

    public mutating func write(_ update: HRVUpdate, _ assessment: StressAssessment, to output: inout FileStream) {
        let time = update.beat.seconds
        guard time >= nextRowTime else { return }
        if step > 0 { nextRowTime = (time / step).rounded(.down) * step + step }
        let short = update.rmssdWindow
        let metrics = short.metrics
        let values: [(String, TableCell)] = [
            ("t_s", .number(time)),
            ("rr_ms", .number(update.beat.interval.milliseconds)),
            ("artifact", .text(update.beat.artifact?.rawValue)),
            ("hr_bpm", .number(metrics?.meanHR)),
            ("rmssd_ms", .number(metrics?.rmssd)),
            ("ln_rmssd", .number(metrics?.lnRMSSD)),
            ("pnn50_pct", .number(metrics?.pnn50)),
            ("sdnn_ms", .number(update.sdnnWindow.metrics?.sdnn)),
            ("corrected_pct", .number(100 * short.correctedShare)),
            // The flag and the share describe the same window: low_quality ⇔ corrected_pct > the limit.
            ("low_quality", .flag(short.isLowQuality)),
            ("filled", .flag(short.isFilled)),
            ("state", .text(assessment.state.rawValue)),
            ("level", .number(assessment.level)),
        ]
        if format == .json {
            var object = JSONObject()
            object.add("type", "window")
            object.add(cells: values)
            output.write(object.serialized + "\n")
        } else {
            output.write(values.map { $0.1.csv }.joined(separator: ",") + "\n")
        }
    }
}
