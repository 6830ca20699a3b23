import HRV
import Presentation

/// The dashboard's boxed panels — the stress prompt, the pacer, the finished exercise and its
/// measured effect, the end of the session — and its help screen.
extension DashboardState {
    /// Each panel in full, and in one line for a small terminal.
    public func panels(width: Int) -> [(full: [StyledLine], compact: [StyledLine])] {
        let inner = max(10, min(96, width - 8))
        var panels: [(full: [StyledLine], compact: [StyledLine])] = []
        if let prompt {
            var line = StyledLine("  STRESS ", .alarm)
            line.append(prompt.reason + (configuration.acceptsKeys ? " — b: breathe" : ""))
            panels.append((box("Stress", .alarm, promptLines(prompt, inner), inner), [line]))
        }
        if let exercise { panels.append(pacerPanel(exercise, inner)) }
        if let (pattern, seconds) = finishedExercise {
            let text = "\(Formatting.duration(seconds)) of \(pattern) breathing. Its effect is measured over the next "
                + "\(Formatting.duration(ExerciseEffect.settle)): RMSSD and heart rate before, during and after."
            panels.append((
                box("Exercise done", .calm, Formatting.wrap(text, width: inner).map { StyledLine($0) }, inner),
                [StyledLine("  exercise done: its effect follows in \(Formatting.duration(ExerciseEffect.settle))", .calm)]))
        }
        if let effect { panels.append((box("Effect of the exercise", .good, effectLines(effect, inner), inner), [StyledLine("  " + effect.summary, .good)])) }
        if let summary {
            var lines = Formatting.wrap(SessionText.summary(summary), width: inner).map { StyledLine($0) }
            for effect in SessionText.effects(summary) { lines += Formatting.wrap(effect, width: inner).map { StyledLine($0, .good) } }
            if configuration.acceptsKeys { lines.append(StyledLine("Press q to quit.", .faint)) }
            panels.append((box("Session over", .strong, lines, inner), [StyledLine("  session over: " + SessionText.summary(summary), .strong)]))
        }
        return panels
    }

    private func promptLines(_ prompt: BreathingCoach.Suggestion, _ inner: Int) -> [StyledLine] {
        let action = "Try \(Formatting.fixed(prompt.minutes, digits: 0)) min of \(prompt.pattern.name) breathing"
            + (configuration.acceptsKeys ? " — press b to start the pacer." : " (`hrvmon breathe` paces you).")
        return Formatting.wrap(prompt.reason + ".", width: inner).map { StyledLine($0, .strong) }
            + Formatting.wrap(action, width: inner).map { StyledLine($0) }
            + Formatting.wrap("Tip: " + prompt.tip, width: inner).prefix(2).map { StyledLine($0, .faint) }
    }

    private func pacerPanel(_ exercise: Exercise, _ inner: Int) -> (full: [StyledLine], compact: [StyledLine]) {
        let pattern = exercise.pacer.pattern
        let position = exercise.pacer.position
        let elapsed = exercise.time - exercise.start
        let bar = BreathingBar.line(position, width: inner, longest: 50)
        let what = exercise.step.map { "resonance assessment, step \($0)" } ?? "\(pattern.name) breathing"
        let title = "\(what), \(Formatting.fixed(pattern.breathsPerMinute, digits: 1)) a minute · "
            + "\(Formatting.clock(elapsed)) of \(Formatting.clock(configuration.exerciseSeconds))"
        let stops = exercise.step == nil ? "b stops the exercise" : "q stops the assessment"
        let hint = configuration.acceptsKeys ? "Breathe with the bar; \(stops)." : "Breathe with the bar."
        var compact = StyledLine("  ")
        compact.append(bar)
        if let coherence = latest?.coherence { compact.append("  " + Coherence.text(coherence.score), .strong) }
        // A resonance step is scored by its own criteria; coherence is measured for exercises.
        let feedback = followingLine(pattern).map { [$0] } ?? []
        let lines = exercise.step == nil ? [bar, coherenceLine(elapsed)] + feedback + [StyledLine(hint, .faint)] : [bar] + feedback + [StyledLine(hint, .faint)]
        return (box(title, BreathingBar.style(position.phase), lines, inner), [compact])
    }

    /// Whether the wearer breathes with the pacer: the chest's breathing rate while the strap's
    /// accelerometer reads it, the RR spectrum's otherwise; nil before either has one.
    private func followingLine(_ pattern: BreathingPattern) -> StyledLine? {
        guard let assessment = latest?.assessment, let rate = assessment.breathingRate else { return nil }
        let breathing = "breathing \(Formatting.fixed(rate, digits: 1))/min\(Self.from(assessment.breathingSource))"
        if pattern.isFollowed(atRate: rate) { return StyledLine(breathing + ": with the pacer", .good) }
        let way = rate > pattern.breathsPerMinute ? "slower" : "faster"
        return StyledLine(breathing + ": not with the pacer, breathe \(way)", .warning)
    }

