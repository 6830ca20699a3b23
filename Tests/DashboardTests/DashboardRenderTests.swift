import Dashboard
import Foundation
import HRV
import Platform
import Simulation
import TestSupport
import Testing

/// The dashboard as text: what it shows at each point of the demo, at any terminal size, with
/// and without colour. The renderer is pure, so these run without a terminal.
@Suite struct DashboardRenderTests {
    static let wide = TerminalSize(rows: 32, columns: 100)

    static func replay(until seconds: Double) throws -> DemoReplay {
        let replay = try DemoReplay()
        replay.play(until: seconds)
        return replay
    }

    /// An exercise from 5:00 to 6:00, and the session ending at 6:40: too soon to measure its effect.
    static func exerciseCutShort() throws -> DemoReplay {
        let replay = try replay(until: 300)
        replay.startExercise(at: 300)
        replay.play(until: 360)
        replay.run.toggleExercise(at: DemoReplay.start + 360)
        replay.play(until: 400)
        replay.run.finish(at: DemoReplay.start + 400, seconds: 400)
        return replay
    }

    /// Characters on the screen, escapes left out.
    static func visible(_ line: String) -> String {
        var result = ""
        var inEscape = false
        for character in line {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// The number after `label` on the line that has it.
    static func number(after label: String, in lines: [String]) -> Double? {
        for line in lines {
            guard let range = line.range(of: label) else { continue }
            return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        return nil
    }

    @Test func whileCalibratingValuesProgressAndSignal() throws {
        let lines = try Self.replay(until: 100).state.render(size: Self.wide, colors: false)
        #expect(lines.count == 32)
        #expect(lines[0].hasPrefix(" hrvmon demo ×10  ·  hrvmon demo strap  ·  connected"))
        #expect(lines[0].hasSuffix("1:40 "), "session clock: \(lines[0])")
        #expect((55...70).contains(Self.number(after: "  HR ", in: lines) ?? 0))
        #expect((20...90).contains(Self.number(after: "RMSSD ", in: lines) ?? 0))
        #expect(Self.number(after: "SDNN ", in: lines) != nil)
        #expect(Self.number(after: "ln RMSSD ", in: lines) != nil)
        #expect(lines.contains { $0.hasPrefix("  CALIBRATING  resting baseline 1:") && $0.contains(" of 3:00  ") })
        #expect(lines.contains { $0.hasPrefix("  HR     ▁") || $0.hasPrefix("  HR     ▂") || $0.contains("  HR     ") && $0.contains(" bpm") })
        #expect(lines.contains { $0.hasPrefix("  state  ·") && $0.contains("last 1:") })
        // The demo's strap streams motion: still and upright at rest.
        #expect(lines.contains { $0.hasPrefix("  signal  contact ok  ·  battery 87 %  ·  chest  ·  still · upright  ·  corrected ") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("demo: 3 min 00 s of seated rest (simulated heart rate 62 bpm, RMSSD 45 ms)") })
        #expect(lines.last == " b breathe  n note  c check in  ? help  q quit")
        #expect(!lines.contains { $0.contains("rest band") }, "no band before the baseline is known")
        #expect(!lines.contains { $0.contains("α1") }, "no α1 before two minutes of beats")
    }

    @Test func inTheStressSegmentStateBandAndPrompt() throws {
        let replay = try Self.replay(until: 300)
        let suggestion = try #require(replay.suggestions.first)
        #expect((180...300).contains(suggestion.seconds), "the prompt comes in the stress segment, half a minute in at ×10")
        let lines = replay.state.render(size: Self.wide, colors: false)
        let stateLine = try #require(lines.first { $0.hasPrefix("  STRESS  level ") })
        #expect((40...100).contains(Self.number(after: "level ", in: [stateLine]) ?? 0))
        // The last two minutes' DFA α1 beside the breathing rate.
        #expect((0.2...1.8).contains(Self.number(after: "α1 ", in: [stateLine]) ?? 0), "\(stateLine)")
        let gauge = try #require(lines.first { $0.hasPrefix("  vs rest  ") })
        #expect(gauge.contains("rest band 3.") && gauge.hasSuffix(" (rolling)"))
        #expect(gauge.contains("◀") || gauge.contains("●"))
        #expect(gauge.contains("┆") && gauge.contains("═"))
        let top = try #require(lines.firstIndex { $0.hasPrefix("  ┌─ Stress ─") })
        // The reason, wrapped inside the box, then the offer and the tip.
        let offer = try #require(lines.firstIndex { $0.contains("Try 5 min of resonance breathing — press b to start the pacer.") })
        let wrapped = lines[(top + 1)..<offer].map { String($0.dropFirst(4).dropLast(2)).trimmingCharacters(in: .whitespaces) }
        #expect(wrapped.joined(separator: " ") == suggestion.suggestion.reason + ".")
        #expect(lines[offer + 1].contains("Tip: " + suggestion.suggestion.tip))
        #expect(lines[offer + 2].hasPrefix("  └──"))
    }

    /// The pacer panel follows BreathingPacer: the same phase and bar at the same moment.
    @Test func pacerInStepWithTheModel() throws {
        let replay = try Self.replay(until: 300)
        replay.startExercise(at: 300)
        let start = DemoReplay.start + 300
        #expect(replay.state.prompt == nil, "starting the exercise answers the prompt")
        var model = BreathingPacer(pattern: .resonance(), start: start)
        for seconds in [0.0, 1.3, 4.0, 6.5, 9.9, 31.2] {
            replay.state.advancePacer(to: start + seconds)
            _ = model.advance(to: start + seconds)
            #expect(replay.state.exercise?.pacer.position == model.position)
            let lines = replay.state.render(size: Self.wide, colors: false)
            let bar = BreathingBar.label(model.position.phase) + " " + BreathingBar.bar(model.position, width: 50)
            #expect(lines.contains { $0.hasPrefix("  │ " + bar + "  ") }, "\(seconds) s: \(lines.filter { $0.contains("│") })")
        }
        let lines = replay.state.render(size: Self.wide, colors: false)
        #expect(lines.contains { $0.hasPrefix("  ┌─ resonance breathing, 6.0 a minute · ") })
        #expect(lines.contains { $0.hasPrefix("  │ coherence in 0:") }, "no reading before the exercise's first 64 s")
        #expect(lines.last == " b stop breathing  n note  c check in  ? help  q quit")
        #expect(!replay.state.exerciseIsDue(at: start + 299))
        #expect(replay.state.exerciseIsDue(at: start + 300))
        // Past the first 64 s of beats, the newest coherence reading and the rate it shows.
        replay.play(until: 420)
        let coherence = try #require(replay.state.render(size: Self.wide, colors: false).first { $0.hasPrefix("  │ coherence ") })
        let score = try #require(Self.number(after: "coherence ", in: [coherence]))
        #expect((0...100).contains(score) && coherence.contains(" %  at ") && coherence.contains("/min"), "\(coherence)")
        // The demo's breathing segment (6/min from 6:00) has filled the chest's 32 s: the pacer's
        // feedback reads the chest's rate.
        let feedback = replay.state.render(size: Self.wide, colors: false).first { $0.hasPrefix("  │ breathing ") }
        #expect(feedback?.contains("/min (chest): with the pacer") == true, "\(feedback ?? "no feedback line")")
    }

    /// While walking the chest reads no breathing: the feedback is the RR spectrum's, and says
    /// so; breathing at 13/min is not with a 6/min pacer.
    @Test func thePacersFeedbackFallsBackToTheRRSpectrum() throws {
        let replay = try DemoReplay(scenario: try Scenario(parsing: "rest:3m,rest:3m:move=walking"))
        replay.play(until: 240)
        replay.startExercise(at: 240)
        replay.play(until: 250)
        let lines = replay.state.render(size: Self.wide, colors: false)
        let feedback = lines.first { $0.hasPrefix("  │ breathing ") }
        #expect(feedback?.contains("/min (RR): not with the pacer, breathe slower") == true, "\(lines)")
    }

    /// A resonance assessment's step is paced like an exercise, named as its step, stopped with q
    /// (b is the assessment's), and shows no coherence line (steps have their own scores).
    @Test func aResonanceStepIsPacedAsItsStep() throws {
        var state = DashboardState(configuration: .init(
            title: "resonance", start: 1_000, pattern: .resonance(), exerciseSeconds: 120, calibrationSeconds: 180,
            onsetMargin: 1.25, acceptsKeys: true))
        let mark = ResonanceStepMark(
            index: 1, rate: 5.5, stepSeconds: 120, settleSeconds: 30, inhaleShare: 0.4, time: 1_100, sessionSeconds: 100)
        state.apply(.resonanceStep(mark), at: 1_100)
        state.advancePacer(to: 1_112)
        let lines = state.render(size: Self.wide, colors: false)
        #expect(lines.contains { $0.hasPrefix("  ┌─ resonance assessment, step 2, 5.5 a minute · 0:12 of 2:00 ") }, "\(lines)")
        #expect(lines.contains { $0.contains("Breathe with the bar; q stops the assessment.") })
        #expect(!lines.contains { $0.contains("coherence") })
        var end = mark
        end.index = 5
        end.rate = nil
        state.apply(.resonanceStep(end), at: 1_700)
        #expect(state.exercise == nil, "the end of the assessment clears the pacer")
    }

    /// The strap's accelerometer, when it has one: its latest second on the signal line, gone once
    /// it is five seconds old (streams stopped).
    @Test func motionIsOnTheSignalLine() {
        var state = DashboardState(configuration: .init(
            title: "monitor", start: 1_000, pattern: .resonance(), exerciseSeconds: 120, calibrationSeconds: 180,
            onsetMargin: 1.25, acceptsKeys: true))
        state.apply(.motion(MotionSecond(level: .walking, intensity: 180, cadence: 108.4, posture: .upright)), at: 1_010)
        let signal = state.render(size: Self.wide, colors: false).first { $0.hasPrefix("  signal  ") }
        #expect(signal?.contains("  ·  walking 108 steps/min · upright") == true, "\(signal ?? "no signal line")")
        state.apply(.motion(MotionSecond(level: .still, intensity: 8, posture: .lying)), at: 1_011)
        #expect(state.render(size: Self.wide, colors: false).contains { $0.contains("  ·  still · lying") })
        state.apply(.notice("later"), at: 1_017)
        #expect(!state.render(size: Self.wide, colors: false).contains { $0.contains("still · lying") }, "stale motion stays up")
    }

    /// The demo takes the exercise in its breathing segment; at the end its effect is shown.
    @Test func effectOfTheExerciseAndTheEnd() throws {
        let replay = try Self.replay(until: 10_000)
        let lines = replay.state.render(size: Self.wide, colors: false)
        let top = try #require(lines.firstIndex { $0.hasPrefix("  ┌─ Effect of the exercise ─") })
        #expect(lines[top + 1].hasPrefix("  │         before      during      after"))
        let rmssd = lines[top + 2]
        #expect(rmssd.hasPrefix("  │ RMSSD   "))
        let values = rmssd.split(separator: " ").compactMap { Double($0) }
        #expect(values.count == 3 && values[1] > 1.5 * values[0], "breathing raises RMSSD: \(rmssd)")
        #expect(lines[top + 3].hasPrefix("  │ HR      "))
        #expect(lines[top + 4].hasPrefix("  │ coherence "), "the exercise's coherence under its numbers")
        #expect((70...100).contains(Int(Self.number(after: "coherence ", in: [lines[top + 4]]) ?? 0)), "\(lines[top + 4])")
        #expect(lines[top + 4].contains(" % during the exercise (mean of "))
        #expect(lines.contains { $0.hasPrefix("  ┌─ Session over ─") })
        #expect(lines.contains { $0.contains("Press q to quit.") })
        #expect(lines[0].contains("ended  10:00"))
        #expect(lines.last == " s was that stress?  ? help  q quit")
    }

    /// What the demo leaves on the normal screen after q: wrapped between words to the terminal's
    /// width, its time into the session (the demo's times of day never happened), and for an
    /// exercise the session ended too soon after, why its effect is missing.
    @Test func quitSummaryIsWrappedAndSaysWhyAnEffectIsMissing() throws {
        let replay = try Self.exerciseCutShort()
        let wide = replay.state.closingLines(width: 1000)
        #expect(wide.count == 2)
        #expect(wide[0].hasPrefix("    6:40  ") && wide[0].contains(" beats, 0 malformed notifications in 6 min 40 s · RMSSD "), "\(wide)")
        #expect(wide[1].trimmingCharacters(in: .whitespaces).hasPrefix("breathing 5:0"), "\(wide)")
        // The exercise ran 5:00–6:00 of session time; the session ended at 6:40.
        #expect(wide[1].range(of: #": effect not measured: the session ended 4\d s after the exercise; it needs 2 min 00 s after the exercise$"#, options: .regularExpression) != nil, "\(wide)")
        #expect(!wide[1].contains("→"), "no dash where a number would be")
        for width in [40, 60, 80] {
            let narrow = replay.state.closingLines(width: width)
            #expect(narrow.allSatisfy { $0.count <= width }, "\(width): \(narrow)")
            #expect(narrow.count > 2)
            #expect(narrow.map { $0.split(separator: " ").joined(separator: " ") } .joined(separator: " ")
                == wide.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: " "), "every word, whole, in order")
        }
        // The effect's panel and its event line say the same.
        let lines = replay.state.render(size: TerminalSize(rows: 60, columns: 120), colors: false)
        #expect(lines.contains { $0.hasPrefix("  │ after not measured: the session ended 4") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("      6:40  exercise effect: before RMSSD ") }, "the log at its time into the session: \(lines)")
    }

    @Test func noColorMeansNoEscapes() throws {
        let state = try Self.replay(until: 300).state
        let plain = state.render(size: Self.wide, colors: false)
        #expect(!plain.contains { $0.contains("\u{1B}") })
        let colored = state.render(size: Self.wide, colors: true)
        #expect(colored.contains { $0.contains("\u{1B}[1;31mSTRESS\u{1B}[0m") })
        #expect(colored[0].hasPrefix("\u{1B}[7m hrvmon"))
        #expect(colored.map(Self.visible) == plain, "colour adds escapes, never text")
    }

    @Test(arguments: [(32, 100), (24, 80), (16, 60), (10, 40), (6, 30), (3, 20), (2, 12), (1, 8), (40, 250)])
    func everySizeFits(rows: Int, columns: Int) throws {
        let size = TerminalSize(rows: rows, columns: columns)
        for seconds in [0.0, 100, 300, 10_000] {
            let lines = try Self.replay(until: seconds).state.render(size: size, colors: true)
            #expect(lines.count == rows)
            for line in lines { #expect(Self.visible(line).count <= columns, "\(rows)×\(columns) at \(seconds) s: \(line)") }
            #expect(Self.visible(lines[0]).hasPrefix(String(" hrvmon demo ×10".prefix(columns))))
        }
    }

    /// On a smaller terminal the numbers and the prompt stay: blank lines go first, then the
    /// charts, the gauge and the signal; last, the prompt shrinks to one line.
    @Test func smallTerminalKeepsWhatMatters() throws {
        let state = try Self.replay(until: 300).state
        let tall = state.render(size: TerminalSize(rows: 20, columns: 80), colors: false)
        #expect(tall.contains { $0.hasPrefix("  RMSSD  ") })
        let medium = state.render(size: TerminalSize(rows: 16, columns: 80), colors: false)
        #expect(medium.contains { $0.hasPrefix("  ┌─ Stress") })
        #expect(!medium.contains(""), "no blank line while something else needs the room")
        let small = state.render(size: TerminalSize(rows: 12, columns: 60), colors: false)
        #expect(small.contains { $0.hasPrefix("  HR ") })
        #expect(small.contains { $0.hasPrefix("  STRESS  level") })
        // The explanation's numbers are those at the episode's onset, which the detector's
        // reading of the demo strap's motion moves by seconds: its words are what must stay.
        #expect(small.contains { $0.hasPrefix("  STRESS RMSSD ") && $0.contains(" % below your reference of ") }, "\(small)")
        #expect(!small.contains { $0.hasPrefix("  RMSSD  ") }, "charts left out")
        #expect(small.last == " b breathe  n note  c check in  ? help  q quit")
    }

    /// At 40 columns nothing is cut off: lines too long for the width fold at their fields, so
    /// every number, the rest band, the signal and the newest event can still be read in full.
    @Test func fortyColumnsFoldRatherThanCut() throws {
        let state = try Self.replay(until: 300).state
        let narrow = state.render(size: TerminalSize(rows: 24, columns: 40), colors: false)
        let wide = state.render(size: TerminalSize(rows: 40, columns: 200), colors: false)
        #expect(narrow.allSatisfy { $0.count <= 40 })
        let screen = narrow.joined(separator: "\n")
        for field in ["HR ", "RMSSD ", "SDNN ", "ln RMSSD ", "pNN50 ", "rest band ", "battery 87 %", "corrected "] {
            #expect(screen.contains(field), "\(field) missing at 40 columns:\n\(screen)")
        }
        // Every number of the wide screen's first line is on the narrow screen too, whole.
        let metrics = try #require(wide.first { $0.hasPrefix("  HR ") })
        let tokens = Set(screen.split(whereSeparator: \.isWhitespace))
        for value in metrics.split(separator: " ") where Double(value) != nil {
            #expect(tokens.contains(value), "\(value) cut at 40 columns")
        }
        #expect(narrow[0].hasSuffix("5:00 "), "the clock stays when the title's other parts go: \(narrow[0])")
        #expect(narrow.suffix(2) == [" b breathe  n note  c check in  ? help", " q quit"], "the keys fold between them")
    }

    @Test func foldingBreaksAtFieldsAndKeepsStyles() {
        var line = StyledLine("  HR ")
        line.append("68", .strong)
        line.append(" bpm   RMSSD ")
        line.append("32.7", .strong)
        line.append(" ms   SDNN 55.3 ms")
        let folded = line.folded(width: 24)
        #expect(folded.map { $0.rendered(colors: false) } == ["  HR 68 bpm   RMSSD 32.7", "    ms   SDNN 55.3 ms"] || folded.map { $0.rendered(colors: false) } == ["  HR 68 bpm", "    RMSSD 32.7 ms", "    SDNN 55.3 ms"])
        #expect(folded.allSatisfy { $0.count <= 24 })
        #expect(folded.flatMap(\.parts).contains { $0.text == "32.7" && $0.style == .strong })
        #expect(line.folded(width: 80).map { $0.rendered(colors: false) } == [line.rendered(colors: false)], "a line that fits is itself")
        let words = StyledLine("  12:00:00  demo: 3 min 00 s of mental stress (simulated heart rate 80 bpm)").folded(width: 30, indent: 12)
        #expect(words.allSatisfy { $0.count <= 30 })
        #expect(words.flatMap { $0.rendered(colors: false).split(separator: " ") }.joined(separator: " ")
            == "12:00:00 demo: 3 min 00 s of mental stress (simulated heart rate 80 bpm)", "no word lost or cut")
    }

    @Test func helpScreen() throws {
        var state = try Self.replay(until: 100).state
        #expect(state.press(.character("?")) == nil)
        let lines = state.render(size: Self.wide, colors: false)
        #expect(lines[1] == "  Keys")
        #expect(lines.contains { $0.hasPrefix("    b       start the breathing pacer (resonance, 6.0 a minute, 5 min 00 s)") })
        #expect(lines.contains { $0.hasPrefix("    n       type a note into the session") })
        #expect(lines.last == " any key closes the help")
        #expect(state.press(.character("q")) == nil, "a key closes the help and does nothing else")
        #expect(state.mode == .normal)
    }

    @Test func noteIsTypedInTheDashboard() throws {
        var state = try Self.replay(until: 100).state
        #expect(state.press(.character("n")) == nil)
        for character in "tea ☕x" { _ = state.press(.character(character)) }
        #expect(state.press(.backspace) == nil)
        #expect(state.render(size: Self.wide, colors: false).last?.hasPrefix(" note: tea ☕█   Enter saves · Esc cancels") == true)
        #expect(state.press(.character("b")) == nil, "b is text while a note is typed")
        #expect(state.press(.enter) == .saveNote("tea ☕b"))
        #expect(state.mode == .normal)
        _ = state.press(.character("n"))
        _ = state.press(.character("x"))
        #expect(state.press(.escape) == nil)
        #expect(state.mode == .normal)
        _ = state.press(.character("n"))
        #expect(state.press(.enter) == nil, "an empty note is not saved")
    }

    @Test func keysAskTheSession() throws {
        var state = try Self.replay(until: 100).state
        #expect(state.press(.character("b")) == .toggleExercise)
        #expect(state.press(.character("q")) == .quit)
        #expect(state.press(.redraw) == .redrawAll)
        #expect(state.press(.character("z")) == nil)
        let ended = try Self.replay(until: 10_000)
        #expect(ended.state.summary != nil)
        #expect(ended.state.press(.character("b")) == nil, "no exercise once the session is over")
        #expect(ended.state.press(.character("q")) == .quit)
    }
}
