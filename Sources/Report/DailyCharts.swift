import Presentation
import RealModule

/// The multi-day page's trend charts, one value per calendar day: resting ln RMSSD with the
/// personal normal range, resting heart rate, minutes of stress, sessions.
public struct DailyCharts {
    public let report: DaysReport
    public static let width = 540.0
    public static let height = 230.0

    private var count: Int { report.days.count }

    public func lnRMSSD() -> String {
        let values = report.days.compactMap(\.resting?.lnRMSSD)
        let ranges = report.days.compactMap(\.readiness?.range)
        let means = report.days.compactMap(\.readiness?.week?.mean)
        let low = (values + means + ranges.map(\.lowerBound)).min() ?? 3
        let high = (values + means + ranges.map(\.upperBound)).max() ?? 4
        let (range, ticks) = NiceTicks.covering(low - 0.1, high + 0.1, count: 5)
        var chart = frame(y: range, ticks: ticks, title: "ln RMSSD at rest")
        for (index, day) in report.days.enumerated() {
            guard let normal = day.readiness?.normal, let band = day.readiness?.range, let milliseconds = day.readiness?.rangeRMSSD else { continue }
            chart.box(x: Double(index), Double(index + 1), y: band.lowerBound, band.upperBound, class: "band",
                      title: "\(LocalTime.shortDate(day.day)): normal range \(Formatting.fixed(band.lowerBound, digits: 2))–\(Formatting.fixed(band.upperBound, digits: 2)) (RMSSD \(Formatting.milliseconds(milliseconds.lowerBound))–\(Formatting.milliseconds(milliseconds.upperBound))), mean ± SD of \(Formatting.count(normal.days, "day")) of the 60 before")
        }
        plot(\.readiness?.week?.mean, on: &chart, line: "line-week", dot: "dot-week") { day, value in
            let cv = day.readiness?.week.map { ", CV \(Formatting.fixed($0.cvPercent, digits: 1)) % over \(Formatting.count($0.days, "day"))" } ?? ""
            let change = day.readiness?.change.map { ", \($0.rawValue) the normal range" } ?? ""
            return "\(LocalTime.shortDate(day.day)): 7-day mean ln RMSSD \(Formatting.fixed(value, digits: 2))\(cv)\(change)"
        }
        for (index, day) in report.days.enumerated() {
            guard let change = day.readiness?.change, let mean = day.readiness?.week?.mean else { continue }
            chart.dot(x: Double(index) + 0.5, y: mean, radius: 6, class: "mark-\(change.rawValue)",
                      title: "\(LocalTime.shortDate(day.day)): 7-day mean \(Formatting.fixed(mean, digits: 2)) \(change.rawValue) the normal range")
        }
        plot(\.resting?.lnRMSSD, on: &chart, line: "line-ln", dot: "dot-ln") { day, value in
            "\(LocalTime.shortDate(day.day)): ln RMSSD \(Formatting.fixed(value, digits: 2)) (RMSSD \(Formatting.milliseconds(Double.exp(value)))) at rest"
        }
        emptyNote(values.isEmpty, "No resting measurements in these days", on: &chart)
        let marked = report.days.filter { $0.readiness?.change != nil }.count
        return chart.rendered(
            id: "daily-ln-rmssd", title: "Resting ln RMSSD per day",
            summary: "Resting ln RMSSD on \(Formatting.count(values.count, "day")) of \(count), its 7-day rolling mean, and the normal range (mean ± 1 SD of the 60 days before) shaded where there was enough history; \(Formatting.count(marked, "day")) with the 7-day mean outside it.")
    }

    public func restingHeartRate() -> String {
        let values = report.days.compactMap(\.resting?.restingHR)
        let (range, ticks) = NiceTicks.covering((values.min() ?? 55) - 3, (values.max() ?? 70) + 3, count: 5)
        var chart = frame(y: range, ticks: ticks, title: "resting heart rate, bpm")
        plot(\.resting?.restingHR, on: &chart, line: "line-resting", dot: "dot-resting") { day, value in
            "\(LocalTime.shortDate(day.day)): resting heart rate \(Formatting.fixed(value, digits: 0)) bpm"
        }
        emptyNote(values.isEmpty, "No resting measurements in these days", on: &chart)
        return chart.rendered(id: "daily-resting-hr", title: "Resting heart rate per day", summary: "Resting heart rate on \(Formatting.count(values.count, "day")) of \(count).")
    }

