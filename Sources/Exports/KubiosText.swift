import HRV

/// RR as Kubios HRV reads a text file of RR data: two columns, the time of each beat in seconds
/// and its interval in milliseconds, tab-separated, no header. With the time column, Kubios
/// places the beats after a gap where they were instead of closing the gap up.
public enum KubiosText {
    /// The received intervals (exact: 800 ticks are `781.25`), or with `corrected` the corrected
    /// ones without those left out of every metric (`implausible`), as `export --format rr` does.
    public static func encode(_ timeline: ExportTimeline, corrected: Bool) -> String {
        var text = ""
        if corrected {
            for beat in timeline.corrected where beat.beat.kind != ArtifactClass.implausible.rawValue {
                text += ExportNumber.text(beat.onset) + "\t" + ExportNumber.milliseconds(beat.beat.milliseconds) + "\n"
            }
        } else {
            for beat in timeline.raw { text += ExportNumber.text(beat.onset) + "\t" + beat.interval.exactMilliseconds + "\n" }
        }
        return text
    }
}
