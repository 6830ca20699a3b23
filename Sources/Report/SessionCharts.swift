import HRV
import Platform
import Presentation
import SessionLog

/// The session page's charts: heart rate and RMSSD against clock time, each with the session's
/// stress and activity episodes, breathing exercises, link losses and notes; the heart-rate
/// chart also marks the beats artifact correction changed, the RMSSD chart the baseline band.
public struct SessionCharts {
    public let report: SessionReport
    public static let width = 1100.0
    public static let height = 250.0

    /// Clock time of the whole session (at least a minute, so an almost empty one still draws).
    public var domain: ClosedRange<Double> {
        report.timeline.origin...max(report.timeline.end, report.timeline.origin + 60)
    }

    public func heartRate() -> String {
        let points = series { $0.heartRate }
        let resting = report.baseline?.restingHR
        let values = points.compactMap(\.y) + (resting.map { [$0] } ?? [])
        // A little room, so a flat line does not run along the frame.
        let (range, ticks) = NiceTicks.covering((values.min() ?? 50) - 2, (values.max() ?? 100) + 2, count: 5)
        var chart = SVGChart(width: Self.width, height: Self.height, x: domain, y: range)
        drawSpans(on: &chart)
        chart.yAxis(ticks, title: "heart rate, bpm")
        chart.xAxis(ClockTicks.ticks(from: domain.lowerBound, to: domain.upperBound, count: 12))
        if let resting {
            chart.horizontalRule(at: resting, class: "band-mean", title: "Resting heart rate of the baseline: \(Formatting.fixed(resting, digits: 0)) bpm")
        }
        chart.line(segments(points, in: chart), class: "line-hr")
        drawCorrections(on: &chart)
        drawMarks(on: &chart)
        return chart.rendered(
            id: "heart-rate", title: "Heart rate",
            summary: "Heart rate (60 000 / mean NN over the rolling \(window) window) from \(clockRange)\(extent(points, unit: "bpm")).")
    }

    public func rmssd() -> String {
        let points = series { $0.rmssd }
        let band = report.baseline.map { (low: $0.normalRMSSD.lowerBound, mean: $0.restingRMSSD, high: $0.normalRMSSD.upperBound) }
        let highest = max(points.compactMap(\.y).max() ?? 60, band?.high ?? 0)
        let (range, ticks) = NiceTicks.covering(0, highest * 1.05, count: 5)
        var chart = SVGChart(width: Self.width, height: Self.height, x: domain, y: range)
        drawSpans(on: &chart)
        if let band, let baseline = report.baseline {
            chart.horizontalBand(band.low, band.high, class: "band", title: "Resting normal range: RMSSD \(Formatting.milliseconds(band.low))–\(Formatting.milliseconds(band.high)) (ln RMSSD \(Formatting.fixed(baseline.lnRMSSDMean, digits: 2)) ± \(Formatting.fixed(baseline.lnRMSSDSD, digits: 2)), \(Self.describe(baseline)))")
            chart.horizontalRule(at: band.mean, class: "band-mean", title: "Resting RMSSD: \(Formatting.milliseconds(band.mean))")
        }
        chart.yAxis(ticks, title: "RMSSD, ms")
        chart.xAxis(ClockTicks.ticks(from: domain.lowerBound, to: domain.upperBound, count: 12))
        chart.line(segments(points, in: chart), class: "line-rmssd")
        drawMarks(on: &chart)
        return chart.rendered(
            id: "rmssd", title: "RMSSD",
            summary: "RMSSD over the rolling \(window) window from \(clockRange)\(extent(points, unit: "ms"))"
                + (band.map { "; the shaded band is the resting normal range, \(Formatting.milliseconds($0.low)) to \(Formatting.milliseconds($0.high))" } ?? "") + ".")
    }

    /// `personal baseline of 7 days` or `session calibration, 32 windows`.
    public static func describe(_ baseline: Baseline) -> String {
        switch baseline.source {
        case .personal: "personal baseline of \(Formatting.count(baseline.samples, "day"))"
        case .session: "calibrated on this session's first minutes at rest"
        }
    }

    // MARK: Layers

