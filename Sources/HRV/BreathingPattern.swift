/// A breathing exercise: the phases of one breath and their lengths.
public struct BreathingPattern: Equatable, Sendable {
    public enum Phase: String, Sendable, CaseIterable {
        case inhale
        /// Hold with full lungs.
        case holdIn = "hold"
        case exhale
        /// Hold with empty lungs.
        case holdOut = "hold-out"
    }

    public var name: String
    /// Phases in order with their seconds; phases of zero length are left out.
    public private(set) var phases: [(phase: Phase, seconds: Double)]

    public init(name: String, inhale: Double, holdIn: Double = 0, exhale: Double, holdOut: Double = 0) {
        self.name = name
        phases = [(.inhale, inhale), (.holdIn, holdIn), (.exhale, exhale), (.holdOut, holdOut)].filter { $0.1 > 0 }
    }

    /// Seconds of one breath.
    public var cycle: Double { phases.reduce(0) { $0 + $1.seconds } }
    public var breathsPerMinute: Double { 60 / cycle }

    /// Breaths a minute either side of the pattern's rate that still keep to it.
    public static let followingTolerance = 1.0

    /// Whether breathing at `rate` (breaths per minute, the chest's or the RR spectrum's) keeps
    /// to the pattern: the pacer's feedback.
    public func isFollowed(atRate rate: Double) -> Bool { abs(rate - breathsPerMinute) <= Self.followingTolerance }

    /// Resonance (coherent) breathing: about 6 breaths a minute, where heart rate oscillation and
    /// breathing reinforce each other (Lehrer & Gevirtz 2014); inhale:exhale 4:6 by default.
    public static func resonance(breathsPerMinute: Double = 6, inhaleShare: Double = 0.4) -> BreathingPattern {
        let cycle = 60 / breathsPerMinute
        return BreathingPattern(name: "resonance", inhale: cycle * inhaleShare, exhale: cycle * (1 - inhaleShare))
    }

    /// Box breathing: 4 s in, hold, out, hold.
    public static let box = BreathingPattern(name: "box", inhale: 4, holdIn: 4, exhale: 4, holdOut: 4)
    /// 4-7-8 breathing (Weil): 4 s in, 7 s hold, 8 s out.
    public static let fourSevenEight = BreathingPattern(name: "4-7-8", inhale: 4, holdIn: 7, exhale: 8)

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var text: String
        public var description: String {
            "'\(text)' is not a breathing pattern: use resonance, box, 4-7-8 or seconds IN-HOLD-OUT[-HOLD] (e.g. 5-0-5), each 0–30 s with at least 1 s in and out"
        }
    }

    /// `resonance`, `box`, `4-7-8`, or custom seconds `IN-HOLD-OUT[-HOLD]`.
    public init(parsing text: String, resonanceRate: Double = 6) throws(ParseError) {
        switch text.lowercased() {
        case "resonance", "coherent": self = .resonance(breathsPerMinute: resonanceRate)
        case "box": self = .box
        case "4-7-8", "478": self = .fourSevenEight
        default:
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Double($0) }
            guard (3...4).contains(parts.count), parts.allSatisfy({ $0.map { (0...30).contains($0) } ?? false }),
                  let inhale = parts[0], let exhale = parts[2], inhale >= 1, exhale >= 1
            else { throw ParseError(text: text) }
            self.init(name: text, inhale: inhale, holdIn: parts[1] ?? 0, exhale: exhale, holdOut: parts.count == 4 ? parts[3] ?? 0 : 0)
        }
    }

    public static func == (lhs: BreathingPattern, rhs: BreathingPattern) -> Bool {
        lhs.name == rhs.name && lhs.phases.elementsEqual(rhs.phases) { $0.phase == $1.phase && $0.seconds == $1.seconds }
    }
}
