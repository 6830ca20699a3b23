/// Where a guided breath is at any moment, driven by an injected clock.
///
/// The pacer keeps a phase in breath cycles (0…1 = one breath), not a start time, so changing the
/// pattern or its rate mid-exercise continues from the same point of the breath instead of jumping.
public struct BreathingPacer: Sendable {
    /// The pacer's position at a moment.
    public struct Position: Equatable, Sendable {
        public var phase: BreathingPattern.Phase
        /// 0…1 through the current phase.
        public var progress: Double
        /// Seconds left in the current phase.
        public var remaining: Double
        /// Completed breaths since the start.
        public var breaths: Int
    }

    /// A change of phase, for cue lines, sounds or notifications.
    public struct Cue: Equatable, Sendable {
        public var time: Double
        public var phase: BreathingPattern.Phase
        public var seconds: Double
    }

    public private(set) var pattern: BreathingPattern
    /// Breath cycles done since the start, fractional.
    private var cycles = 0.0
    private var time: Double

    public init(pattern: BreathingPattern, start: Double) {
        self.pattern = pattern
        time = start
    }

    /// The position at the current time.
    public var position: Position { Self.position(in: pattern, cycles: cycles) }

    /// Moves to `now`, returning the phase changes passed on the way, in order (the first
    /// phase's cue is `startCue`).
    public mutating func advance(to now: Double) -> [Cue] {
        guard now > time else { return [] }
        let cycle = pattern.cycle
        let target = cycles + (now - time) / cycle
        // Phase boundaries as fractions of a breath; the last one is the breath's end.
        var ends: [Double] = []
        var elapsed = 0.0
        for phase in pattern.phases {
            elapsed += phase.seconds
            ends.append(elapsed / cycle)
        }
        // A boundary counts once, in the step that reaches it within rounding.
        let tolerance = 1e-9
        var cues: [Cue] = []
        var breath = cycles.rounded(.down)
        while breath <= target + tolerance {
            for (index, end) in ends.enumerated()
            where breath + end > cycles + tolerance && breath + end <= target + tolerance {
                let next = pattern.phases[(index + 1) % pattern.phases.count]
                cues.append(Cue(time: time + (breath + end - cycles) * cycle, phase: next.phase, seconds: next.seconds))
            }
            breath += 1
        }
        cycles = target
        time = now
        return cues
    }

    /// The cue for the phase the exercise starts in.
    public var startCue: Cue {
        Cue(time: time, phase: position.phase, seconds: pattern.phases.first { $0.phase == position.phase }?.seconds ?? 0)
    }

    /// Switches pattern (or rate) now, keeping the point within the breath.
    public mutating func change(to pattern: BreathingPattern) {
        self.pattern = pattern
    }

    static func position(in pattern: BreathingPattern, cycles: Double) -> Position {
        let cycle = pattern.cycle
        let offset = cycles.truncatingRemainder(dividingBy: 1) * cycle
        var start = 0.0
        for phase in pattern.phases {
            if offset < start + phase.seconds {
                return Position(
                    phase: phase.phase, progress: (offset - start) / phase.seconds,
                    remaining: start + phase.seconds - offset, breaths: Int(cycles))
            }
            start += phase.seconds
        }
        let last = pattern.phases[pattern.phases.count - 1]
        return Position(phase: last.phase, progress: 1, remaining: 0, breaths: Int(cycles))
    }
}