    /// The exercise's newest coherence reading with the rate it shows, or when the first comes.
    private func coherenceLine(_ elapsed: Double) -> StyledLine {
        guard let coherence = latest?.coherence else {
            let wait = max(0, CoherenceMeter.window - elapsed)
            return StyledLine(wait > 0 ? "coherence in \(Formatting.clock(wait))" : "coherence: waiting for a steady minute", .faint)
        }
        var line = StyledLine(Coherence.text(coherence.score), .strong)
        line.append("  at \(Formatting.fixed(coherence.peakFrequency * 60, digits: 1))/min", .faint)
        return line
    }

    /// A table of RMSSD and HR before, during and after, its columns narrower in a narrow box;
    /// under it the coherence, or why the minutes after were not measured.
    private func effectLines(_ effect: ExerciseEffect, _ inner: Int) -> [StyledLine] {
        let spans = [("before", effect.before), ("during", effect.during), ("after", effect.after)]
        let column = max(8, min(12, (inner - 8) / 3))
        func row(_ name: String, _ value: (IntervalStatistics) -> Double?, _ digits: Int, _ unit: String) -> StyledLine {
            var line = StyledLine(name.padding(toLength: 8))
            for (_, statistics) in spans {
                line.append((value(statistics).map { Formatting.fixed($0, digits: digits) + " " + unit } ?? "–").padding(toLength: column), .strong)
            }
            return line
        }
        var header = StyledLine("".padding(toLength: 8))
        for (name, _) in spans { header.append(name.padding(toLength: column), .faint) }
        var rows = [header, row("RMSSD", \.rmssd, 0, "ms"), row("HR", \.meanHR, 0, "bpm")]
        if let shortfall = effect.shortfall { rows.append(StyledLine("after not measured: " + shortfall, .faint)) }
        guard let score = effect.coherence.meanScore else { return rows }
        return rows + [StyledLine(Coherence.text(score) + " during the exercise (mean of \(effect.coherence.readings) readings)")]
    }

    /// `lines` in a frame with `title` on its top edge, `inner` characters wide inside. A title
    /// too long for the edge goes on inside, and lines too long fold, between words.
    private func box(_ title: String, _ style: StyledLine.Style, _ lines: [StyledLine], _ inner: Int) -> [StyledLine] {
        let titleLines = Formatting.wrap(title, width: inner - 1)
        let heading = " \(titleLines.first ?? "") "
        var top = StyledLine("  ┌─")
        top.append(heading, style)
        top.append(String(repeating: "─", count: max(0, inner + 1 - heading.count)) + "┐")
        let contents = titleLines.dropFirst().map { StyledLine($0, style) } + lines.flatMap { $0.folded(width: inner, indent: 2) }
        let middle = contents.map { content -> StyledLine in
            var line = StyledLine("  │ ")
            line.append(content.fitted(to: inner))
            line.append(" │")
            return line
        }
        return [top] + middle + [StyledLine("  └" + String(repeating: "─", count: inner + 2) + "┘")]
    }

    /// The help screen, its lines folded between words to `width`.
    public func helpLines(width: Int) -> [StyledLine] {
        let pattern = configuration.pattern
        let exercise = "\(pattern.name), \(Formatting.fixed(pattern.breathsPerMinute, digits: 1)) a minute, \(Formatting.duration(configuration.exerciseSeconds))"
        let keys: [(String, String)] = [
            ("b", "start the breathing pacer (\(exercise)); b again stops it"),
            ("n", "type a note into the session; Enter saves it, Esc drops it"),
            ("c", "check in: your mood (1–5), then what you are doing, who you are with, where you are; Tab completes to an earlier answer"),
            ("s", "after a stress episode: was that stress? y, n or u (not sure) labels it in the session"),
            ("q", "quit: the session ends with its summary (Ctrl-C too)"),
            ("?", "this help"),
            ("Ctrl-L", "draw the screen again"),
        ]
        let screen = [
            "numbers: corrected beats of the last window.rmssd_seconds (SDNN: window.sdnn_seconds)",
            "state: rest, elevated, stress, activity, recovery, paced breathing or posture, against your recent rest; level 0–100",
            "vs rest: ln RMSSD in SDs from the reference: ═ the rest band (±1 SD), ┆ stress may begin, ● now",
            "charts: \(Formatting.fixed(TrendHistory.bucketSeconds, digits: 0)) s a column; ▁ rest ▄ elevated █ stress ▒ activity ░ recovery ~ paced ╎ posture · unknown",
            "signal: skin contact, battery, beats changed by correction, malformed notifications",
        ]
        return [StyledLine("  Keys", .strong)]
            + keys.flatMap { key, text in
                var line = StyledLine("    " + key.padding(toLength: 8), .strong)
                line.append(text)
                return line.folded(width: width, indent: 12)
            }
            + [StyledLine(), StyledLine("  On the screen", .strong)]
            + screen.flatMap { StyledLine("    " + $0).folded(width: width, indent: 6) }
    }
}
