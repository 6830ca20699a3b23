import HRV
import SessionLog

extension ResonanceResult {
    /// The assessment as the `resonance` object of `analyze --format json` (the contract in docs/reference/commands.md).
    public func json(schedule: ResonanceProtocol) -> JSONObject {
        var object = JSONObject()
        object.add("best_bpm", best)
        object.add("clear", best != nil)
        object.add("reason", noRecommendation.map { reasonText($0) })
        object.add("contrast", contrast)
        object.add("at_edge", bestIsAtEdge)
        var protocolObject = JSONObject()
        protocolObject.add("start_s", schedule.start)
        protocolObject.add("step_s", schedule.stepSeconds)
        protocolObject.add("settle_s", schedule.settleSeconds)
        protocolObject.add("inhale_share", schedule.inhaleShare)
        object.add("protocol", protocolObject)
        object.add("steps", steps.indices.map { index in
            let step = steps[index]
            var item = JSONObject()
            item.add("bpm", step.rate)
            item.add("start_s", schedule.stepStart(index))
            item.add("hr_amplitude_bpm", step.heartRateAmplitude)
            item.add("lf_ms2", step.lf)
            item.add("lf_peak_hz", step.lfPeak)
            item.add("phase_deg", step.phase)
            item.add("phase_consistency", step.phaseConsistency)
            item.add("smoothness", step.smoothness)
            item.add("score", scores[index])
            item.add("beats", step.beats)
            item.add("breaths", step.breaths)
            item.add("unreliable", step.unreliable)
            return item
        })
        return object
    }

    /// The verdict in a sentence: the rate and its evidence, or why there is none.
    public var verdict: String {
        if let best, let contrast {
            let edge = bestIsAtEdge ? "; it is the edge of the rates tried, so the resonance may lie beyond them" : ""
            return "breathe at \(Formatting.fixed(best, digits: 1)) a minute: the highest score, LF power \(Formatting.fixed(contrast, digits: 2))× the other steps' median\(edge)"
        }
        return noRecommendation.map { reasonText($0) } ?? ""
    }

    private func reasonText(_ reason: NoRecommendation) -> String {
        switch reason {
        case .tooFewReliableSteps(let reliable):
            "no recommendation: \(reliable) of \(steps.count) steps could be scored, \(ResonanceAssessment.minimumReliableSteps) are needed"
        case .noClearResonance:
            "no clear resonance: the leading step's LF power is \(Formatting.fixed(contrast ?? 0, digits: 2))× the other steps' median, \(Formatting.fixed(ResonanceAssessment.minimumContrast, digits: 2))× is needed — the rates tried give much the same response"
        }
    }

    /// The steps' evidence as a table, one row a step, the leading one marked.
    public func table(schedule: ResonanceProtocol) -> String {
        func cell(_ value: Double?, _ digits: Int, _ unit: String = "") -> String {
            value.map { Formatting.fixed($0, digits: digits) + unit } ?? "–"
        }
        var rows = [["", "rate/min", "from", "HR swing", "LF power", "LF peak", "phase", "sync", "smooth", "score", ""]]
        for (index, step) in steps.enumerated() {
            rows.append([
                index == leading ? "▶" : " ", Formatting.fixed(step.rate, digits: 1), Formatting.clock(schedule.stepStart(index)),
                cell(step.heartRateAmplitude, 1, " bpm"), cell(step.lf, 0, " ms²"), cell(step.lfPeak, 3, " Hz"),
                cell(step.phase, 0, "°"), cell(step.synchrony, 2), cell(step.smoothness, 2), cell(scores[index], 0),
                step.unreliable.map { "unreliable: \($0)" } ?? "",
            ])
        }
        // The last column is often empty: no padding left at the ends of lines.
        return Formatting.columns(rows).split(separator: "\n").map { line in
            String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n") + "\n"
    }

    /// How the steps were taken, for the reader of the table.
    public static func protocolLine(_ schedule: ResonanceProtocol) -> String {
        let share = Int((schedule.inhaleShare * 10).rounded())
        return "\(Formatting.count(schedule.rates.count, "step")) of \(Formatting.duration(schedule.stepSeconds)) from \(Formatting.clock(schedule.start)), each starting with an inhale (in:out \(share):\(10 - share)); the first \(Formatting.duration(schedule.settleSeconds)) of each step settle and are not scored"
    }
}
