import RealModule

/// A chest strap's accelerometer during a ``Scenario``, seeded: what a Polar H10 worn for it
/// would stream, in mG along the strap's x, y and z (z through its face), at `sampleRate`.
///
/// Model, per segment (``Segment/movement``):
/// - gravity, 1 G, in the plane of the strap when upright (the strap turned about its face and
///   flipped as the seed draws, so nothing may depend on the axes' orientation), leaning forward
///   ~10° seated and ~2° standing;
/// - breathing: the chest tilts with each breath at the segment's breathing rate (~12 mG of
///   gravity moving onto the face; deeper in paced breathing and exercise), as the chest
///   accelerometers that read breathing measure it (Bates et al. 2010);
/// - the heart's recoil (ballistocardiogram, ~4 mG at the heart rate) and the sensor's noise (3 mG);
/// - talking: slow gestures of the trunk, a few tens of mG, still below "moving";
/// - standing up and sitting down (``GroundTruth/postureChanges``): 3 s of leaning forward ~30°
///   and rising or sinking;
/// - walking (~115 steps a minute, ~220 mG) and running (~165 a minute, ~800 mG): the vertical
///   bounce of each step with its harmonic, a forward surge, and the lateral sway of each stride
///   (two steps), as trunk accelerometry of gait shows (Moe-Nilssen & Helbostad 2004).
///
/// Each second is drawn from its own seeded stream, so any second can be asked for alone (the
/// demo streams them one at a time) and the same `(scenario, seed)` give the same samples.
public struct SimulatedAccelerometer: Sendable, Equatable {
    public static let defaultSampleRate = 50.0
    /// How long a posture change moves the chest, seconds.
    public static let postureChangeDuration = 3.0

    public let sampleRate: Double
    private let spans: [GroundTruth.Span]
    private let seed: UInt64
    private let segments: [Segment]
    /// The strap as worn: the directions of up, forward (out of the chest) and the wearer's left.
    private let up: SIMD3<Double>, forward: SIMD3<Double>, side: SIMD3<Double>
    /// Breaths and steps before each segment's start, in cycles (phases continue across segments).
    private let breathsBefore: [Double], stepsBefore: [Double]
    /// Steps a minute and bounce (mG) per segment, drawn from the seed; 0 when still.
    private let cadences: [Double], bounces: [Double]
    private let gesturePhases: SIMD2<Double>
    private let postureChanges: [Double]

    public init(scenario: Scenario, seed: UInt64, sampleRate: Double = Self.defaultSampleRate) {
        self.sampleRate = sampleRate
        self.seed = seed
        segments = scenario.segments
        spans = GroundTruth.spans(of: segments)
        postureChanges = GroundTruth(spans: spans, artifactBeatIndices: [:]).postureChanges
        var random = SeededGenerator(seed: seed ^ 0x6163_6365_6c65_726f)  // "accelero"
        let turn = 2 * Double.pi * random.nextUnit()
        let flip: Double = random.nextUnit() < 0.5 ? 1 : -1
        up = SIMD3(Double.cos(turn), Double.sin(turn), 0)
        forward = SIMD3(0, 0, flip)
        side = SIMD3(up.y * forward.z - up.z * forward.y, up.z * forward.x - up.x * forward.z, up.x * forward.y - up.y * forward.x)
        gesturePhases = SIMD2(2 * Double.pi * random.nextUnit(), 2 * Double.pi * random.nextUnit())
        var breaths = random.nextUnit(), steps = 0.0
        var breathsBefore: [Double] = [], stepsBefore: [Double] = [], cadences: [Double] = [], bounces: [Double] = []
        for segment in segments {
            let draw = random.nextUnit()
            let (cadence, bounce): (Double, Double) = switch segment.movement {
            case .still: (0, 0)
            case .walking: (108 + 14 * draw, 200 + 60 * draw)
            case .running: (155 + 20 * draw, 700 + 200 * draw)
            }
            breathsBefore.append(breaths)
            stepsBefore.append(steps)
            cadences.append(cadence)
            bounces.append(bounce)
            breaths += max(segment.duration, 0) * segment.breathingRate / 60
            steps += max(segment.duration, 0) * cadence / 60
        }
        (self.breathsBefore, self.stepsBefore, self.cadences, self.bounces) = (breathsBefore, stepsBefore, cadences, bounces)
    }

    /// Whole seconds of the scenario.
    public var seconds: Int { Int((spans.last?.end ?? 0).rounded(.down)) }

    /// The samples of second `index` of the scenario, [index, index + 1) s, in mG.
    public func samples(second index: Int) -> [SIMD3<Double>] {
        let count = Int(sampleRate.rounded())
        var noise = GaussianSource(seed: seed ^ 0x6e6f_6973_6500_0000 ^ UInt64(truncatingIfNeeded: index &* 0x9E37_79B9))
        var segment = spans.firstIndex { Double(index) < $0.end } ?? max(spans.count - 1, 0)
        return (0..<count).map { sample in
            let time = Double(index) + Double(sample) / sampleRate
            while segment < spans.count - 1, time >= spans[segment].end { segment += 1 }
            return acceleration(at: time, in: segment) + SIMD3(noise.next(), noise.next(), noise.next()) * 3
        }
    }

    /// The acceleration without the sensor's noise, mG.
    private func acceleration(at time: Double, in index: Int) -> SIMD3<Double> {
        let twoPi = 2 * Double.pi
        let segment = segments[index]
        let since = time - spans[index].start
        let standing = segment.kind == .standing
        let breathDepth: Double = switch segment.kind {
        case .breathing: 1.8
        case .activity: 1.5
        default: 1
        }
        let breaths = breathsBefore[index] + since * segment.breathingRate / 60
        var tilt = (standing ? 0.035 : 0.17) + 0.012 * breathDepth * Double.sin(twoPi * breaths)
        if segment.kind == .talking {
            tilt += 0.02 * Double.sin(twoPi * 0.4 * time + gesturePhases.x) + 0.012 * Double.sin(twoPi * 1.1 * time + gesturePhases.y)
        }
        var vertical = 0.0
        if let change = postureChanges.last(where: { $0 <= time }), time - change < Self.postureChangeDuration {
            let progress = (time - change) / Self.postureChangeDuration
            tilt += 0.5 * Double.sin(Double.pi * progress)
            vertical += (standing ? 250 : -250) * Double.sin(twoPi * progress)
        }
        let gravity = (up * Double.cos(tilt) + forward * Double.sin(tilt)) * 1000
        let recoil = forward * (4 * Double.sin(twoPi * segment.heartRate / 60 * time))
        guard cadences[index] > 0 else { return gravity + recoil + up * vertical }
        let steps = stepsBefore[index] + since * cadences[index] / 60
        let bounce = bounces[index]
        vertical += bounce * (Double.sin(twoPi * steps) + 0.3 * Double.sin(2 * twoPi * steps))
        let surge = 0.4 * bounce * Double.sin(twoPi * steps + 0.5)
        let sway = 0.45 * bounce * Double.sin(Double.pi * steps)
        return gravity + recoil + up * vertical + forward * surge + side * sway
    }
}
