import HRV
import Platform
import Presentation
import SelfReport

/// The dashboard as lines of text: a title bar, the numbers, the state against the resting
/// baseline, charts of the last minutes, the stress prompt or the pacer, the signal, the latest
/// events and the keys. Exactly `size.rows` lines, none wider than `size.columns`; when the
/// terminal is small the least important parts go first.
extension DashboardState {
    public func render(size: TerminalSize, colors: Bool) -> [String] {
        guard size.rows > 0, size.columns > 0 else { return [] }
        let width = size.columns
        let footer = footer(width: width)
        let rows = max(0, size.rows - 1 - footer.count)
        let body = mode == .help ? helpLines(width: width) : fit(sections(width: width), rows: rows, width: width)
        return Self.screen(title: titleBar(width: width), body: body, footer: footer, size: size, colors: colors)
    }

    /// The title bar, as much of `body` as fits, blank rows, the footer: exactly `size.rows` lines.
    static func screen(title: StyledLine, body: [StyledLine], footer: [StyledLine], size: TerminalSize, colors: Bool) -> [String] {
        let rows = max(0, size.rows - 1 - footer.count)
        let body = Array(body.prefix(rows)) + repeatElement(StyledLine(), count: max(0, rows - body.count))
        return ([title] + body + footer).prefix(size.rows).map { $0.rendered(width: size.columns, colors: colors) }
    }

    // MARK: Layout

    /// A part of the screen; lower `priority` stays longer on a small terminal, and a part with a
    /// `compact` form shrinks to it before it goes.
    struct Section {
        var priority: Int
        var lines: [StyledLine]
        var compact: [StyledLine]?
    }

    /// The sections, each line folded to the width: a narrow terminal gets more, shorter lines
    /// rather than cut ones.
    private func sections(width: Int) -> [Section] {
        unfoldedSections(width: width).map { section in
            var section = section
            section.lines = section.lines.flatMap { $0.folded(width: width) }
            section.compact = section.compact?.flatMap { $0.folded(width: width) }
            return section
        }
    }

    private func unfoldedSections(width: Int) -> [Section] {
        var sections = [
            Section(priority: 0, lines: [metricsLine]),
            Section(priority: 0, lines: [stateLine]),
        ]
        if let gauge = gaugeLine(width: width) { sections.append(Section(priority: 3, lines: [gauge])) }
        sections.append(Section(priority: 6, lines: [StyledLine()]))
        sections.append(Section(priority: 4, lines: chartLines(width: width)))
        for panel in panels(width: width) {
            sections.append(Section(priority: 6, lines: [StyledLine()]))
            sections.append(Section(priority: 1, lines: panel.full, compact: panel.compact))
        }
        sections.append(Section(priority: 6, lines: [StyledLine()]))
        sections.append(Section(priority: 2, lines: [signalLine]))
        return sections
    }

    /// Drops sections from the least important until the rest fits, then gives the rows left to
    /// the newest events.
    /// `logged`: the events to show below (nil: this session's).
    func fit(_ sections: [Section], rows: Int, width: Int, logged: [LoggedEvent]? = nil) -> [StyledLine] {
        var kept = sections
        // Keep one row for the newest event while anything else can go.
        let reserve = rows > 4 ? 1 : 0
        while kept.reduce(0, { $0 + $1.lines.count }) > rows - reserve,
            let index = kept.indices.max(by: { kept[$0].priority < kept[$1].priority || (kept[$0].priority == kept[$1].priority && $0 > $1) })
        {
            if let compact = kept[index].compact {
                kept[index].lines = compact
                kept[index].compact = nil
            } else {
                kept.remove(at: index)
            }
        }
        var lines = kept.flatMap(\.lines)
        // The newest events that fit, oldest first, each folded to the width.
        var events: [[StyledLine]] = []
        var room = rows - lines.count
        for event in (logged ?? log).reversed() {
            var line = StyledLine("  " + configuration.eventTime.label(event.time) + "  ", .faint)
            line.append(event.text)
            let folded = line.folded(width: width, indent: 12)
            guard folded.count <= room else {
                // The newest event shows its beginning rather than nothing.
                if events.isEmpty, room > 0 { events.append(Array(folded.prefix(room))) }
                break
            }
            events.append(folded)
            room -= folded.count
        }
        lines += events.reversed().flatMap { $0 }
        return lines
    }

    // MARK: Lines

