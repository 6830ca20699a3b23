/// The physiological state simulated during one segment of a scenario. The defaults are the
/// sizes of effect the literature reports against a seated rest of 62 bpm and RMSSD 45 ms.
public enum SegmentKind: String, Sendable, CaseIterable {
    /// Seated rest: ~62 bpm, high vagal HRV, spontaneous breathing ~13/min with RSA.
    case rest
    /// Moderate mental stress: HR +8 bpm, RMSSD −35 %, faster breathing (18/min) — the size of
    /// the effects pooled by Castaldo et al. 2015 (laboratory stressors lower RMSSD and HF
    /// modestly and raise HR by a few bpm), not an exercise-sized response.
    case stress
    /// Paced resonance breathing (default 6/min): HR flat, RMSSD up ~30 % with a very large RSA
    /// (Laborde et al. 2022 meta-analysis of slow-paced breathing: RMSSD rises, HR unchanged;
    /// Lehrer & Gevirtz 2014).
    case breathing
    /// Physical exercise: HR ~135 bpm, RMSSD very low, breathing ~28/min.
    case activity
    /// After exercise: rest targets, approached slowly. Entered from exercise, HR falls fast in
    /// the first minute and then slowly (a 15-minute component), and RMSSD stays suppressed,
    /// recovering with a 20-minute time constant (Imai et al. 1994; Stanley et al. 2013;
    /// Michael et al. 2017).
    case recovery
    /// Talking: HR +4 bpm, RMSSD about −10 %, irregular breathing of varying depth (speech
    /// drives breathing; Bernardi et al. 2000).
    case talking
    /// Standing after sitting: HR +12 bpm reached within seconds after an overshoot peaking
    /// ~8 s after the change, RMSSD −33 %, more Mayer-wave (LF) power (orthostatic response;
    /// Finucane et al. 2019 on the initial HR overshoot).
    case standing

    /// Default target heart rate (bpm) of a segment of this kind.
    public var defaultHeartRate: Double {
        switch self {
        case .rest: 62
        case .stress: 70
        case .breathing: 62
        case .activity: 135
        case .recovery: 62
        case .talking: 66
        case .standing: 74
        }
    }

    /// Default target RMSSD (ms) of a segment of this kind.
    public var defaultRMSSD: Double {
        switch self {
        case .rest: 45
        case .stress: 29
        case .breathing: 58
        case .activity: 7
        case .recovery: 45
        case .talking: 41
        case .standing: 30
        }
    }

    /// Default breathing rate (breaths per minute) of a segment of this kind.
    public var defaultBreathingRate: Double {
        switch self {
        case .rest: 13
        case .stress: 18
        case .breathing: 6
        case .activity: 28
        case .recovery: 14
        case .talking: 15
        case .standing: 14
        }
    }
}

/// How the body moves during a segment, as a chest accelerometer feels it.
public enum Movement: String, Sendable, CaseIterable {
    /// Seated or standing without steps: breathing moves the chest, talking adds gestures.
    case still
    /// Steps at a brisk walk's cadence (~115 a minute), a few hundred mG each.
    case walking
    /// Steps at a run's cadence (~165 a minute), about a G each.
    case running
}

extension SegmentKind {
    /// How a segment of this kind moves unless told: exercise runs, everything else is still.
    public var defaultMovement: Movement { self == .activity ? .running : .still }
}

/// One stretch of a scenario: a physiological state held for `duration` seconds.
///
/// `heartRate`, `rmssd` and `breathingRate` are the *steady-state* targets; the
/// simulator approaches them with first-order lags, so the first ~1–2 minutes
/// of a segment are a transition from the previous one.
public struct Segment: Sendable, Equatable {
    public var kind: SegmentKind
    /// Seconds.
    public var duration: Double
    /// Target mean heart rate, bpm.
    public var heartRate: Double
    /// Target RMSSD level, ms.
    public var rmssd: Double
    /// Breathing rate, breaths per minute.
    public var breathingRate: Double
    /// What the chest accelerometer feels (``SimulatedAccelerometer``); the RR do not depend on it.
    public var movement: Movement

    /// Creates a segment; omitted targets take the defaults of `kind`
    /// (see ``SegmentKind/defaultHeartRate`` and friends).
    public init(
        kind: SegmentKind,
        duration: Double,
        heartRate: Double? = nil,
        rmssd: Double? = nil,
        breathingRate: Double? = nil,
        movement: Movement? = nil
    ) {
        self.kind = kind
        self.duration = duration
        self.heartRate = heartRate ?? kind.defaultHeartRate
        self.rmssd = rmssd ?? kind.defaultRMSSD
        self.breathingRate = breathingRate ?? kind.defaultBreathingRate
        self.movement = movement ?? kind.defaultMovement
    }
}

