import Analysis
import ArgumentParser
import HRV
import Presentation
import SessionLog

/// `analyze --resonance-steps`: a recorded stepped-pacer session scored as a resonance-frequency
/// assessment, beside the usual summary.
extension Analyze {
    func validateResonance() throws {
        try resonanceSteps.check()
        if let resonanceStart, !(resonanceStart >= 0 && resonanceStart.isFinite) {
            throw ValidationError("--resonance-start must be 0 or more seconds, not \(resonanceStart.description)")
        }
        let given = resonanceSteps.rates != nil
        if !given, resonanceSteps.stepMinutes != nil || resonanceSteps.settleSeconds != nil || resonanceStart != nil {
            throw ValidationError("--step-minutes, --settle-seconds and --resonance-start describe the steps of --resonance-steps RATES; give it too")
        }
        if given, series { throw ValidationError("--resonance-steps gives a summary; it cannot go with --series") }
        if given, format == .csv { throw ValidationError("--resonance-steps reports its steps as text or json, not csv") }
    }

    /// The summary, with the assessment when there is one.
    func rendered(_ summary: AnalysisSummary, resonance: ResonanceAssessment?) -> String {
        guard let resonance else { return summary.rendered(as: format) }
        let result = resonance.finish()
        switch format {
        case .json:
            var object = summary.json
            object.add("resonance", result.json(schedule: resonance.schedule))
            return object.serialized + "\n"
        default:
            let table = result.table(schedule: resonance.schedule).split(separator: "\n").map { "    \($0)" }.joined(separator: "\n")
            return summary.rendered(as: format)
                + "  Resonance    \(result.verdict)\n"
                + "               \(ResonanceResult.protocolLine(resonance.schedule))\n"
                + table + "\n"
        }
    }

    /// For a session file: the steps given here (from the session's first beat), else those the
    /// session recorded (`hrvmon resonance`).
    func resonanceAssessment(of session: SessionFile) -> ResonanceAssessment? {
        (resonanceSteps.schedule(start: resonanceStart ?? 0, defaultRates: nil) ?? ResonanceStepMark.schedule(session.resonanceSteps))
            .map(ResonanceAssessment.init)
    }
}
