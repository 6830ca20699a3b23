import Dashboard
import HRV
import Platform
import TestSupport
import Testing

/// At 40 to 120 columns nothing on the dashboard, its help, its panels or `breathe`'s bar is cut
/// mid-word: every word on a narrow screen is whole (`WholeWords`) against the same screen drawn
/// 1000 columns wide, where nothing needs cutting.
@Suite struct WholeWordsTests {
    static let widths = [40, 60, 80, 100, 120]
    static let roomy = TerminalSize(rows: 300, columns: 1000)

    /// The sparkline charts: their range is of the columns shown, so it differs with the width by design.
    static func isChart(_ line: String) -> Bool {
        ["  HR     ", "  RMSSD  ", "  state  "].contains { line.hasPrefix($0) }
    }

    /// Every word of `narrow` is whole: a word of `wide`, and next to its neighbour there.
    static func expectWholeWords(_ narrow: [String], of wide: [String], _ what: String) {
        let cuts = WholeWords.cuts(in: narrow.filter { !isChart($0) }, of: wide.filter { !isChart($0) })
        #expect(cuts.isEmpty, "\(what): \(cuts)")
    }

    static func expectWholeWords(_ state: DashboardState, _ what: String) {
        let wide = state.render(size: roomy, colors: false)
        for width in widths {
            let narrow = state.render(size: TerminalSize(rows: 60, columns: width), colors: false)
            #expect(narrow.allSatisfy { $0.count <= width })
            expectWholeWords(narrow, of: wide, "\(what) at \(width) columns")
        }
    }

    @Test func dashboardWhileCalibratingAndUnderStress() throws {
        Self.expectWholeWords(try DashboardRenderTests.replay(until: 100).state, "calibrating")
        Self.expectWholeWords(try DashboardRenderTests.replay(until: 300).state, "the stress prompt")
    }

    @Test func helpOverlay() throws {
        var state = try DashboardRenderTests.replay(until: 100).state
        _ = state.press(.character("?"))
        Self.expectWholeWords(state, "help")
    }

    @Test func pacerPanel() throws {
        let replay = try DashboardRenderTests.replay(until: 300)
        replay.startExercise(at: 300)
        replay.state.advancePacer(to: DemoReplay.start + 312.5)
        Self.expectWholeWords(replay.state, "pacer")
        replay.play(until: 420)
        Self.expectWholeWords(replay.state, "pacer with coherence")
    }

    @Test func exerciseDoneEffectAndEnd() throws {
        let replay = try DashboardRenderTests.replay(until: 300)
        replay.startExercise(at: 300)
        replay.play(until: 400)
        replay.startExercise(at: 400)
        replay.state.advancePacer(to: DemoReplay.start + 400)
        replay.run.toggleExercise(at: DemoReplay.start + 430)
        replay.play(until: 440)
        Self.expectWholeWords(replay.state, "exercise done")
        Self.expectWholeWords(try DashboardRenderTests.replay(until: 10_000).state, "effect and the end")
    }

    @Test func anExerciseCutShort() throws {
        Self.expectWholeWords(try DashboardRenderTests.exerciseCutShort().state, "cut short")
    }

    @Test func typingANote() throws {
        var state = try DashboardRenderTests.replay(until: 100).state
        _ = state.press(.character("n"))
        for character in "slept badly" { _ = state.press(.character(character)) }
        Self.expectWholeWords(state, "note")
    }

    /// `breathe`'s bar fits the line and keeps whole words: the bar shrinks first, then the
    /// breath count goes, then the time left.
    @Test func breatheLine() {
        let bar = BreathingBar(colors: false)
        var pacer = BreathingPacer(pattern: .resonance(), start: 0)
        for seconds in [0.5, 3.2, 7.9, 61.0] {
            _ = pacer.advance(to: seconds)
            let wide = bar.frame(pacer.position, elapsed: seconds, duration: 300, width: 1000)
            for width in [20, 30] + Self.widths {
                let frame = bar.frame(pacer.position, elapsed: seconds, duration: 300, width: width)
                let visible = String(frame.dropFirst(1 + BreathingBar.clearLine.count))
                #expect(visible.count < width, "\(width) columns: '\(visible)' would wrap")
                Self.expectWholeWords([visible], of: [String(wide.dropFirst(1 + BreathingBar.clearLine.count))], "breathe at \(width)")
            }
            #expect(bar.frame(pacer.position, elapsed: seconds, duration: 300, width: 80).contains(" left"), "the time left at 80 columns")
        }
    }
}
