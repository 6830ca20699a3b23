import Dashboard
import HRV
import Platform
import TestSupport
import Testing

/// Two sensors on one dashboard (`monitor --device A --device B`): two demo sessions played
/// through real `SessionRun`s, at different points of the demo, shown side by side. Pure, like
/// DashboardRenderTests.
@Suite struct SensorsDashboardTests {
    static let standard = TerminalSize(rows: 24, columns: 80)

    /// The Polar in the demo's stress segment (its prompt up), the HRM-Pro calibrating and then
    /// disconnected.
    static func twoSensors(polarUntil: Double = 300, hrmProUntil: Double = 100) throws -> (SensorsDashboardState, DemoReplay, DemoReplay) {
        // Live sessions: their events at the time of day.
        var configuration = DemoReplay.configuration
        configuration.eventTime = .timeOfDay
        let polar = try DemoReplay(seed: 1, configuration: configuration)
        polar.play(until: polarUntil)
        // The demo lasts 10 minutes.
        polar.state.apply(.sensor(.identity(name: "Polar H10 A1B2C3D4", address: "A0:9E:1A:00:00:01")), at: DemoReplay.start + min(600, polarUntil))
        let hrmPro = try DemoReplay(seed: 2, configuration: configuration)
        hrmPro.play(until: hrmProUntil)
        let hrmProTime = DemoReplay.start + min(600, hrmProUntil)
        hrmPro.state.apply(.sensor(.identity(name: "HRM-Pro:123456", address: "C4:7C:8D:6A:00:02")), at: hrmProTime)
        hrmPro.state.apply(.link(.init(.disconnected, "link loss")), at: hrmProTime)
        return (SensorsDashboardState(sensors: [polar.state, hrmPro.state], title: "monitor"), polar, hrmPro)
    }

    static func visible(_ lines: [String]) -> [String] { lines.map(DashboardRenderTests.visible) }

