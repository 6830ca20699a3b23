import FoundationEssentials
import HRV
import Platform

/// The user's resonance-frequency assessment, kept in `resonance.json` beside the resting
/// history: the rate it recommends — the default of `breathe` and of the resonance pattern the
/// live sessions suggest — its date, and the steps' evidence.
public struct StoredResonance: Codable, Equatable, Sendable {
    public struct Step: Codable, Equatable, Sendable {
        public var bpm: Double
        public var hrAmplitudeBPM: Double?
        public var lfMS2: Double?
        public var lfPeakHz: Double?
        public var phaseDegrees: Double?
        public var score: Double?
        public var unreliable: String?

        enum CodingKeys: String, CodingKey {
            case bpm, score, unreliable
            case hrAmplitudeBPM = "hr_amplitude_bpm"
            case lfMS2 = "lf_ms2"
            case lfPeakHz = "lf_peak_hz"
            case phaseDegrees = "phase_deg"
        }
    }

    /// Local day, `YYYY-MM-DD`.
    public var date: String
    public var bestBPM: Double
    /// The leading step's LF power over the other steps' median.
    public var contrast: Double
    /// The session file the assessment was run in; nil when it kept none.
    public var session: String?
    public var steps: [Step]

    enum CodingKeys: String, CodingKey {
        case date, contrast, session, steps
        case bestBPM = "best_bpm"
    }

    /// A result worth keeping: nil when it recommends no rate.
    public init?(_ result: ResonanceResult, date: String, session: String?) {
        guard let best = result.best, let contrast = result.contrast else { return nil }
        self.date = date
        bestBPM = best
        self.contrast = contrast
        self.session = session
        steps = result.steps.indices.map { index in
            let step = result.steps[index]
            return Step(
                bpm: step.rate, hrAmplitudeBPM: step.heartRateAmplitude, lfMS2: step.lf, lfPeakHz: step.lfPeak,
                phaseDegrees: step.phase, score: result.scores[index], unreliable: step.unreliable)
        }
    }
}

extension DataDirectory {
    public static var resonanceFile: String { path + "/resonance.json" }

    /// The stored assessment; nil when there is none.
    public static func resonance() throws(Failure) -> StoredResonance? {
        let file = resonanceFile
        guard FileSystem.exists(file) else { return nil }
        do {
            let stored = try JSONDecoder().decode(StoredResonance.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
            guard ResonanceProtocol.rateRange.contains(stored.bestBPM) else {
                throw Failure(path: file, reason: "best_bpm \(stored.bestBPM) is not 3–12 breaths a minute; run `hrvmon resonance` again or delete the file")
            }
            return stored
        } catch let failure as Failure {
            throw failure
        } catch {
            let description = (error as? CocoaError)?.foundationDescription ?? "\(error)"
            throw Failure(path: file, reason: "not a readable resonance assessment (\(description)); run `hrvmon resonance` again or delete the file")
        }
    }

    public static func save(_ resonance: StoredResonance) throws(Failure) {
        try writeJSON(resonance, to: resonanceFile)
    }
}
