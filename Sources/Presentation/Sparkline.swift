import HRV

/// Small charts in one line of text: values as block heights, states as marks.
public enum Sparkline {
    public static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One character per value, scaled from the smallest to the largest; a missing value is
    /// `missing`. Nil when there is nothing to draw.
    public static func line(_ values: [Double?], missing: Character = " ") -> (chart: String, range: ClosedRange<Double>)? {
        let present = values.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return nil }
        let span = high - low
        let chart = String(values.map { value -> Character in
            guard let value else { return missing }
            // A flat series sits in the middle rather than on the floor.
            guard span > 1e-9 else { return levels[levels.count / 2 - 1] }
            return levels[min(levels.count - 1, Int((value - low) / span * Double(levels.count)))]
        })
        return (chart, low...high)
    }

    /// A bar of `cells` filled to `fraction` (0…1).
    public static func meter(_ fraction: Double, cells: Int) -> String {
        let filled = Int((min(1, max(0, fraction)) * Double(cells)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: cells - filled)
    }

    /// One mark per bucket: the state's own height, so the strip reads without colour too.
    public static func mark(_ state: StressState?) -> Character {
        switch state {
        case .rest: "▁"
        case .elevated: "▄"
        case .stress: "█"
        case .activity: "▒"
        case .recovery: "░"
        case .pacedBreathing: "~"
        case .posture: "╎"
        case .unknown, nil: "·"
        }
    }
}
