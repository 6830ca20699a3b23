import ArgumentParser
import HRV
import Presentation

/// The step schedule of a resonance-frequency assessment: the rates, each step's length, the
/// settling seconds left out of each step's score, and (for a recording) where the steps start.
struct ResonanceSteps: ParsableArguments {
    @Option(name: .customLong("resonance-steps"), parsing: .unconditional, help: ArgumentHelp(
        "Breathing rates of the steps in the order breathed, breaths a minute, comma-separated, each 3 to 12 (`resonance` defaults to 6.5,6,5.5,5,4.5).",
        valueName: "rates"))
    var rates: RateList?

    @Option(name: .customLong("step-minutes"), parsing: .unconditional, help: "Minutes of each step, 1 to 10 (default 2).")
    var stepMinutes: Double?

    @Option(name: .customLong("settle-seconds"), parsing: .unconditional, help: "Seconds at the start of each step left out of its score while breathing and heart settle (0 to half a step; default 30).")
    var settleSeconds: Double?

    static let stepMinutesRange = 1.0...10.0

    /// Checks the values given.
    func check() throws {
        if let rates, rates.values.count < 2 {
            throw ValidationError("--resonance-steps needs at least 2 rates to compare, got \(rates.text)")
        }
        if let stepMinutes, !Self.stepMinutesRange.contains(stepMinutes) {
            throw ValidationError("--step-minutes must be 1–10 minutes, not \(stepMinutes.description)")
        }
        if let settleSeconds, !(settleSeconds >= 0 && settleSeconds <= (stepMinutes ?? 2) * 30) {
            throw ValidationError("--settle-seconds must be 0 to half a step (\(Formatting.fixed((stepMinutes ?? 2) * 30, digits: 0)) s), not \(settleSeconds.description)")
        }
    }

    /// The schedule these options describe, starting `start` seconds into the timeline.
    func schedule(start: Double, defaultRates: [Double]? = ResonanceProtocol.standardRates) -> ResonanceProtocol? {
        guard let chosen = rates?.values ?? defaultRates else { return nil }
        return ResonanceProtocol(
            rates: chosen, stepSeconds: 60 * (stepMinutes ?? 2), start: start,
            settleSeconds: settleSeconds ?? ResonanceProtocol.standardSettleSeconds)
    }
}

/// `6.5,6,5.5,5,4.5`: breathing rates a minute, each in ``ResonanceProtocol/rateRange``.
struct RateList: ExpressibleByArgument {
    var values: [Double]
    var text: String

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.filter { $0 != " " }) }
        guard !parts.isEmpty, parts.allSatisfy({ $0.map { ResonanceProtocol.rateRange.contains($0) } ?? false }) else { return nil }
        values = parts.compactMap { $0 }
        text = argument
    }

    static var defaultCompletionKind: CompletionKind { .default }
}
