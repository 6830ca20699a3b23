import Presentation
import SelfReport

/// The days page's bar chart of triggers: minutes of stress under each check-in answer (what you
/// were doing, where, with whom), the largest first, each bar's confirmed episodes in its
/// tooltip. The numbers are `StressPatterns`' tallies, drawn as they are.
public enum TriggerChart {
    /// At most this many bars: the rest are in `hrvmon history --patterns`.
    public static let maximumBars = 12
    /// The page's full width: the tags' names need room beside the bars.
    public static let width = 960.0

    /// The tallies charted, largest first: the question, the answer, its tally.
    public static func bars(_ patterns: StressPatterns) -> [(question: String, tag: String, tally: StressPatterns.Tally)] {
        let all = [("doing", patterns.doing), ("where", patterns.place), ("with", patterns.company)].flatMap { question, tallies in
            tallies.map { (question: question, tag: $0.key, tally: $0.value) }
        }
        return Array(all.sorted { ($0.tally.minutes, $1.question, $1.tag) > ($1.tally.minutes, $0.question, $0.tag) }.prefix(maximumBars))
    }

    /// Nil when no episode had a check-in near it.
    public static func chart(_ patterns: StressPatterns) -> String? {
        let bars = bars(patterns)
        guard !bars.isEmpty else { return nil }
        let rowHeight = 24.0
        var insets = SVGChart.Insets()
        insets.left = 170
        // A tenth more than the longest bar: room for its label inside the frame.
        let (range, ticks) = NiceTicks.covering(0, max(bars.map(\.tally.minutes).max() ?? 1, 1) * 1.1, count: 5, minimumStep: 1)
        var chart = SVGChart(
            width: width, height: insets.top + insets.bottom + rowHeight * Double(bars.count), insets: insets,
            x: range, y: 0...Double(bars.count))
        chart.xAxis(ticks)
        var said: [String] = []
        for (index, bar) in bars.enumerated() {
            // Row 0 at the top.
            let top = Double(bars.count - index), bottom = top - 1
            let minutes = Formatting.fixed(bar.tally.minutes, digits: 0) + " min"
            let words = "\(bar.question) \(bar.tag): \(minutes) of stress, \(Formatting.count(bar.tally.episodes, "episode")), \(bar.tally.confirmed) confirmed"
            chart.box(x: 0, bar.tally.minutes, y: bottom + 0.2, top - 0.2, class: "bar-trigger", title: words)
            chart.text("\(bar.question): \(bar.tag)", x: 0, y: bottom + 0.5, dx: -8, dy: 4, anchor: "end", class: "bar-label")
            chart.text(minutes, x: bar.tally.minutes, y: bottom + 0.5, dx: 4, dy: 4, anchor: "start", class: "bar-label")
            said.append(words)
        }
        return chart.rendered(id: "triggers", title: "Stress minutes by check-in answer", summary: said.joined(separator: "; ") + ".")
    }
}
