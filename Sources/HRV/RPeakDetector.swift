import RealModule

/// One sample of a single-lead ECG: when it was taken (seconds, on any one clock) and its value in µV.
public struct ECGSample: Equatable, Sendable {
    public var time: Double
    public var microvolts: Double

    public init(time: Double, microvolts: Double) {
        self.time = time
        self.microvolts = microvolts
    }
}

/// An R peak: the QRS complex's highest sample, its time and value.
public typealias RPeak = ECGSample

/// R peaks in a single-lead ECG as it streams in, by the two moving averages of Elgendi et al.
/// (Elgendi, Jonkman & De Boer 2010, "Frequency bands effects on QRS detection"; the parameters of
/// Elgendi 2013, PLoS ONE 8(9) e73557): the ECG band-passed to 8-20 Hz and squared; where its
/// 97 ms moving average rises above its 611 ms one plus 0.08 times its mean, for at least 97 ms,
/// is a block of interest, and the block's highest raw sample is the R peak. Beside the method:
/// Pan & Tompkins' 200 ms refractory period (1985; of two blocks closer than that the one with
/// more energy is the beat) and a least QRS amplitude in the band, so a flat line or a lead off
/// never makes beats. Samples come in pieces of any size; a gap in their times (a lost frame) or
/// a time going back ends the piece and the filters start afresh, so a piece's peaks are the same
/// however it was cut; a QRS cut by a piece's start or end (its first or last 50 ms) is not
/// judged. Peaks are handed on when no later block can take their place (about 0.5 s
/// after them), in order.
public struct RPeakDetector: Sendable {
    /// Pan & Tompkins' refractory period: no heart beats twice within it.
    public static let refractory = 0.2
    /// The least band-passed amplitude (µV) of a QRS complex: a chest ECG's QRS is hundreds.
    public static let minimumAmplitude = 40.0
    static let qrsWindowSeconds = 0.097
    static let beatWindowSeconds = 0.611
    static let offsetFactor = 0.08
    /// The mean of the squared band the threshold adds to: over the piece's first seconds, then
    /// forgetting with this time constant, so a long session's threshold follows its signal.
    static let meanTimeConstant = 10.0

    public let sampleRate: Double
    private let qrsHalf: Int
    private let beatHalf: Int
    private var piece: Piece
    private var candidate: (peak: RPeak, energy: Double)?

    public init(sampleRate: Double = 130) {
        self.sampleRate = sampleRate
        qrsHalf = max(1, Int((Self.qrsWindowSeconds * sampleRate / 2).rounded()))
        beatHalf = max(qrsHalf + 1, Int((Self.beatWindowSeconds * sampleRate / 2).rounded()))
        piece = Piece(sampleRate: sampleRate)
    }

    /// The R peaks of `samples` (in time order) as far as they are final.
    public mutating func append(_ samples: some Sequence<ECGSample>) -> [RPeak] {
        var peaks: [RPeak] = []
        for sample in samples {
            if let last = piece.times.last, sample.time - last > 2.5 / sampleRate || sample.time <= last {
                endPiece(into: &peaks)
            }
            piece.append(sample)
            evaluate(piece.count - 1 - beatHalf, into: &peaks)
            piece.trim(keeping: (piece.blockStart ?? piece.count) - 2 * beatHalf - qrsHalf)
        }
        return peaks
    }

    /// The peaks still held back, at the end of the ECG.
    public mutating func finish() -> [RPeak] {
        var peaks: [RPeak] = []
        endPiece(into: &peaks)
        if let candidate { peaks.append(candidate.peak) }
        candidate = nil
        return peaks
    }

    /// The R peaks of a whole recording.
    public static func peaks(in samples: some Sequence<ECGSample>, sampleRate: Double = 130) -> [RPeak] {
        var detector = RPeakDetector(sampleRate: sampleRate)
        return detector.append(samples) + detector.finish()
    }

    /// The samples whose windows were cut short by the piece's end are judged with what there is.
    private mutating func endPiece(into peaks: inout [RPeak]) {
        guard piece.count > 0 else { return }
        for index in max(0, piece.count - beatHalf)..<piece.count { evaluate(index, into: &peaks) }
        piece = Piece(sampleRate: sampleRate)
    }

    /// Judges sample `index` of the piece, whose beat window ends at the newest sample.
    private mutating func evaluate(_ index: Int, into peaks: inout [RPeak]) {
        guard index >= 0 else { return }
        let qrs = piece.meanEnergy(from: index - qrsHalf, through: index + qrsHalf)
        let beat = piece.meanEnergy(from: index - beatHalf, through: index + beatHalf)
        if qrs > beat + Self.offsetFactor * piece.runningMean {
            if piece.blockStart == nil { piece.blockStart = index }
            piece.blockEnergy = max(piece.blockEnergy, qrs)
        } else {
            closeBlock(at: index, into: &peaks)
        }
    }

