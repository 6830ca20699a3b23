/// Beat intervals on a regular grid, for the formats that need a sampling rate (EDF+, BIDS
/// physio): each sample holds the interval it lies in, from the beat that starts it to the beat
/// that ends it (sample and hold, no interpolation), and none in a gap or outside the beats.
/// The exact beats are beside it in each format (annotations, events), so nothing is lost to
/// the grid.
public enum Tachogram {
    /// 4 Hz, the rate HRV spectra resample RR at (Task Force 1996; Kubios' default).
    public static let rate = 4

    /// For each sample `j` at `j / rate` seconds, the index of the beat whose interval
    /// (`onsets[i] − lengths[i]`, `onsets[i]`] holds it, or nil. Onsets must be ascending.
    public static func covering(onsets: [Double], lengths: [Double], samples: Int, rate: Int = rate) -> [Int?] {
        var result: [Int?] = []
        result.reserveCapacity(samples)
        var next = 0
        for sample in 0..<samples {
            let time = Double(sample) / Double(rate)
            while next < onsets.count && onsets[next] <= time { next += 1 }
            // 1 ns of slack: an interval that starts where its predecessor ends, in floating point.
            result.append(next < onsets.count && onsets[next] - lengths[next] <= time + 1e-9 ? next : nil)
        }
        return result
    }

    /// Whole seconds that hold every beat and event, at least one: the length of the grid.
    public static func seconds(_ timeline: ExportTimeline) -> Int { max(1, Int(timeline.end.rounded(.up))) }

    /// The received intervals' samples.
    public static func raw(_ timeline: ExportTimeline) -> [Int?] {
        covering(
            onsets: timeline.raw.map(\.onset), lengths: timeline.raw.map(\.interval.seconds), samples: seconds(timeline) * rate)
    }

    /// The corrected intervals' samples.
    public static func corrected(_ timeline: ExportTimeline) -> [Int?] {
        covering(
            onsets: timeline.corrected.map(\.onset), lengths: timeline.corrected.map { $0.beat.milliseconds / 1000 },
            samples: seconds(timeline) * rate)
    }
}