    public func stressMinutes() -> String {
        bars(id: "daily-stress", title: "Stress per day", axis: "stress, min", class: "bar-stress", value: { $0.stressSeconds / 60 }) { day in
            "\(LocalTime.shortDate(day.day)): \(Formatting.minutes(day.stressSeconds)) of stress in \(Formatting.minutes(day.monitoredSeconds)) monitored"
        }
    }

    public func sessions() -> String {
        bars(id: "daily-sessions", title: "Sessions per day", axis: "sessions", class: "bar-sessions", value: { Double($0.sessions) }) { day in
            "\(LocalTime.shortDate(day.day)): \(Formatting.count(day.sessions, "session")), \(Formatting.minutes(day.monitoredSeconds)) monitored"
        }
    }

    // MARK: Building blocks

    /// An empty chart with one column per day and the given y axis.
    private func frame(y range: ClosedRange<Double>, ticks: [Tick], title: String) -> SVGChart {
        var chart = SVGChart(width: Self.width, height: Self.height, x: 0...Double(count), y: range)
        chart.yAxis(ticks, title: title)
        chart.xAxis(dayTicks, grid: false)
        return chart
    }

    /// Day labels, thinned to about ten.
    private var dayTicks: [Tick] {
        let every = max(1, Int((Double(count) / 10).rounded(.up)))
        return report.days.enumerated().filter { (count - 1 - $0.offset) % every == 0 }.map {
            Tick(value: Double($0.offset) + 0.5, label: count <= 14 ? LocalTime.shortDate($0.element.day, month: false) : "\($0.element.day.day)/\($0.element.day.month)")
        }
    }

    /// A line through the days with a value (broken where a day has none) and a dot per day.
    private func plot(_ value: KeyPath<DaysReport.Day, Double?>, on chart: inout SVGChart, line: String, dot: String,
                      title: (DaysReport.Day, Double) -> String) {
        var segments: [[(x: Double, y: Double)]] = [[]]
        for (index, day) in report.days.enumerated() {
            if let level = day[keyPath: value] {
                segments[segments.count - 1].append((Double(index) + 0.5, level))
            } else if !segments[segments.count - 1].isEmpty {
                segments.append([])
            }
        }
        chart.line(segments.filter { $0.count > 1 }, class: line)
        for (index, day) in report.days.enumerated() {
            guard let level = day[keyPath: value] else { continue }
            chart.dot(x: Double(index) + 0.5, y: level, class: dot, title: title(day, level))
        }
    }

    private func bars(id: String, title: String, axis: String, class name: String, value: (DaysReport.Day) -> Double,
                      description: (DaysReport.Day) -> String) -> String {
        let values = report.days.map(value)
        let (range, ticks) = NiceTicks.covering(0, max(values.max() ?? 0, 1), count: 4, minimumStep: 1)
        var chart = frame(y: range, ticks: ticks, title: axis)
        for (index, day) in report.days.enumerated() {
            let level = values[index]
            let x = Double(index)
            if level > 0 { chart.box(x: x + 0.18, x + 0.82, y: 0, level, class: name, title: description(day)) }
            if count <= 14, level > 0 {
                chart.text(Formatting.fixed(level, digits: level < 10 && level != level.rounded() ? 1 : 0), x: x + 0.5, y: level, dy: -4, class: "bar-label")
            }
        }
        emptyNote(values.allSatisfy { $0 == 0 }, "None in these days", on: &chart)
        return chart.rendered(id: id, title: title, summary: report.days.map(description).joined(separator: "; ") + ".")
    }

    private func emptyNote(_ isEmpty: Bool, _ text: String, on chart: inout SVGChart) {
        guard isEmpty else { return }
        chart.text(text, x: Double(count) / 2, y: (chart.y.domain.lowerBound + chart.y.domain.upperBound) / 2, class: "empty-label")
    }

}
