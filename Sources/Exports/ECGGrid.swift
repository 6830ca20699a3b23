import SessionLog

/// The session's ECG on the export's time axis at one rate, as EDF+ and BIDS physio need it: grid
/// point `j` is `j / rate` seconds after the axis's zero and takes the recorded sample nearest it
/// (the earlier at a tie) when one lies within three quarters of a grid step (a strap whose clock
/// runs at 129.9 Hz still fills every point); none where the ECG was not recorded (before it
/// started, in a gap of the link). The values are the samples unchanged, not interpolated; each
/// is placed within half a step (3.8 ms) of its time, and at the H10's 130 Hz each is one point's
/// (but the first of a run halfway between two points, which is both). The samples are placed
/// by their times in the session file (the session's clock), the beats by their RR: see
/// docs/research.md. Only the span of the beats and events is kept, as every export's axis.
public struct ECGGrid {
    public static let rate = 130
    static let reach = 0.75
    /// Distances closer than this (in steps, 7.7 µs) are a tie, which the earlier sample keeps:
    /// the rounding of times must not decide between two samples halfway, leaving one at no point.
    static let tie = 0.001

    /// The grid index of the first point with a sample, and the values from it to the last point
    /// with one, µV (nil: no sample).
    public let first: Int
    public let values: [Int32?]

    /// nil when the session recorded no ECG within the axis's span.
    public init?(_ timeline: ExportTimeline) {
        let points = Int((timeline.end * Double(Self.rate)).rounded(.up)) + 1
        var nearest = [Int32](repeating: 0, count: points)
        var distance = [Double](repeating: .infinity, count: points)
        for run in timeline.ecg {
            for (index, sample) in run.microvolts.enumerated() {
                // The points either side: a sample halfway between two is the nearest of both.
                let position = (run.time(ofSample: index) - timeline.zero) * Double(Self.rate)
                let below = position.rounded(.down)
                for point in [below, below + 1] where point >= 0 && point < Double(points) {
                    let away = abs(position - point)
                    if away <= Self.reach, away < distance[Int(point)] - Self.tie {
                        nearest[Int(point)] = sample
                        distance[Int(point)] = away
                    }
                }
            }
        }
        guard let first = distance.firstIndex(where: { $0.isFinite }), let last = distance.lastIndex(where: { $0.isFinite }) else { return nil }
        self.first = first
        values = (first...last).map { distance[$0].isFinite ? nearest[$0] : nil }
    }

    /// The value of grid point `point`, nil outside the recorded span or where no sample is.
    public func value(at point: Int) -> Int32? {
        values.indices.contains(point - first) ? values[point - first] : nil
    }
}
