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

    /// Session seconds of the event-log line that contains `text` (`      m:ss  text`: the demo
    /// dates its events by time into the session, not by a time of day that never happened).
    static func time(of text: String, in screen: String) -> Int? {
        for line in screen.split(separator: "\n") where line.contains(text) {
            let label = line.dropFirst(2).prefix(8)
            let parts = label.split(separator: ":").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            if parts.count == 2, let minutes = parts[0], let seconds = parts[1] { return minutes * 60 + seconds }
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
        #expect(terminal.screen.contains(" b breathe  n note  c check in  ? help  q quit"))

        #expect(terminal.wait(timeout: 40) { $0.contains("┌─ Stress ─") }, "\(terminal.screen)")
        let screen = terminal.screen
        #expect(screen.contains("STRESS"))
        let segment = try #require(Self.time(of: "of mental stress", in: screen), "\(screen)")
        let prompt = try #require(Self.time(of: "below your reference of", in: screen), "\(screen)")
        #expect(segment == 180, "the stress segment starts 3 min into the session")
        #expect((1..<180).contains(prompt - segment), "the prompt comes within the 3-minute stress segment")

        try terminal.key("b")
        #expect(terminal.wait { $0.contains("┌─ resonance breathing, 6.0 a minute · ") && ($0.contains("│ INHALE") || $0.contains("│ EXHALE")) }, "\(terminal.screen)")
        #expect(terminal.screen.contains(" b stop breathing"))
        let started = try #require(Self.time(of: "resonance breathing started at", in: terminal.screen))
        #expect(started - segment < 180, "started by b, before the demo's own exercise")

        try terminal.key("q")
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
        #expect(!terminal.alternateScreen)
        #expect(terminal.cursorVisible)
        #expect(terminal.screen.contains(" beats, 0 malformed notifications in "))
        #expect(terminal.screen.contains("not saved: run `hrvmon demo --save` to keep it"), "\(terminal.screen)")
    }

    /// After q on a 60-column terminal the summary is wrapped between words to the width, an
    /// exercise the session ended too soon after says why its effect is missing, and the demo
    /// says that nothing was kept.
    @Test func theQuitSummaryFitsTheTerminal() throws {
        let terminal = try TmuxTerminal(width: 60, height: 30)
        defer { terminal.close() }
        // The demo's own exercise starts at 5:58 and runs at real time: the session ends 12 s into it.
        try terminal.type(try Self.command("demo --speed 1000 --duration 370"))
        #expect(terminal.wait(timeout: 30) { $0.contains("Session over") }, "\(terminal.screen)")
        try terminal.key("q")
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
        let lines = terminal.screen.split(separator: "\n").map(String.init)
        let summary = try #require(lines.firstIndex { $0.hasPrefix("    6:10  ") }, "the end, 6:10 into the session: \(lines)")
        let end = try #require(lines.lastIndex { $0 == "EXIT=0" })
        let text = lines[summary..<end].joined(separator: " ").split(separator: " ").joined(separator: " ")
        #expect(text.contains(" beats, 0 malformed notifications in 6 min 10 s · RMSSD "), "\(text)")
        #expect(text.contains("breathing 5:58–6:10: effect not measured: the session ended during the exercise; it needs 2 min 00 s after the exercise"), "\(text)")
        #expect(text.hasSuffix("not saved: run `hrvmon demo --save` to keep it"), "\(text)")
        // Joined with spaces, a line the terminal broke mid-word would leave the word split above.
        for line in lines[summary..<end] { #expect(line.count <= 60, "\(line)") }
    }

    /// The `?` help on a real terminal: drawn 200 columns wide, then at 80 and 40 after a resize,
    /// its words whole at each width (before, "b a" and "postur" ended its lines at 80).
    @Test func theHelpKeepsWholeWordsAtAnyWidth() throws {
        let terminal = try TmuxTerminal(width: 200, height: 40)
        defer { terminal.close() }
        try terminal.type(try Self.command("demo --speed 5"))
        #expect(terminal.wait(timeout: 20) { $0.contains("CALIBRATING") }, "\(terminal.screen)")
        try terminal.key("?")
        #expect(terminal.wait { $0.contains("any key closes the help") }, "\(terminal.screen)")
        // The title bar's clock moves on between screens.
        let wide = terminal.screen.split(separator: "\n").dropFirst().map(String.init)
        func cuts(_ screen: String) -> [String] { WholeWords.cuts(in: screen.split(separator: "\n").dropFirst().map(String.init), of: wide) }
        for width in [80, 40] {
            // tmux cuts the lines at the new width at once; the redrawn help has none cut.
            try terminal.resize(width: width, height: 40)
            #expect(terminal.wait { cuts($0).isEmpty && $0.contains("any key closes the help") }, "\(width) columns: \(cuts(terminal.screen))")
            #expect(terminal.screen.contains("    b       start the breathing pacer"))
        }
        try terminal.key("q")
        try terminal.key("q")
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
    }

    /// `demo --save` keeps the session where `hrvmon sessions` finds it, named by its start as
    /// monitor's are, and says so.
    @Test func saveKeepsTheSessionForSessions() throws {
        let home = try Self.home()
        let environment = ["XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run"]
        let demo = try Hrvmon.run(["demo", "--speed", "1000", "--duration", "200", "--save"], environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        let said = try #require(demo.stdout.split(separator: "\n").last.map(String.init))
        #expect(said.hasPrefix("saved as session ") && said.hasSuffix(" in \(home)/data/hrvmon/sessions; `hrvmon sessions` lists it"), "\(said)")
        let id = try #require(said.split(separator: " ").dropFirst(3).first.map(String.init))
        #expect(id.range(of: #"^\d{8}-\d{6}$"#, options: .regularExpression) != nil, "\(id)")
        let sessions = try Hrvmon.run(["sessions"], environment: environment)
        let row = try #require(sessions.stdout.split(separator: "\n").first { $0.hasPrefix(id + " ") }, "\(sessions.stdout)")
        #expect(row.contains("3 min 20 s") && row.contains("hrvmon demo strap"), "200 s of simulated session: \(row)")
        #expect(!FileManager.default.fileExists(atPath: home + "/data/hrvmon/baseline.json"), "the demo adds nothing to the personal baseline")
        let both = try Hrvmon.run(["demo", "--save", "--log", home + "/x.jsonl"], environment: environment)
        #expect(both.status == 2 && both.stderr.contains("--save keeps the session in the sessions directory"), "\(both.stderr)")
    }

    /// With JSON Lines stdout stays JSON, and where the session went is said on stderr.
    @Test func aSavedJSONLinesDemoSaysWhereOnStderr() throws {
        let home = try Self.home()
        let environment = ["XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run"]
        let demo = try Hrvmon.run(["demo", "--speed", "1000", "--duration", "20", "--save", "--format", "jsonl"], environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.split(separator: "\n").allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") }, "\(demo.stdout)")
        #expect(demo.stderr.hasPrefix("saved as session ") && demo.stderr.hasSuffix(" in \(home)/data/hrvmon/sessions; `hrvmon sessions` lists it\n"), "\(demo.stderr)")
    }

    /// The demo's strap streams its accelerometer as an H10 does: `motion` lines every second,
    /// read through the same meter as live motion, and the detector judges with them: seated rest
    /// is still, a brisk walk (+20 bpm, below the heart-rate-only activity margin) is walking and
    /// `activity`, never stress.
    static let walk = "rest:3m,activity:3m:hr=82:rmssd=22:br=18:move=walking"

    @Test func theDemoStrapOffersMotion() throws {
        let scenario = Self.walk
        let home = try Self.home()
        let environment = ["XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run"]
        let demo = try Hrvmon.run(["demo", "--scenario", scenario, "--speed", "1000", "--format", "jsonl"], environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        let lines = demo.stdout.split(separator: "\n").map(String.init)
        let motion = lines.filter { $0.contains(#""type":"motion""#) }
        #expect((350...362).contains(motion.count), "a line a second: \(motion.count)")
        #expect(motion.prefix(175).allSatisfy { $0.contains(#""level":"still""#) }, "\(motion.prefix(175).filter { !$0.contains("still") })")
        #expect(motion.dropFirst(185).allSatisfy { $0.contains(#""level":"walking""#) && $0.contains(#""spm":"#) })
        let metrics = lines.filter { $0.contains(#""type":"metrics""#) }
        #expect(metrics.contains { $0.contains(#""state":"activity""#) && $0.contains(#""motion":"walking""#) })
        #expect(metrics.contains { $0.contains(#""state":"rest""#) && $0.contains(#""motion":"still""#) })
        #expect(!lines.contains { $0.contains(#""state":"stress""#) })
        // Breathing from the chest while still (after its first 32 s), none while walking; the
        // detector takes it, and the RR spectrum while walking.
        #expect(motion[40..<175].allSatisfy { $0.contains(#""breath_per_min":"#) }, "\(motion[40..<175].filter { !$0.contains("breath") })")
        #expect(motion.dropFirst(185).allSatisfy { !$0.contains("breath") })
        let rates = motion[40..<175].compactMap { Self.number(after: #""breath_per_min":"#, in: $0) }
        #expect(rates.allSatisfy { abs($0 - 13) <= 1 }, "the rest segment breathes 13 a minute: \(rates)")
        #expect(metrics.contains { $0.contains(#""calibrating":true"#) && $0.contains(#""breathing_source":"chest""#) }, "seated rest")
        #expect(metrics.contains { $0.contains(#""state":"activity""#) && $0.contains(#""breathing_source":"rr""#) })
    }

    static func number(after key: String, in line: String) -> Double? {
        line.range(of: key).flatMap { Double(line[$0.upperBound...].prefix { $0.isNumber || $0 == "." }) }
    }

    /// `analyze` of the saved session gives the detector the `motion` lines again, in their place
    /// among the beats: the walk is activity there too, not the stress its heart rate alone reads as.
    @Test func aReplayedSessionJudgesWithItsMotion() throws {
        let home = try Self.home()
        let environment = ["XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/run"]
        let demo = try Hrvmon.run(["demo", "--scenario", Self.walk, "--speed", "1000", "--save"], environment: environment)
        #expect(demo.status == 0, "\(demo.stderr)")
        let directory = home + "/data/hrvmon/sessions"
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasSuffix(".jsonl.gz") })
        let analysed = try #require(try Hrvmon.run(["analyze", "--format", "json", directory + "/" + name], environment: environment).json)
        #expect((analysed["stress_windows"] as? [Any])?.isEmpty == true, "\(analysed["stress_windows"] ?? "")")
        #expect((analysed["activity_windows"] as? [Any])?.count == 1, "\(analysed["activity_windows"] ?? "")")
        // Its motion and where its breathing was read.
        let motion = try #require(analysed["motion_seconds"] as? [String: Double])
        #expect((170...181).contains(motion["still"] ?? 0) && (170...181).contains(motion["walking"] ?? 0), "\(motion)")
        let sources = try #require(analysed["breathing_source_seconds"] as? [String: Double])
        #expect((sources["chest"] ?? 0) > 60 && (sources["rr"] ?? 0) > 60, "\(sources)")
        let text = try Hrvmon.run(["analyze", directory + "/" + name], environment: environment).stdout
        #expect(text.contains("  Motion       still ") && text.contains("walking ") && text.contains("of the accelerometer)"), "\(text)")
        #expect(text.contains("; read for stress from ") && text.contains("from the chest ") && text.contains("from RR "), "\(text)")
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
        // 5 s of session take seconds of the wall, not the 0.08 s they would at ×60; a redraw seen
        // late on a busy machine can only make the wait longer, or the first reading earlier by a second or two.
        let started = Date()
        #expect(terminal.wait { (clock($0) ?? 0) >= first + 5 }, "\(terminal.screen)")
        let wall = Date().timeIntervalSince(started)
        #expect(wall >= 2, "5 s of breathing took \(wall) s of the wall: the exercise ran faster than real time")
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
                && lines[13] == " b breathe  n note  c check in  ? help  q quit" && lines[1].hasPrefix("  HR ")
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

    /// --no-dashboard at 40 columns: the event lines are wrapped between words, continuations
    /// under the text, and a path longer than the line is printed whole (the terminal folds it).
    @Test func narrowLinesKeepWholeWordsAndPaths() throws {
        let home = try Self.home() + "/a-directory-with-a-rather-long-name"
        try FileManager.default.createDirectory(atPath: home + "/run", withIntermediateDirectories: true)
        let terminal = try TmuxTerminal(width: 40, height: 30)
        defer { terminal.close() }
        try terminal.type(try Self.command("demo --no-dashboard --save --speed 1000 --duration 20", home: home))
        #expect(terminal.wait { $0.contains("EXIT=0") }, "\(terminal.screen)")
        // All of it, from the scrollback on; joined: the terminal's own folds undone.
        let lines = try TmuxTerminal.tmux(["capture-pane", "-p", "-S", "-", "-t", terminal.name]).split(separator: "\n").map(String.init)
        #expect(lines.contains("    0:00  sensor hrvmon demo strap"), "\(lines)")
        #expect(lines.contains("          (00:00:5E:00:53:01)"), "\(lines)")
        let joined = try TmuxTerminal.tmux(["capture-pane", "-p", "-J", "-S", "-", "-t", terminal.name])
        #expect(joined.contains(" \(home)/data/hrvmon/sessions;"), "\(joined)")
    }

    /// Off a terminal (CI): line output from start to end, the stress prompt in the stress
    /// segment, exit 0 at the end of the scenario.
    @Test func lineOutputOffATerminal() throws {
        let result = try Hrvmon.run(["demo", "--speed", "1000"])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = result.stdout.split(separator: "\n").map(String.init)
        #expect(printed.last == "not saved: run `hrvmon demo --save` to keep it")
        // Each event at its time into the session, as the dashboard's clock shows it.
        #expect(printed.first == "    0:00  sensor hrvmon demo strap (00:00:5E:00:53:01)")
        #expect(printed.contains { $0.hasPrefix("    3:00  demo: 3 min 00 s of mental stress") })
        let lines = printed.dropLast().map { String($0.dropFirst(10)) }
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