    @Test func bothSensorsFitEightyByTwentyFour() throws {
        let (state, polar, hrmPro) = try Self.twoSensors()
        let lines = state.render(size: Self.standard, colors: false)
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
        #expect(lines[0].hasPrefix(" hrvmon monitor  ·  2 sensors") && lines[0].hasSuffix("5:00 "), "\(lines[0])")
        let polarHeading = try #require(lines.firstIndex { $0.hasPrefix(" A  Polar H10 A1B2C3D4  ·  connected  ·  battery 87 %  ·  ") })
        let hrmProHeading = try #require(lines.firstIndex { $0.hasPrefix(" B  HRM-Pro:123456  ·  disconnected  ·  battery 87 %  ·  ") })
        #expect(polarHeading < hrmProHeading)
        let polarSection = Array(lines[polarHeading..<hrmProHeading])
        // Each section's numbers are its own session's.
        let polarRMSSD = try #require(polar.state.latest?.rmssdWindow.metrics?.rmssd)
        let hrmProRMSSD = try #require(hrmPro.state.latest?.rmssdWindow.metrics?.rmssd)
        #expect(DashboardRenderTests.number(after: "RMSSD ", in: polarSection).map { abs($0 - polarRMSSD) <= 0.05 } == true)
        #expect(DashboardRenderTests.number(after: "RMSSD ", in: Array(lines[hrmProHeading...])).map { abs($0 - hrmProRMSSD) <= 0.05 } == true)
        #expect(polarSection.contains { $0.hasPrefix("  STRESS  level ") })
        let prompt = try #require(polarSection.firstIndex { $0.hasPrefix("  STRESS RMSSD ") }, "the prompt, compact: \(polarSection)")
        #expect(polarSection[prompt...].contains { $0.hasSuffix("— b: breathe") })
        #expect(polarSection.contains { $0.hasPrefix("  RMSSD  ") && $0.hasSuffix(" ms") })
        #expect(lines[hrmProHeading...].contains { $0.hasPrefix("  CALIBRATING  resting baseline 1:") })
        #expect(lines[hrmProHeading...].contains { $0.hasPrefix("  RMSSD  ") })
        // The newest events of both, tagged, oldest first, below the sections.
        let events = lines[(hrmProHeading + 1)...].filter { $0.range(of: #"^  \d\d:\d\d:\d\d  \[[AB]\] "#, options: .regularExpression) != nil }
        #expect(events.contains { $0.contains("  [A] demo: 3 min 00 s of mental stress") }, "\(lines)")
        let lost = try #require(events.firstIndex { $0.hasSuffix("  [B] disconnected: link loss") }, "\(lines)")
        #expect(events[lost...].contains { $0.contains("  [A] demo: 3 min 00 s of mental stress") }, "by time: the Polar's later event after it")
        #expect(lines.last == " b breathe  n note  c check in  ? help  q quit")

        let colored = state.render(size: Self.standard, colors: true)
        #expect(Self.visible(colored) == lines, "colour changes only the escapes")
    }

    @Test(arguments: [(24, 80), (16, 60), (12, 80), (10, 40), (6, 30), (3, 20), (1, 8), (40, 200)])
    func anySizeGivesExactlyItsRowsAndColumns(rows: Int, columns: Int) throws {
        let (state, _, _) = try Self.twoSensors()
        let lines = Self.visible(state.render(size: TerminalSize(rows: rows, columns: columns), colors: true))
        #expect(lines.count == rows)
        #expect(lines.allSatisfy { $0.count <= columns }, "\(lines)")
        if rows >= 8 {
            // What matters stays longest: who is who and their numbers.
            #expect(lines.contains { $0.hasPrefix(" A  Polar") } && lines.contains { $0.hasPrefix(" B  HRM-Pro") }, "\(lines)")
        }
    }

    /// `b` runs an exercise in each session side by side; the pacer drawn is the first sensor's,
    /// each section shows its own pacer line.
    @Test func breathingInBothSessions() throws {
        let polar = try DemoReplay(seed: 1)
        polar.play(until: 300)
        let hrmPro = try DemoReplay(seed: 2)
        hrmPro.play(until: 300)
        polar.startExercise(at: 300)
        hrmPro.startExercise(at: 300)
        var state = SensorsDashboardState(sensors: [polar.state, hrmPro.state], title: "monitor")
        let start = DemoReplay.start + 300
        var model = BreathingPacer(pattern: .resonance(), start: start)
        _ = model.advance(to: start + 2.5)
        _ = state.advancePacer(to: start + 2.5)
        #expect(state.exercise?.pacer.position == model.position)
        #expect(state.sensors.allSatisfy { $0.exercise?.pacer.position == model.position }, "both pacers move")
        let lines = state.render(size: Self.standard, colors: false)
        #expect(lines.filter { $0.hasPrefix("  " + BreathingBar.label(model.position.phase)) }.count == 2, "\(lines)")
        #expect(lines.last == " b stop breathing  n note  c check in  ? help  q quit")
        #expect(!state.exerciseIsDue(at: start + 299) && state.exerciseIsDue(at: start + 300))
    }

    @Test func keysAndHelp() throws {
        var (state, _, _) = try Self.twoSensors()
        #expect(state.press(.character("b")) == .toggleExercise)
        #expect(state.press(.character("n")) == nil)
        for character in "both ok" { _ = state.press(.character(character)) }
        #expect(state.render(size: Self.standard, colors: false).last?.hasPrefix(" note: both ok█") == true)
        #expect(state.press(.enter) == .saveNote("both ok"))
        _ = state.press(.character("?"))
        let help = state.render(size: TerminalSize(rows: 40, columns: 100), colors: false)
        #expect(help.contains("    b, n and q act on every sensor's session; the pacer shown is the first sensor's"))
        _ = state.press(.character("x"))
        #expect(state.press(.character("q")) == .quit)
    }

    /// After the end, each sensor's section says so and the normal screen gets each summary, labelled.
    @Test func summariesOfBoth() throws {
        let (before, _, _) = try Self.twoSensors(polarUntil: 10_000, hrmProUntil: 10_000)
        let lines = before.render(size: Self.standard, colors: false)
        #expect(lines[0].contains("ended  10:00"), "\(lines[0])")
        #expect(lines.filter { $0.hasPrefix("  session over: ") }.count == 2, "\(lines)")
        #expect(lines.last == " s was that stress?  ? help  q quit")
        let closing = before.closingLines(width: 200).filter { !$0.hasPrefix(" ") }
        #expect(closing.count == 2, "each summary's first line names its sensor; its effects follow, indented")
        #expect(closing[0].hasPrefix("[A0:9E:1A:00:00:01]  ") && closing[1].hasPrefix("[C4:7C:8D:6A:00:02]  "))
    }
}