    /// The title, the sensor and the link's state on the left, the session's clock on the right;
    /// on a narrow terminal the parts on the left go, the link's first, before the clock is cut.
    private func titleBar(width: Int) -> StyledLine {
        let right = (summary == nil ? "" : "ended  ") + Formatting.clock(sessionSeconds) + " "
        var parts = [" hrvmon " + configuration.title]
        if let sensor = sensorName ?? sensorAddress { parts.append(sensor) }
        if let link { parts.append(link.stateText) }
        var left = parts.joined(separator: "  ·  ")
        while parts.count > 1, left.count + 1 + right.count > width {
            parts.removeLast()
            left = parts.joined(separator: "  ·  ")
        }
        let gap = max(1, width - left.count - right.count)
        return StyledLine(left + String(repeating: " ", count: gap) + right, .banner)
    }

    var metricsLine: StyledLine {
        guard let latest else { return StyledLine("  waiting for beats…", .faint) }
        let window = latest.rmssdWindow.metrics
        var line = StyledLine()
        func field(_ name: String, _ value: Double?, _ digits: Int, _ unit: String) {
            line.append("  \(name) ")
            line.append(value.map { Formatting.fixed($0, digits: digits) } ?? "–", .strong)
            if !unit.isEmpty { line.append(" " + unit) }
            line.append(" ")
        }
        field("HR", window?.meanHR, 0, "bpm")
        field("RMSSD", window?.rmssd, 1, "ms")
        field("SDNN", latest.sdnnWindow.metrics?.sdnn, 1, "ms")
        field("ln RMSSD", window?.lnRMSSD, 2, "")
        field("pNN50", window?.pnn50, 1, "%")
        return line
    }

    var stateLine: StyledLine {
        guard let assessment = latest?.assessment else { return StyledLine() }
        var line = StyledLine("  ")
        if assessment.isCalibrating {
            let done = min(1, (latest?.sessionSeconds ?? 0) / configuration.calibrationSeconds)
            line.append("CALIBRATING", .calm)
            line.append("  resting baseline \(Formatting.clock(done * configuration.calibrationSeconds)) of \(Formatting.clock(configuration.calibrationSeconds))  ")
            line.append(Sparkline.meter(done, cells: 20), .calm)
            return line
        }
        let style = Self.style(of: assessment.state)
        line.append(assessment.state.label.uppercased(), style)
        if let explanation = assessment.state.explanation {
            line.append("  " + explanation, .faint)
        } else if let level = assessment.level {
            line.append("  level ")
            line.append(Formatting.fixed(level, digits: 0).padding(toLength: 4), .strong)
            line.append(Sparkline.meter(level / 100, cells: 20), style)
        }
        if let rate = assessment.breathingRate {
            line.append("  breathing \(Formatting.fixed(rate, digits: 0))/min\(Self.from(assessment.breathingSource))", .faint)
        }
        if let alpha1 = latest?.dfaAlpha1 {
            line.append("  α1 \(Formatting.fixed(alpha1, digits: 2))", .faint)
        }
        return line
    }

    private func gaugeLine(width: Int) -> StyledLine? {
        guard let latest, let baseline = latest.baseline else { return nil }
        var line = StyledLine("  vs rest  ")
        let gaugeWidth = min(40, max(0, width - 48))
        line.append(BaselineGauge.line(
            zScore: latest.assessment.zScore, onsetMargin: configuration.onsetMargin, width: gaugeWidth,
            marker: Self.style(of: latest.assessment.state)))
        // The band is the reference ± 1 SD in ln RMSSD: what the gauge's marker is measured against.
        let centre = latest.reference?.lnRMSSD ?? baseline.lnRMSSDMean
        let low = centre - baseline.lnRMSSDSD
        let high = centre + baseline.lnRMSSDSD
        let source = latest.reference?.isRolling == true ? "rolling" : baseline.source.rawValue
        line.append("  rest band \(Formatting.fixed(low, digits: 2))–\(Formatting.fixed(high, digits: 2)) (\(source))", .faint)
        return line
    }

    private func chartLines(width: Int) -> [StyledLine] {
        let columns = min(TrendHistory.capacity, max(0, width - 26))
        let buckets = Array(trend.last(columns))
        guard columns >= 8, !buckets.isEmpty else { return [] }
        func chart(_ name: String, _ values: [Double?], _ unit: String, _ style: StyledLine.Style) -> StyledLine {
            var line = StyledLine("  " + name.padding(toLength: 7))
            guard let (chart, range) = Sparkline.line(values) else { return line }
            line.append(chart.padding(toLength: columns), style)
            line.append("  \(Formatting.fixed(range.lowerBound, digits: 0))–\(Formatting.fixed(range.upperBound, digits: 0)) \(unit)", .faint)
            return line
        }
        var states = StyledLine("  " + "state".padding(toLength: 7))
        for bucket in buckets { states.append(String(Sparkline.mark(bucket.state)), Self.style(of: bucket.state ?? .unknown)) }
        states.append(String(repeating: " ", count: columns - buckets.count))
        states.append("  last " + Formatting.clock(Double(buckets.count) * TrendHistory.bucketSeconds), .faint)
        return [
            chart("HR", buckets.map(\.heartRate.value), "bpm", .alarm),
            chart("RMSSD", buckets.map(\.rmssd.value), "ms", .good),
            states,
        ]
    }