    /// A block of interest ends before `end`: a beat when it is long and tall enough, and not cut
    /// by the piece's start (a block still open at its end is dropped with the piece).
    private mutating func closeBlock(at end: Int, into peaks: inout [RPeak]) {
        guard let start = piece.blockStart else { return }
        let energy = piece.blockEnergy
        piece.blockStart = nil
        piece.blockEnergy = 0
        guard start > 0, end - start >= 2 * qrsHalf + 1, piece.largestBand(from: start, to: end) >= Self.minimumAmplitude else { return }
        let peak = piece.highestRaw(from: start, to: end)
        if let held = candidate, peak.time - held.peak.time < Self.refractory {
            if energy > held.energy { candidate = (peak, energy) }
            return
        }
        if let held = candidate { peaks.append(held.peak) }
        candidate = (peak, energy)
    }
}

/// The samples of one unbroken stretch of ECG, filtered, as far back as the windows reach.
private struct Piece: Sendable {
    private var filter: BandPass
    /// The piece's first value, taken off every sample so the filters start settled.
    private var origin: Double?
    private(set) var count = 0
    /// Index (in the piece) of the first sample held.
    private var base = 0
    private(set) var times: [Double] = []
    private var raw: [Double] = []
    private var band: [Double] = []
    /// Sums of the squared band before each held sample, and after the newest.
    private var sums: [Double] = [0]
    private(set) var runningMean = 0.0
    private let forgetting: Double
    var blockStart: Int?
    var blockEnergy = 0.0

    init(sampleRate: Double) {
        filter = BandPass(low: 8, high: 20, sampleRate: sampleRate)
        forgetting = 1 / (RPeakDetector.meanTimeConstant * sampleRate)
    }

    mutating func append(_ sample: ECGSample) {
        let start = origin ?? sample.microvolts
        origin = start
        let value = filter.next(sample.microvolts - start)
        times.append(sample.time)
        raw.append(sample.microvolts)
        band.append(value)
        sums.append(sums[sums.count - 1] + value * value)
        count += 1
        runningMean += (value * value - runningMean) * max(1 / Double(count), forgetting)
    }

    /// The mean squared band over samples `first...last`, clipped to the piece.
    func meanEnergy(from first: Int, through last: Int) -> Double {
        let lower = max(first, 0), upper = min(last, count - 1)
        guard upper >= lower else { return 0 }
        return (sums[upper + 1 - base] - sums[lower - base]) / Double(upper - lower + 1)
    }

    func largestBand(from start: Int, to end: Int) -> Double {
        band[(start - base)..<(end - base)].lazy.map(abs).max() ?? 0
    }

    func highestRaw(from start: Int, to end: Int) -> RPeak {
        var best = start - base
        for index in (start - base)..<(end - base) where raw[index] > raw[best] { best = index }
        return RPeak(time: times[best], microvolts: raw[best])
    }

    /// Forgets the samples before `first`, in batches.
    mutating func trim(keeping first: Int) {
        let drop = first - base
        guard drop >= 1024 else { return }
        times.removeFirst(drop)
        raw.removeFirst(drop)
        band.removeFirst(drop)
        sums.removeFirst(drop)
        base = first
    }
}

/// Butterworth high-pass then low-pass, second order each (bilinear transform): the pass band.
struct BandPass: Sendable {
    private var highPass: Biquad
    private var lowPass: Biquad

    init(low: Double, high: Double, sampleRate: Double) {
        highPass = Biquad(cutoff: low, sampleRate: sampleRate, highPass: true)
        lowPass = Biquad(cutoff: high, sampleRate: sampleRate, highPass: false)
    }

    mutating func next(_ value: Double) -> Double { lowPass.next(highPass.next(value)) }
}

/// A second-order Butterworth section in transposed direct form II.
struct Biquad: Sendable {
    private let b: (Double, Double, Double)
    private let a: (Double, Double)
    private var state = (0.0, 0.0)

    init(cutoff: Double, sampleRate: Double, highPass: Bool) {
        let k = Double.tan(Double.pi * cutoff / sampleRate)
        let norm = 1 / (1 + 2.squareRoot() * k + k * k)
        let b0 = highPass ? norm : k * k * norm
        b = (b0, highPass ? -2 * b0 : 2 * b0, b0)
        a = (2 * (k * k - 1) * norm, (1 - 2.squareRoot() * k + k * k) * norm)
    }

    mutating func next(_ x: Double) -> Double {
        let y = b.0 * x + state.0
        state = (b.1 * x - a.0 * y + state.1, b.2 * x - a.1 * y)
        return y
    }
}
