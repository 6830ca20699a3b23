import Foundation
import TestSupport
import Testing

@Suite struct BreatheCommandTests {
    /// Without a terminal: one line per phase as it starts, on the pattern's schedule.
    @Test func cueLinesOffTerminal() throws {
        let result = try Hrvmon.run(["breathe", "--pattern", "4-7-8", "--minutes", "0.5", "--speed", "60"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "4-7-8: 3.2 breaths a minute for 30 s")
        #expect(Array(lines.dropFirst().prefix(5)) == [
            "0:00 inhale 4.0 s", "0:04 hold 7.0 s", "0:11 exhale 8.0 s", "0:19 inhale 4.0 s", "0:23 hold 7.0 s",
        ])
        #expect(lines.last == "done: 1 breath in 30 s")
    }

    @Test func resonanceRateAndCustomPattern() throws {
        let slow = try Hrvmon.run(["breathe", "--rate", "5", "--minutes", "0.25", "--speed", "60"]).stdout
        #expect(slow.hasPrefix("resonance: 5.0 breaths a minute for 15 s\n0:00 inhale 4.8 s\n0:05 exhale 7.2 s\n"))
        let custom = try Hrvmon.run(["breathe", "--pattern", "4-2-6-2", "--minutes", "0.25", "--speed", "60"]).stdout
        #expect(custom.contains("0:04 hold 2.0 s\n0:06 exhale 6.0 s\n0:12 hold-out 2.0 s\n"))
    }

    @Test func badPatternOrOptionExitsTwo() throws {
        let bad = try Hrvmon.run(["breathe", "--pattern", "4-9"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'4-9' is not a breathing pattern"))
        #expect(try Hrvmon.run(["breathe", "--rate", "30"]).status == 2)
    }

    /// SIGINT ends the exercise early with a summary and status 0, which tells the time it ran
    /// though no phase changed since (without the bar the pacer moves only at phase changes).
    @Test func interruptStopsCleanly() throws {
        let breathe = try LiveProcess(["breathe", "--minutes", "5"], environment: [:])
        // Interrupted once under way (its first cue is out), however long a busy machine takes to start it.
        #expect(breathe.waitForLine { $0 == "0:00 inhale 4.0 s" }, "\(breathe.allLines)\n\(breathe.stderr)")
        Thread.sleep(forTimeInterval: 2)
        breathe.signal(SIGINT)
        #expect(breathe.waitForExit() == 0)
        let stopped = try #require(breathe.allLines.first { $0.hasPrefix("stopped after ") }, "\(breathe.allLines)")
        #expect(try #require(Self.seconds(in: stopped)) >= 2, "\(stopped)")
    }

    /// The seconds of a duration ending `line`: `… in 1 min 02 s` is 62.
    static func seconds(in line: String) -> Int? {
        guard let range = line.range(of: " in ", options: .backwards) else { return nil }
        let words = line[range.upperBound...].split(separator: " ").map(String.init)
        guard words.last == "s", words.count % 2 == 0 else { return nil }
        var total = 0
        for index in stride(from: 0, to: words.count, by: 2) {
            guard let value = Int(words[index]), let scale = ["h": 3600, "min": 60, "s": 1][words[index + 1]] else { return nil }
            total += value * scale
        }
        return total
    }

    /// On a terminal: the animated bar with the phase, then the cursor and prompt come back.
    @Test func animatedOnATerminal() throws {
        let terminal = try TmuxTerminal()
        defer { terminal.close() }
        try terminal.type("\(Hrvmon.executable.path) breathe --pattern box --minutes 0.2 --speed 2; echo status=$?")
        #expect(terminal.wait { $0.contains("INHALE") && $0.contains("█") })
        #expect(!terminal.cursorVisible)
        #expect(terminal.wait { $0.contains("HOLD") })
        #expect(terminal.wait { $0.contains("done: 0 breaths in 12 s") && $0.contains("status=0") })
        #expect(terminal.cursorVisible)
    }

    /// q and a lone Esc leave as Ctrl-C does, with the summary and status 0, and the screen says
    /// so; an arrow key (which begins with Esc) does not. At 40 columns the hint and the
    /// heading are wrapped between words and the bar's line fits, so it redraws in place.
    @Test(arguments: ["q", "Escape"])
    func aKeyStopsEarly(key: String) throws {
        let terminal = try TmuxTerminal(width: 40, height: 12)
        defer { terminal.close() }
        try terminal.type("\(Hrvmon.executable.path) breathe --pattern 4-2-6-2 --minutes 5; echo status=$?")
        #expect(terminal.wait { $0.contains("q or Esc stops early") && $0.contains("INHALE") }, "\(terminal.screen)")
        let lines = terminal.screen.split(separator: "\n").map(String.init)
        // Wrapped between words, and never inside a quantity.
        #expect(lines.contains("4-2-6-2: 4.3 breaths a minute for"), "\(lines)")
        #expect(lines.contains("  5 min 00 s"), "\(lines)")
        let bar = try #require(lines.first { $0.hasPrefix("INHALE") })
        #expect(bar.count < 40 && bar.hasSuffix(" left"), "\(bar)")
        let sent = try #require(Self.secondsLeft(terminal.screen), "\(terminal.screen)")
        try terminal.key("Up")
        try terminal.key("Right")
        // The keys were in before a bar two seconds later was drawn: by then the exercise has read
        // them (its one loop reads keys and draws) and is still going.
        #expect(terminal.wait { Self.secondsLeft($0).map { $0 <= sent - 2 } ?? false }, "\(terminal.screen)")
        #expect(!terminal.screen.contains("status=0"), "an arrow key is no Esc: \(terminal.screen)")
        try terminal.key(key)
        #expect(terminal.wait { $0.contains("stopped after ") && $0.contains("status=0") }, "\(terminal.screen)")
        #expect(terminal.cursorVisible)
        // The terminal is given back as it was: what is typed at the shell's prompt (once it is
        // back; typed earlier, the echo would come before it) is echoed again, read with the
        // terminal's folds of a long prompt undone.
        #expect(terminal.wait { $0.split(separator: "\n").last.map { $0.hasSuffix("$") || $0.hasSuffix("#") } ?? false }, "\(terminal.screen)")
        try terminal.type("echo typed", enter: false)
        let joined = { (try? TmuxTerminal.tmux(["capture-pane", "-p", "-J", "-t", terminal.name])) ?? "" }
        #expect(terminal.wait { _ in joined().contains("$ echo typed") || joined().contains("# echo typed") }, "\(joined())")
    }

    /// The exercise's time left on the bar (`4:58 left`) on `screen`, in seconds.
    static func secondsLeft(_ screen: String) -> Int? {
        guard let line = screen.split(separator: "\n").last(where: { $0.hasSuffix(" left") }),
            let clock = line.split(separator: " ").dropLast().last
        else { return nil }
        let parts = clock.split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2 else { return nil }
        return parts[0] * 60 + parts[1]
    }
}
