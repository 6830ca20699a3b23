import Foundation
import TestSupport
import Testing

/// `hrvmon demo` on a real terminal (tmux) and off one.
@Suite(.serialized) struct DemoCommandTests {
    /// A shell command line running hrvmon with a home and runtime directory of its own, no
    /// session bus (no desktop notification from a test) and colours unless `environment` says
    /// NO_COLOR (the test runner sets it).
    static func command(_ arguments: String, environment: String = "", home: String? = nil) throws -> String {
        let home = try home ?? Self.home()
        return "env -u NO_COLOR HOME=\(home) XDG_CONFIG_HOME=\(home)/config XDG_DATA_HOME=\(home)/data XDG_RUNTIME_DIR=\(home)/run "
            + "DBUS_SESSION_BUS_ADDRESS= \(environment) \(Hrvmon.executable.path) \(arguments); echo EXIT=$?"
    }

    /// A new home directory with its runtime directory (`run`), where `hrvmon note` finds the session.
    static func home() throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-tty-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home + "/run", withIntermediateDirectories: true)
        return home
    }

    /// Seconds of the day of the event-log line that contains `text` (`  HH:MM:SS  text`).
    static func time(of text: String, in screen: String) -> Int? {
        for line in screen.split(separator: "\n") where line.contains(text) {
            let parts = line.dropFirst(2).prefix(8).split(separator: ":").compactMap { Int($0) }
            if parts.count == 3 { return parts[0] * 3600 + parts[1] * 60 + parts[2] }
        }
        return nil
    }

    /// Values, the stress prompt in the stress segment, `b` starts the pacer, `q` exits 0 and
    /// gives the terminal back with the summary.
    @Test func dashboardOnATerminal() throws {
        let terminal = try TmuxTerminal(width: 100, height: 32)
        defer { terminal.close() }
        try terminal.type(try Self.command("demo --speed 15"))
        #expect(terminal.wait(timeout: 20) { $0.contains("  HR ") && $0.contains(" bpm   RMSSD ") && $0.contains("CALIBRATING") }, "\(terminal.screen)")
        #expect(terminal.alternateScreen)
        #expect(!terminal.cursorVisible)
        #expect(terminal.styledScreen.contains("\u{1B}[7m"), "the title bar in reverse video")
        #expect(terminal.screen.contains(" b breathe  n note  ? help  q quit"))

        #expect(terminal.wait(timeout: 40) { $0.contains("┌─ Stress ─") }, "\(terminal.screen)")
        let screen = terminal.screen
        #expect(screen.contains("STRESS"))
        let segment = try #require(Self.time(of: "of mental stress", in: screen), "\(screen)")
        let prompt = try #require(Self.time(of: "below your reference of", in: screen), "\(screen)")
        #expect((1..<180).contains((prompt - segment + 86_400) % 86_400), "the prompt comes within the 3-minute stress segment")

        try terminal.key("b")
        #expect(terminal.wait { $0.contains("┌─ resonance breathing, 6.0 a minute · ") && ($0.contains("│ INHALE") || $0.contains("│ EXHALE")) }, "\(terminal.screen)")
        #expect(terminal.screen.contains(" b stop breathing"))
        let started = try #require(Self.time(of: "resonance breathing started at", in: terminal.screen))
        #expect((started - segment + 86_400) % 86_400 < 180, "started by b, before the demo's own exercise")

        try terminal.key("q")
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
        #expect(!terminal.alternateScreen)
        #expect(terminal.cursorVisible)
        #expect(terminal.screen.contains(" beats, 0 malformed notifications in "))
    }

    /// During the exercise the demo takes itself, session time runs at real time, so the pacer
    /// can be breathed with, and b does not stop that exercise; before and after, the demo is fast.
    @Test func theDemosExerciseRunsAtRealTime() throws {
        let terminal = try TmuxTerminal(width: 100, height: 32)
        defer { terminal.close() }
        try terminal.type(try Self.command("demo --speed 60"))
        func clock(_ screen: String) -> Int? {
            guard let title = screen.split(separator: "\n").first, let last = title.split(separator: " ").last else { return nil }
            let parts = last.split(separator: ":").compactMap { Int($0) }
            return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
        }
        #expect(terminal.wait(timeout: 30) { $0.contains("┌─ resonance breathing") }, "\(terminal.screen)")
        let first = try #require(clock(terminal.screen))
        #expect((360...370).contains(first), "the demo takes the exercise at 6:00: \(first)")
        Thread.sleep(forTimeInterval: 3)
        let second = try #require(clock(terminal.screen))
        #expect((2...5).contains(second - first), "3 s of breathing take about 3 s of session, not 180: \(first) → \(second)")
        try terminal.key("b")
        #expect(terminal.wait { $0.contains("the demo's breathing exercise ends with its breathing segment") }, "\(terminal.screen)")
        #expect(terminal.screen.contains("┌─ resonance breathing"), "b left the demo's exercise running")
        try terminal.key("q")
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
    }

    /// Once the session is over the dashboard stays until q, but the session takes no more notes:
    /// `hrvmon note` says none is running rather than losing the note.
    /// A timeline that is over before the event loop first runs (0.2 s of session at ×1000 is
    /// 0.2 ms, less than starting the session takes) still ends the demo: it used to stop the loop
    /// before it ran, and the demo then slept in poll for ever.
    @Test func aTimelineOverBeforeTheLoopRunsStillEnds() throws {
        for _ in 0..<3 {
            let demo = try LiveProcess(["demo", "--duration", "0.2", "--speed", "1000", "--format", "jsonl"], environment: [:])
            #expect(demo.waitForExit(timeout: 10) == 0)
            #expect(demo.objects.last?["type"] as? String == "summary")
        }
    }

    @Test func noNotesAfterTheEnd() throws {
        let terminal = try TmuxTerminal(width: 100, height: 32)
        defer { terminal.close() }
        let home = try Self.home()
        let log = home + "/demo.jsonl"
        try terminal.type(try Self.command("demo --speed 1000 --duration 30 --log \(log)", home: home))
        #expect(terminal.wait(timeout: 20) { $0.contains("Session over") }, "\(terminal.screen)")
        let note = try Hrvmon.run(["note", "too", "late"], environment: ["XDG_RUNTIME_DIR": home + "/run"])
        #expect(note.status == 1 && note.stderr.contains("no session is running"), "\(note)")
        try terminal.key("q")
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
        let records = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(records.last?.contains("\"type\":\"summary\"") == true, "\(records.suffix(2))")
        #expect(!records.contains { $0.contains("\"type\":\"note\"") })
    }

    /// NO_COLOR: not one colour or attribute; a resize redraws at the new size; Ctrl-C exits 0.
    @Test func noColorResizeAndInterrupt() throws {
        let terminal = try TmuxTerminal(width: 100, height: 30)
        defer { terminal.close() }
        try terminal.type(try Self.command("demo --speed 20", environment: "NO_COLOR=1"))
        #expect(terminal.wait(timeout: 20) { $0.contains("CALIBRATING") && $0.contains("  state  ") }, "\(terminal.screen)")
        #expect(!terminal.styledScreen.contains("\u{1B}["), "\(terminal.styledScreen)")

        try terminal.resize(width: 60, height: 14)
        #expect(terminal.wait { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 14 && lines[0].hasPrefix(" hrvmon demo ×20") && lines[0].count <= 60
                && lines[13] == " b breathe  n note  ? help  q quit" && lines[1].hasPrefix("  HR ")
        }, "\(terminal.screen)")

        try terminal.key("C-c")
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
        #expect(!terminal.alternateScreen)
        #expect(terminal.cursorVisible)
    }

    /// Ctrl-Z gives the terminal back to the shell; `fg` brings the dashboard back.
    @Test func suspendAndResume() throws {
        let terminal = try TmuxTerminal(width: 80, height: 24)
        defer { terminal.close() }
        try terminal.type(try Self.command("demo --speed 5"))
        #expect(terminal.wait(timeout: 20) { $0.contains("CALIBRATING") }, "\(terminal.screen)")
        try terminal.key("C-z")
        #expect(terminal.wait { $0.contains("EXIT=148") }, "stopped: \(terminal.screen)")
        #expect(!terminal.alternateScreen)
        #expect(terminal.cursorVisible)
        try terminal.type("fg")
        #expect(terminal.wait { $0.contains("CALIBRATING") && $0.contains(" q quit") }, "\(terminal.screen)")
        #expect(terminal.alternateScreen)
        try terminal.key("q")
        #expect(terminal.wait { $0.contains(" beats, 0 malformed notifications in ") }, "\(terminal.screen)")
        #expect(!terminal.alternateScreen)
        #expect(terminal.cursorVisible)
    }

    /// --no-dashboard on a terminal: lines, the exit at the end.
    @Test func linesOnATerminalWhenAsked() throws {
        let terminal = try TmuxTerminal(width: 200, height: 40)
        defer { terminal.close() }
        try terminal.type(try Self.command("demo --no-dashboard --speed 1000 --duration 20"))
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
        #expect(terminal.screen.contains("  connected: simulated"))
        #expect(terminal.screen.contains("  HR "))
        #expect(terminal.screen.contains(" beats, 0 malformed notifications in 20 s"))
        #expect(!terminal.alternateScreen)
    }

    /// Off a terminal (CI): line output from start to end, the stress prompt in the stress
    /// segment, exit 0 at the end of the scenario.
    @Test func lineOutputOffATerminal() throws {
        let result = try Hrvmon.run(["demo", "--speed", "1000"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { String($0.dropFirst(10)) }
        #expect(lines.prefix(5) == [
            "sensor hrvmon demo strap (00:00:5E:00:53:01)", "worn on the chest", "battery 87 %", "connected: simulated",
            "demo: 3 min 00 s of seated rest (simulated heart rate 62 bpm, RMSSD 45 ms)",
        ])
        let events = lines.filter { !$0.hasPrefix("HR ") }
        let stress = try #require(events.firstIndex { $0.hasPrefix("demo: 3 min 00 s of mental stress") })
        let breathing = try #require(events.firstIndex { $0.hasPrefix("demo: 2 min 00 s of paced breathing") })
        let suggestion = try #require(events.firstIndex { $0.contains("below your reference of") })
        #expect(stress < suggestion && suggestion < breathing)
        #expect(events.contains { $0.hasPrefix("resonance breathing started at 5:58") }, "the demo takes the exercise at the breathing segment")
        #expect(events.contains { $0.hasPrefix("exercise effect: before RMSSD ") })
        // The summary: totals with the session's RMSSD and HR (analyze's numbers for the same RR),
        // then the exercise's effect before → after.
        let summary = try #require(lines.dropLast().last)
        #expect(summary.hasPrefix("648 beats, 0 malformed notifications in 10 min 00 s · RMSSD 43.7 ms · HR 65 bpm"), "\(summary)")
        let effect = try #require(lines.last).trimmingCharacters(in: .whitespaces)
        #expect(effect.hasPrefix("breathing 5:58–7:59: RMSSD 2"), "\(effect)")
        #expect(effect.contains(" → ") && effect.contains("(the minute before → the two minutes after); coherence "))
        // Paced breathing in the demo's simulated subject: one tall peak near 6/min.
        #expect((70...100).contains(Int(effect.split(separator: " ").dropLast(2).last ?? "") ?? 0), "\(effect)")
        #expect(effect.hasSuffix(" % during"))
        #expect(result.stderr.isEmpty)
    }

    @Test func badOptionsExitTwo() throws {
        for arguments in [["--speed", "0"], ["--speed", "5000"], ["--duration", "-1"], ["--scenario", "nap:5m"]] {
            let result = try Hrvmon.run(["demo"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(!result.stderr.isEmpty)
        }
    }
}
