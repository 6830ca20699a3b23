import HRV
import LivePipeline
import Platform
import Presentation

/// Several sensors on one dashboard (`monitor --device A --device B`): a compact section for
/// each — its tag (A, B, …), name, link, battery and beats; heart rate and RMSSD; state and level;
/// an RMSSD sparkline; its prompt, pacer or summary in one line — then the newest events of all,
/// each with its sensor's tag, and the keys. Keys act on every session (the caller makes them
/// so): `b` breathes in each, `n` notes into each, `q` ends all. Pure, like `DashboardState`.
public struct SensorsDashboardState: DashboardScreen {
    public private(set) var sensors: [DashboardState]
    /// What runs, for the title bar: `monitor`.
    public let title: String

    /// `sensors`: one state per session, in the order of `--device`.
    public init(sensors: [DashboardState], title: String) {
        precondition(!sensors.isEmpty, "a dashboard shows at least one sensor")
        self.sensors = sensors
        self.title = title
    }

    /// A, B, … Z, then 27, 28, …
    public static func tag(_ sensor: Int) -> String {
        sensor < 26 ? String(UnicodeScalar(UInt8(65 + sensor))) : String(sensor + 1)
    }

    // MARK: DashboardScreen

    public var acceptsKeys: Bool { sensors[0].acceptsKeys }

    /// The first sensor's: `b` starts the exercise in every session at once, so they pace alike.
    public var exercise: DashboardState.Exercise? { sensors[0].exercise }

    public func closingLines(width: Int) -> [String] {
        let lines = sensors.flatMap { state -> [String] in
            guard let summary = state.summary else { return [] }
            var lines = SessionText.summaryLines(summary, time: state.configuration.eventTime)
            lines[0] = "[\(state.sensorAddress ?? state.sensorName ?? "sensor")]  " + lines[0]
            return lines
        }
        return SessionText.wrapped(lines, width: width)
    }

    public mutating func apply(_ event: SessionEvent, at time: Double, sensor: Int) {
        sensors[sensor].apply(event, at: time)
    }

    public mutating func finish(_ summary: SessionSummary, sensor: Int) {
        sensors[sensor].finish(summary)
    }

    public mutating func advancePacer(to time: Double) -> [BreathingPacer.Cue] {
        var cues: [BreathingPacer.Cue] = []
        for index in sensors.indices {
            let advanced = sensors[index].advancePacer(to: time)
            if index == 0 { cues = advanced }
        }
        return cues
    }

    public func exerciseIsDue(at time: Double) -> Bool { sensors[0].exerciseIsDue(at: time) }

    /// The first sensor's state keeps the keys' mode (help, a note being typed).
    public mutating func press(_ key: Key) -> DashboardCommand? { sensors[0].press(key) }

    // MARK: Rendering

    public func render(size: TerminalSize, colors: Bool) -> [String] {
        guard size.rows > 0, size.columns > 0 else { return [] }
        let width = size.columns
        let first = sensors[0]
        let footer = first.footer(width: width)
        let body: [StyledLine]
        if first.mode == .help {
            let several = [
                "b, n and q act on every sensor's session; the pacer shown is the first sensor's",
                "events are tagged with their sensor's letter, [A], [B], as its section is",
            ]
            body = first.helpLines(width: width) + [StyledLine(), StyledLine("  Several sensors", .strong)]
                + several.flatMap { StyledLine("    " + $0).folded(width: width, indent: 6) }
        } else {
            body = first.fit(sections(width: width), rows: max(0, size.rows - 1 - footer.count), width: width, logged: events)
        }
        return DashboardState.screen(title: titleBar(width: width), body: body, footer: footer, size: size, colors: colors)
    }

    /// Every sensor's newest events, oldest first, each after its sensor's tag: `[A] `.
    var events: [DashboardState.LoggedEvent] {
        let tagged = sensors.enumerated().flatMap { index, state in
            state.log.map { DashboardState.LoggedEvent(time: $0.time, text: "[\(Self.tag(index))] " + $0.text) }
        }
        // A stable sort: events of the same moment keep the sensors' order.
        return tagged.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            .suffix(DashboardState.logLength)
    }

    private func titleBar(width: Int) -> StyledLine {
        let now = sensors.map(\.now).max() ?? sensors[0].configuration.start
        let ended = sensors.allSatisfy { $0.summary != nil }
        let right = (ended ? "ended  " : "") + Formatting.clock(max(0, now - sensors[0].configuration.start)) + " "
        let left = String(" hrvmon \(title)  ·  \(sensors.count) sensors".prefix(max(0, width - right.count - 1)))
        return StyledLine(left + String(repeating: " ", count: max(1, width - left.count - right.count)) + right, .banner)
    }

    private func sections(width: Int) -> [DashboardState.Section] {
        sensors.indices.flatMap { index -> [DashboardState.Section] in
            let state = sensors[index]
            var sections = [
                DashboardState.Section(priority: 0, lines: [heading(index)]),
                DashboardState.Section(priority: 1, lines: [state.metricsLine]),
                DashboardState.Section(priority: 2, lines: [state.stateLine]),
                DashboardState.Section(priority: 4, lines: sparkline(state, width: width)),
            ]
            for panel in state.panels(width: width) { sections.append(DashboardState.Section(priority: 2, lines: panel.compact)) }
            if index < sensors.count - 1 { sections.append(DashboardState.Section(priority: 5, lines: [StyledLine()])) }
            return sections.map { section in
                var section = section
                section.lines = section.lines.flatMap { $0.folded(width: width) }
                return section
            }
        } + [DashboardState.Section(priority: 5, lines: [StyledLine()])]
    }

    /// The tag and the sensor, its link unless connected, skin contact when lost, battery, beats.
    private func heading(_ index: Int) -> StyledLine {
        let state = sensors[index]
        var line = StyledLine(" " + Self.tag(index) + "  ", .strong)
        line.append(state.sensorName ?? state.sensorAddress ?? "waiting for the sensor", .strong)
        if let link = state.link {
            line.append("  ·  ")
            line.append(link.stateText, link.state == .connected ? .good : .warning)
        }
        if state.contact == .notDetected { line.append("  ·  "); line.append("NO SKIN CONTACT", .alarm) }
        if let battery = state.battery { line.append("  ·  battery \(battery) %") }
        line.append("  ·  \(Formatting.count(state.beats, "beat"))", .faint)
        if state.malformed > 0 { line.append("  ·  \(state.malformed) malformed", .warning) }
        return line
    }

    /// RMSSD over the last minutes, one column a bucket, and its range.
    private func sparkline(_ state: DashboardState, width: Int) -> [StyledLine] {
        let columns = min(TrendHistory.capacity, max(0, width - 26))
        let buckets = Array(state.trend.last(columns))
        guard columns >= 8, let (chart, range) = Sparkline.line(buckets.map(\.rmssd.value)) else { return [] }
        var line = StyledLine("  " + "RMSSD".padding(toLength: 7))
        line.append(chart.padding(toLength: columns), .good)
        line.append("  \(Formatting.fixed(range.lowerBound, digits: 0))–\(Formatting.fixed(range.upperBound, digits: 0)) ms", .faint)
        return [line]
    }
}