    /// Behind the lines: link losses, episodes, exercises.
    private func drawSpans(on chart: inout SVGChart) {
        for gap in report.timeline.gaps {
            let start = report.clock(gap.position)
            chart.verticalSpan(start, start + gap.length, class: "gap",
                               title: "No signal \(WallClock.timeOfDay(start))–\(WallClock.timeOfDay(start + gap.length)) (\(Formatting.elapsed(gap.length)))" + (report.cause(of: gap).map { ": \($0)" } ?? ""))
        }
        for episode in report.file.episodes {
            chart.verticalSpan(report.clock(episode.start), report.clock(episode.end), class: episode.kind.rawValue, title: episodeTitle(episode))
        }
        for exercise in report.exercises {
            chart.verticalSpan(report.clock(exercise.start), report.clock(exercise.end), class: "exercise", title: exerciseTitle(exercise))
        }
        for span in report.stateSpans {
            chart.verticalSpan(report.clock(span.start), report.clock(span.end), class: "state-\(span.state.rawValue)",
                               title: "\(span.state.label.prefix(1).uppercased() + span.state.label.dropFirst()) \(report.span(span.start, span.end)): \(span.state.explanation ?? "")")
        }
    }

    /// In front of the lines: strips naming each span (visible in print too), and the notes.
    private func drawMarks(on chart: inout SVGChart) {
        for episode in report.file.episodes {
            chart.topStrip(report.clock(episode.start), report.clock(episode.end), class: "\(episode.kind.rawValue)-strip", title: episodeTitle(episode))
        }
        for exercise in report.exercises {
            chart.topStrip(report.clock(exercise.start), report.clock(exercise.end), class: "exercise-strip", title: exerciseTitle(exercise))
        }
        for note in report.notes {
            chart.marker(at: report.clock(note.seconds), label: String(note.number), class: "note", title: "Note \(note.number), \(report.time(note.seconds)): \(note.text)")
        }
    }

    /// A tick at the bottom for each pixel column holding corrected (amber) or implausible
    /// (grey) beats, naming their classes.
    private func drawCorrections(on chart: inout SVGChart) {
        struct Column { var time: Double; var kinds: [String: Int] = [:] }
        var columns: [Int: Column] = [:]
        for beat in report.file.placed where beat.kind != "normal" {
            let time = report.clock(beat.seconds)
            let implausible = beat.kind == ArtifactClass.implausible.rawValue
            let key = Int(chart.x(time).rounded()) * 2 + (implausible ? 1 : 0)
            columns[key, default: Column(time: time)].kinds[beat.kind, default: 0] += 1
        }
        for key in columns.keys.sorted() {
            let column = columns[key]!
            let count = column.kinds.values.reduce(0, +)
            let kinds = column.kinds.keys.sorted().map { "\(column.kinds[$0]!) \($0.replacingStandalone("_", with: "-"))" }.joined(separator: ", ")
            let what = key % 2 == 1 ? "implausible \(count == 1 ? "value" : "values") left out" : "\(count == 1 ? "beat" : "beats") corrected"
            chart.rug(at: column.time, class: key % 2 == 1 ? "implausible" : "artifact", title: "\(WallClock.timeOfDay(column.time)): \(count) \(what) (\(kinds))")
        }
    }

    // MARK: Helpers

    private func series(_ value: (SessionFile.Metrics) -> Double?) -> [(x: Double, y: Double?)] {
        report.file.metrics.map { (report.clock($0.sessionSeconds), value($0)) }
    }

    private func segments(_ points: [(x: Double, y: Double?)], in chart: SVGChart) -> [[(x: Double, y: Double)]] {
        let pixels = chart.plotRight - chart.plotLeft
        return LineSeries.segments(
            points, breaks: report.timeline.gaps.map { report.clock($0.position) },
            bucket: 2 * (domain.upperBound - domain.lowerBound) / pixels)
    }

    private var window: String { Formatting.setting(seconds: report.settings.pipeline.rmssdWindow) }

    private var clockRange: String { "\(WallClock.timeOfDay(domain.lowerBound)) to \(WallClock.timeOfDay(report.timeline.end))" }

    private func extent(_ points: [(x: Double, y: Double?)], unit: String) -> String {
        let values = points.compactMap(\.y)
        guard let low = values.min(), let high = values.max() else { return ", no values" }
        return ", between \(Formatting.fixed(low, digits: 0)) and \(Formatting.fixed(high, digits: 0)) \(unit)"
    }


    public func episodeTitle(_ episode: StressEpisode) -> String {
        let name = episode.kind == .stress ? "Stress" : "Activity"
        let peak = episode.peakLevel.map { ", peak level \(Formatting.fixed($0, digits: 0))" } ?? ""
        let reason = episode.reason.map { ": \($0.description)" } ?? ""
        return "\(name) \(report.span(episode.start, episode.end)) (\(Formatting.elapsed(episode.duration))\(peak))\(reason)"
    }

    public func exerciseTitle(_ exercise: BreathingExercise) -> String {
        "Breathing exercise (\(exercise.pattern)) \(report.span(exercise.start, exercise.end))"
            + (SessionEvents.effectText(exercise.effect).map { ": \($0)" } ?? "")
    }
}