    /// How long a second of motion stays on screen without a newer one (the strap's streams stop
    /// with its contact, and after a reconnect they take a few seconds to start).
    static let motionShownFor = 5.0

    /// Where a breathing rate was read, as " (chest)" or " (RR)".
    static func from(_ source: BreathingSource?) -> String {
        switch source {
        case .chest: " (chest)"
        case .rr: " (RR)"
        case nil: ""
        }
    }

    /// "walking 108 steps/min · upright", "still · lying".
    static func words(_ motion: MotionSecond) -> String {
        var words = motion.level.rawValue
        if let cadence = motion.cadence { words += " \(Int(cadence.rounded())) steps/min" }
        if let posture = motion.posture { words += " · \(posture.rawValue)" }
        return words
    }

    private var signalLine: StyledLine {
        var line = StyledLine("  signal  ")
        switch contact {
        case .detected: line.append("contact ok", .good)
        case .notDetected: line.append("NO SKIN CONTACT", .alarm)
        case .notSupported: line.append("contact not reported")
        case nil: line.append("no beats yet", .faint)
        }
        if let link, link.state != .connected {
            line.append("  ·  ")
            line.append(link.text, .warning)
        }
        if let battery { line.append("  ·  battery \(battery) %") }
        if let location { line.append("  ·  \(location)") }
        if let motion, now - motion.time < Self.motionShownFor { line.append("  ·  " + Self.words(motion.second)) }
        // Only input says something (sitting); its absence says nothing the wearer needs to see.
        if desk == .atDesk { line.append("  ·  at the desk") }
        if let window = latest?.rmssdWindow {
            line.append("  ·  ")
            line.append("corrected \(Formatting.fixed(100 * window.correctedShare, digits: 1)) %", window.isLowQuality ? .warning : .plain)
        }
        line.append("  ·  \(Formatting.count(beats, "beat"))")
        if malformed > 0 { line.append("  ·  \(malformed) malformed", .warning) }
        return line
    }

    /// The keys, folded between them onto a second line when the terminal is narrow.
    func footer(width: Int) -> [StyledLine] {
        switch mode {
        case .note(let draft):
            var line = StyledLine(" note: ", .strong)
            // The end of a long note stays in view while it is typed; the keys fold below it.
            let room = max(1, width - 8)
            line.append(String(draft.suffix(room)) + "█")
            line.append("   Enter saves · Esc cancels", .faint)
            return line.folded(width: width, indent: 1)
        case .checkIn(let form):
            var line = StyledLine(" check-in: ", .strong)
            line.append(form.prompt + " ")
            if form.mood != nil { line.append(form.draft + "█") }
            line.append(form.mood == nil ? "   1–5 · Esc cancels" : "   Tab completes · Enter next · Esc cancels", .faint)
            return line.folded(width: width, indent: 1)
        case .question:
            var line = StyledLine(" " + EpisodeAnswer.question, .strong)
            line.append("  y yes · n no · u not sure · Esc later", .faint)
            return line.folded(width: width, indent: 1)
        case .help:
            return [StyledLine(" any key closes the help", .faint)]
        case .normal:
            guard configuration.acceptsKeys else { return [StyledLine(" Ctrl-C quits", .faint)] }
            var line = StyledLine()
            let keys = summary == nil
                ? [("b", exercise == nil ? "breathe" : "stop breathing"), ("n", "note"), ("c", "check in")]
                    + (unanswered == nil ? [] : [("s", "was that stress?")]) + [("?", "help"), ("q", "quit")]
                : (unanswered == nil ? [] : [("s", "was that stress?")]) + [("?", "help"), ("q", "quit")]
            for (index, (key, action)) in keys.enumerated() {
                line.append((index == 0 ? " " : "  ") + key, .strong)
                line.append(" " + action, .faint)
            }
            return line.folded(width: width, indent: 1)
        }
    }

    // MARK: Styles

    public static func style(of state: StressState) -> StyledLine.Style {
        switch state {
        case .rest: .good
        case .elevated: .warning
        case .stress: .alarm
        case .activity, .recovery: .active
        case .pacedBreathing: .calm
        case .posture, .unknown: .faint
        }
    }
}
