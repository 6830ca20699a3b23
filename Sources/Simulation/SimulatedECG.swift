import RealModule

/// A chest strap's single-lead ECG during a ``Scenario``, seeded: what a Polar H10 worn for it
/// would stream over Measurement Data, in µV at 130 Hz.
///
/// Model:
/// - an R peak at each heartbeat of the simulated beats (``rPeaks``: the true beats — an `extra`
///   detection is no beat, and a `missed` one hides a beat halfway through its interval);
/// - each beat's PQRST as a sum of Gaussian waves (McSharry et al. 2003, ECGSYN): P 120 µV 160 ms
///   before R, Q −140 µV, R ~1.1 mV, S −280 µV, T 280 µV ~260 ms after R, the P and T waves' times
///   and the T wave's width scaled by √RR as the QT interval shortens with faster beats (Bazett);
///   the QRS amplitude swinging ±8 % with the breath (the heart's axis turning with the chest);
/// - baseline wander: the chest's breathing movement (~60 µV, deeper in paced breathing and
///   exercise) and a slow drift of the electrodes' contact (~30 µV, 20 s);
/// - the amplifier's noise (8 µV), muscle noise while talking (12 µV);
/// - motion artifacts while walking and running: the strap's electrodes moving on the skin with
///   each step (~80 and ~250 µV) and the trunk's muscles (20 and 45 µV of noise).
///
/// Every sample is drawn from its own seeded stream, so any run of samples can be asked for
/// alone (the demo's strap streams frames of 73) and the same `(scenario, seed)` give the same ECG.
public struct SimulatedECG: Sendable, Equatable {
    public static let sampleRate = 130.0

    /// Seconds from the start of each heartbeat's R peak, in order.
    public let rPeaks: [Double]
    private let seed: UInt64
    private let segments: [Segment]
    private let spans: [GroundTruth.Span]
    /// Breaths and steps before each segment's start, in cycles; steps a minute per segment.
    private let breathsBefore: [Double], stepsBefore: [Double], cadences: [Double]
    private let driftPhase: Double

    /// The ECG of `beats`, the simulated beats of `(scenario, seed)`.
    public init(scenario: Scenario, seed: UInt64, beats: [SimulatedBeat]) {
        self.seed = seed
        segments = scenario.segments
        spans = GroundTruth.spans(of: segments)
        var peaks: [Double] = []
        var previous = 0.0
        for beat in beats {
            defer { previous = beat.seconds }
            switch beat.label {
            case .extra: continue
            case .missed: peaks += [(previous + beat.seconds) / 2, beat.seconds]
            default: peaks.append(beat.seconds)
            }
        }
        rPeaks = peaks.filter { $0 > 0 }
        var random = SeededGenerator(seed: seed ^ 0x6563_675f_7374_7270)  // "ecg_strp"
        driftPhase = 2 * Double.pi * random.nextUnit()
        var breaths = random.nextUnit(), steps = 0.0
        var breathsBefore: [Double] = [], stepsBefore: [Double] = [], cadences: [Double] = []
        for segment in segments {
            let draw = random.nextUnit()
            let cadence: Double = switch segment.movement {
            case .still: 0
            case .walking: 108 + 14 * draw
            case .running: 155 + 20 * draw
            }
            breathsBefore.append(breaths)
            stepsBefore.append(steps)
            cadences.append(cadence)
            breaths += max(segment.duration, 0) * segment.breathingRate / 60
            steps += max(segment.duration, 0) * cadence / 60
        }
        (self.breathsBefore, self.stepsBefore, self.cadences) = (breathsBefore, stepsBefore, cadences)
    }

    /// The ECG of the beats `Simulator(scenario:seed:)` gives.
    public init(scenario: Scenario, seed: UInt64) {
        self.init(scenario: scenario, seed: seed, beats: Simulator(scenario: scenario, seed: seed).run().beats)
    }

    /// Samples of the whole scenario.
    public var sampleCount: Int { Int(((spans.last?.end ?? 0) * Self.sampleRate).rounded(.down)) }

    /// Seconds from the start of sample `index`.
    public static func time(ofSample index: Int) -> Double { Double(index) / sampleRate }

    /// Samples `range` (indices from the scenario's start), µV.
    public func samples(_ range: Range<Int>) -> [Int32] {
        var peak = rPeaks.partitioningIndex { $0 >= Self.time(ofSample: range.lowerBound) - 1 }
        var segment = spans.firstIndex { Self.time(ofSample: range.lowerBound) < $0.end } ?? max(spans.count - 1, 0)
        return range.map { index in
            let time = Self.time(ofSample: index)
            while segment < spans.count - 1, time >= spans[segment].end { segment += 1 }
            while peak < rPeaks.count, rPeaks[peak] < time - 1 { peak += 1 }
            var noise = GaussianSource(seed: seed ^ 0x6563_6700_0000_0000 ^ UInt64(truncatingIfNeeded: index) &* 0x9E37_79B9_7F4A_7C15)
            return Int32(clamping: Int(microvolts(at: time, in: segment, from: peak, noise: &noise).rounded()))
        }
    }

    private func microvolts(at time: Double, in index: Int, from firstPeak: Int, noise: inout GaussianSource) -> Double {
        let twoPi = 2 * Double.pi
        let segment = segments[index]
        let since = time - spans[index].start
        let breath = Double.sin(twoPi * (breathsBefore[index] + since * segment.breathingRate / 60))
        let depth: Double = switch segment.kind {
        case .breathing: 1.8
        case .activity: 1.5
        default: 1
        }
        var value = 60 * depth * breath + 30 * Double.sin(twoPi * time / 20 + driftPhase) + 8 * noise.next()
        var peak = firstPeak
        while peak < rPeaks.count, rPeaks[peak] < time + 0.4 {
            let rr = peak > 0 ? rPeaks[peak] - rPeaks[peak - 1] : 60 / segment.heartRate
            value += Self.complex(at: time - rPeaks[peak], rr: rr, qrs: 1 + 0.08 * breath)
            peak += 1
        }
        if segment.kind == .talking { value += 12 * noise.next() }
        if cadences[index] > 0 {
            let steps = stepsBefore[index] + since * cadences[index] / 60
            let running = segment.movement == .running
            value += (running ? 250 : 80) * (Double.sin(twoPi * steps) + 0.4 * Double.sin(2 * twoPi * steps + 1))
            value += (running ? 45 : 20) * noise.next()
        }
        return value
    }

    /// One beat's P, Q, R, S and T waves at `offset` seconds from its R peak, µV.
    private static func complex(at offset: Double, rr: Double, qrs: Double) -> Double {
        let scale = min(1.2, max(0.6, rr.squareRoot()))
        let waves: [(at: Double, microvolts: Double, width: Double)] = [
            (-0.16 * scale, 120, 0.022), (-0.028, -140 * qrs, 0.009), (0, 1100 * qrs, 0.0095), (0.03, -280 * qrs, 0.011),
            (0.26 * scale, 280, 0.05 * scale),
        ]
        return waves.reduce(0) { sum, wave in
            let distance = (offset - wave.at) / wave.width
            return sum + wave.microvolts * Double.exp(-0.5 * distance * distance)
        }
    }
}

extension Array where Element == Double {
    /// The first index whose element satisfies `belongs` (the elements that do come after those that do not).
    fileprivate func partitioningIndex(where belongs: (Double) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongs(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
