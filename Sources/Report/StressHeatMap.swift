import Presentation
/// Minutes of stress per hour of each day, as a grid of coloured cells (hours across, days down,
/// oldest first). An hour without any monitoring is grey, so "no stress" is never confused with
/// "not measured".
public enum StressHeatMap {
    /// Upper bounds of stress minutes for the colour steps heat-1 … heat-5.
    public static let steps: [Double] = [5, 15, 30, 45, 60]

    public static func chart(_ report: DaysReport) -> String {
        let count = report.days.count
        let rowHeight = count <= 31 ? 22.0 : max(6, 700 / Double(count))
        var insets = SVGChart.Insets()
        insets.left = 92
        insets.top = 8
        let height = insets.top + insets.bottom + rowHeight * Double(count)
        var chart = SVGChart(width: 1100, height: height, insets: insets, x: 0...24, y: 0...Double(count))
        chart.xAxis(stride(from: 0, through: 24, by: 3).map { Tick(value: Double($0), label: "\($0 < 10 ? "0" : "")\($0):00") }, grid: false)
        let every = max(1, Int((Double(count) / 31).rounded(.up)))
        for (index, day) in report.days.enumerated() {
            // Row 0 at the top.
            let top = Double(count - index), bottom = Double(count - index - 1)
            if (count - 1 - index) % every == 0 {
                chart.text(LocalTime.shortDate(day.day), x: 0, y: (top + bottom) / 2, dx: -8, dy: 4, anchor: "end", class: "day-label")
            }
            for hour in 0..<24 {
                let cell = report.hours[index][hour]
                let gap = rowHeight > 10 ? 0.03 : 0
                chart.box(x: Double(hour) + gap, Double(hour + 1) - gap, y: bottom + gap * 2, top - gap * 2, class: level(cell),
                          title: "\(LocalTime.shortDate(day.day)), \(two(hour)):00–\(two(hour + 1)):00: " + describe(cell))
            }
        }
        let stressHours = report.hours.joined().filter { $0.stressSeconds > 0 }.count
        return chart.rendered(
            id: "stress-heat-map", title: "Stress by hour of day",
            summary: "Minutes of stress in each hour of \(Formatting.count(count, "day")); \(Formatting.count(stressHours, "hour")) had some stress. Grey cells were not monitored.")
    }

    /// The cell's colour class.
    public static func level(_ cell: DaysReport.Hour) -> String {
        guard cell.monitoredSeconds >= 1 else { return "heat-none" }
        guard cell.stressSeconds > 0 else { return "heat-0" }
        let minutes = cell.stressSeconds / 60
        return "heat-\((steps.firstIndex { minutes <= $0 } ?? steps.count - 1) + 1)"
    }

    public static func legend() -> String {
        var entries: [(swatch: String, text: String)] = [("heat-none", "not monitored"), ("heat-0", "no stress")]
        var lower = 0.0
        for (index, upper) in steps.enumerated() {
            entries.append(("heat-\(index + 1)", index == steps.count - 1 ? "over \(Int(lower)) min" : "\(Int(lower))–\(Int(upper)) min"))
            lower = upper
        }
        return ReportPage.legend(entries)
    }

    private static func describe(_ cell: DaysReport.Hour) -> String {
        guard cell.monitoredSeconds >= 1 else { return "not monitored" }
        return "\(Formatting.minutes(cell.stressSeconds)) of stress in \(Formatting.minutes(cell.monitoredSeconds)) monitored"
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
}