/// A sequence of segments plus the artifacts to inject into the RR stream.
///
/// Scenarios can be built in code, taken from ``presets``, or parsed from the
/// textual grammar documented at ``init(parsing:)``.
public struct Scenario: Sendable, Equatable {
    public var segments: [Segment]
    /// Mean rate of ectopic (premature) beats per minute, placed as a Poisson
    /// process from the simulator's seed. Default 0.
    public var ectopicPerMinute: Double
    /// Number of missed beats (the strap misses an R wave, two RRs merge),
    /// placed deterministically from the seed. Default 0.
    public var missedBeats: Int
    /// Number of extra beats (a spurious detection splits one RR in two),
    /// placed deterministically from the seed. Default 0.
    public var extraBeats: Int
    /// Explicit ectopic beat times, seconds from the start (in addition to
    /// ``ectopicPerMinute``). The first sinus beat at or after each time is
    /// replaced by a premature beat. Default empty.
    public var ectopicTimes: [Double]
    /// The subject's resonance; when set, every `breathing` segment is paced: its breaths follow
    /// a pacer exactly (inhale first from the segment's start, inhale:exhale 4:6, at the
    /// segment's rate) and its RSA is the resonator's response (``BaroreflexResonance``). Nil
    /// (default): breathing segments breathe freely, as without this setting.
    public var resonance: BaroreflexResonance?

    public init(
        segments: [Segment],
        ectopicPerMinute: Double = 0,
        missedBeats: Int = 0,
        extraBeats: Int = 0,
        ectopicTimes: [Double] = [],
        resonance: BaroreflexResonance? = nil
    ) {
        self.segments = segments
        self.ectopicPerMinute = ectopicPerMinute
        self.missedBeats = missedBeats
        self.extraBeats = extraBeats
        self.ectopicTimes = ectopicTimes
        self.resonance = resonance
    }

    /// Total duration in seconds (sum of the segment durations).
    public var duration: Double {
        segments.reduce(0) { $0 + $1.duration }
    }

    /// The bundled scenario replayed by `hrvmon demo`: rest 3 min → stress
    /// 3 min → breathing 2 min → recovery 2 min, with three ectopic beats
    /// (one in rest, one in stress, one in recovery).
    public static let demo = Scenario(
        segments: [
            Segment(kind: .rest, duration: 180),
            Segment(kind: .stress, duration: 180),
            Segment(kind: .breathing, duration: 120),
            Segment(kind: .recovery, duration: 120),
        ],
        ectopicTimes: [95, 290, 545]
    )

    /// Named scenarios accepted wherever a scenario spec is (`--scenario NAME`).
    ///
    /// - `demo`: see ``demo``.
    /// - `stress-test`: rest 10 min → stress 5 min → rest 5 min.
    /// - `workout`: rest 3 min → activity 10 min → recovery 5 min.
    /// - `paced`: rest 5 min → breathing (6/min) 5 min → rest 5 min.
    /// - `rest`: 10 min of rest.
    /// - `resonance`: a resonance-frequency assessment — paced breathing at 6.5, 6, 5.5, 5 and
    ///   4.5 a minute, 2 min each — by a subject whose resonance is at 5.5 a minute (Q = 3).
    /// - `day`: 24 h alternating rest / stress / activity / breathing, with
    ///   ectopics at 0.2/min and a few missed and extra beats (a soak test).
    public static let presets: [String: Scenario] = [
        "demo": demo,
        "stress-test": Scenario(segments: [
            Segment(kind: .rest, duration: 600),
            Segment(kind: .stress, duration: 300),
            Segment(kind: .rest, duration: 300),
        ]),
        "workout": Scenario(segments: [
            Segment(kind: .rest, duration: 180),
            Segment(kind: .activity, duration: 600),
            Segment(kind: .recovery, duration: 300),
        ]),
        "paced": Scenario(segments: [
            Segment(kind: .rest, duration: 300),
            Segment(kind: .breathing, duration: 300),
            Segment(kind: .rest, duration: 300),
        ]),
        "rest": Scenario(segments: [Segment(kind: .rest, duration: 600)]),
        "resonance": Scenario(
            segments: [6.5, 6, 5.5, 5, 4.5].map { Segment(kind: .breathing, duration: 120, breathingRate: $0) },
            resonance: BaroreflexResonance(rate: 5.5)),
        "day": Scenario(
            segments: (0..<24).flatMap { _ in
                [
                    Segment(kind: .rest, duration: 1800),
                    Segment(kind: .stress, duration: 600),
                    Segment(kind: .rest, duration: 600),
                    Segment(kind: .activity, duration: 300),
                    Segment(kind: .recovery, duration: 300),
                ]
            },
            ectopicPerMinute: 0.2, missedBeats: 20, extraBeats: 20
        ),
    ]

    /// Resolves `nameOrSpec` as a preset name first, then as a spec.
    public init(presetOrSpec nameOrSpec: String) throws(ScenarioParseError) {
        if let preset = Scenario.presets[nameOrSpec] {
            self = preset
        } else {
            try self.init(parsing: nameOrSpec)
        }
    }
}
