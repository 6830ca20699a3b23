import Foundation
import HRV
import TestSupport
import Testing

/// R peaks in a 130 Hz chest ECG, checked against ECG nobody here wrote: NeuroKit2's ECGSYN with
/// its known R peaks, distorted by NeuroKit2 (noise, baseline wander, motion artifacts), tall T
/// waves, ventricular premature beats, and NeuroKit2's own detector on the same signals
/// (ReferenceReaders/ecg_reference.py). A peak matches one within two samples (15 ms).
@Suite struct RPeakDetectorTests {
    struct Case {
        let name: String
        let signal: [Double]
        let truth: [Int]
        let neuroKit: [Int]

        var samples: [ECGSample] { signal.enumerated().map { ECGSample(time: Self.time($0.offset), microvolts: $0.element) } }

        static func time(_ index: Int) -> Double { 1000 + Double(index) / 130 }
    }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// NeuroKit2 is slow to start on a busy machine: its cases are made once for the suite.
    static let cases: Result<[String: Case], Unavailable> = {
        do {
            let object = try ReferenceReader.neuroKitECG()
            let list = object["cases"] as? [[String: Any]] ?? []
            return .success(Dictionary(uniqueKeysWithValues: list.map { item in
                let name = item["name"] as? String ?? ""
                return (name, Case(
                    name: name, signal: (item["signal"] as? [Int] ?? []).map(Double.init), truth: item["truth"] as? [Int] ?? [],
                    neuroKit: item["neurokit"] as? [Int] ?? []))
            }))
        } catch {
            return .failure(Unavailable(description: "\(error)"))
        }
    }()

    static func reference(_ name: String) throws -> Case {
        try #require(try cases.get()[name], "NeuroKit2 gave no case \(name)")
    }

    /// How many of `found` lie within `samples` of one of `expected` (each used once).
    static func matches(_ found: [Double], _ expected: [Double], within samples: Double = 2) -> Int {
        var used = Set<Int>()
        var count = 0
        for time in found {
            let nearest = expected.indices.filter { !used.contains($0) }.min { abs(expected[$0] - time) < abs(expected[$1] - time) }
            if let nearest, abs(expected[nearest] - time) <= samples / 130 + 1e-9 {
                used.insert(nearest)
                count += 1
            }
        }
        return count
    }

    /// Sensitivity and positive predictivity of `found` against `expected`, in percent.
    static func scores(_ found: [Double], _ expected: [Double]) -> (sensitivity: Double, ppv: Double) {
        let matched = Double(matches(found, expected))
        return (100 * matched / Double(expected.count), 100 * matched / Double(max(found.count, 1)))
    }

    static func expectFound(_ reference: Case, atLeast percent: Double = 99) {
        let found = RPeakDetector.peaks(in: reference.samples).map(\.time)
        let truth = reference.truth.map(Case.time)
        let score = scores(found, truth)
        #expect(score.sensitivity >= percent && score.ppv >= percent, "\(reference.name): \(score) of \(truth.count) beats, \(found.count) found")
        let theirs = scores(found, reference.neuroKit.map(Case.time))
        #expect(theirs.sensitivity >= percent && theirs.ppv >= percent, "\(reference.name) against NeuroKit2's ecg_peaks: \(theirs)")
    }

    @Test(arguments: ["rate50", "rate70", "rate100", "rate150"])
    func findsTheKnownPeaksAtEveryHeartRate(_ name: String) throws {
        Self.expectFound(try Self.reference(name))
    }

    /// T waves as tall as the R wave, a baseline wandering by a millivolt, premature ventricular
    /// beats (wide, tall, then a pause): every beat once, nothing else.
    @Test(arguments: ["tallT", "wander", "ectopic"])
    func findsNothingButTheBeats(_ name: String) throws {
        Self.expectFound(try Self.reference(name))
    }

    /// NeuroKit2's motion artifacts over stronger noise.
    @Test func motionNoiseInventsNoBeats() throws {
        Self.expectFound(try Self.reference("motion"))
    }

    /// A lead off between two stretches of ECG: seven seconds flat, then three minutes of a few µV
    /// of noise (long enough for the threshold's mean to sink to the noise's), then the ECG again.
    @Test func aFlatLineHasNoPeaks() throws {
        let reference = try Self.reference("rate70")
        let (off, length) = (40 * 130, 187 * 130)
        var state: UInt32 = 1
        let leadOff = (0..<length).map { index in
            state = state &* 1_664_525 &+ 1_013_904_223
            return ECGSample(time: Case.time(off + index), microvolts: index < 7 * 130 ? 0 : Double(state >> 28) - 8)
        }
        let after = reference.samples[off...].map { ECGSample(time: $0.time + Double(length) / 130, microvolts: $0.microvolts) }
        let found = RPeakDetector.peaks(in: reference.samples[..<off] + leadOff + after).map(\.time)
        let inside = found.filter { (Case.time(off)...Case.time(off + length)).contains($0) }
        #expect(inside.isEmpty, "\(inside.count) peaks in the lead off, at \(inside.prefix(10))")
        let beats = reference.truth.filter { $0 < off - 26 } + reference.truth.filter { $0 > off + 26 }.map { $0 + length }
        let matched = Self.matches(found, beats.map(Case.time))
        #expect(matched >= beats.count - 2, "\(matched) of \(beats.count) beats around it")
    }

    /// Pieces of any size give the peaks the whole gives; a lost stretch (a gap in the times)
    /// starts the filters afresh and invents nothing around it.
    @Test func piecesAndGapsGiveTheSamePeaks() throws {
        let samples = try Self.reference("rate100").samples
        let whole = RPeakDetector.peaks(in: samples)
        var detector = RPeakDetector()
        var pieces: [RPeak] = []
        var start = 0
        for size in [1, 73, 5, 200, 73, 1000, 3].cycled(until: samples.count) {
            let end = min(samples.count, start + size)
            pieces += detector.append(samples[start..<end])
            start = end
            if start == samples.count { break }
        }
        pieces += detector.finish()
        #expect(pieces == whole)

        let gap = (60 * 130)..<(62 * 130)
        var broken = samples
        broken.removeSubrange(gap)
        let found = RPeakDetector.peaks(in: broken).map(\.time)
        let truth = try Self.reference("rate100").truth.filter { !gap.contains($0) }.map(Case.time)
        let score = Self.scores(found, truth)
        #expect(score.ppv >= 99.5 && score.sensitivity >= 98.5, "\(score)")
    }
}

extension Array {
    /// The elements over and over, until their sum reaches `total` (for sizes).
    fileprivate func cycled(until total: Int) -> [Element] where Element == Int {
        var out: [Int] = []
        var sum = 0
        while sum < total {
            for size in self where sum < total {
                out.append(size)
                sum += size
            }
        }
        return out
    }
}

/// The check as a session will run it: the strap's beats (here the ECG's true R peaks, each RR
/// rounded to 1/1024 s as the strap sends it, arriving 0.3 s later) against the peaks found.
@Suite struct RRAgreementOnECGTests {
    @Test func theStrapsBeatsAgreeWithThePeaksFound() throws {
        let reference = try RPeakDetectorTests.reference("rate70")
        let times = reference.truth.map(RPeakDetectorTests.Case.time)
        let beats = times.indices.dropFirst().map { index in
            RRAgreement.Beat(time: times[index] + 0.3, milliseconds: 1000 * ((times[index] - times[index - 1]) * 1024).rounded() / 1024)
        }
        let agreement = RRAgreement(beats: beats, peaks: RPeakDetector.peaks(in: reference.samples))
        #expect(abs(try #require(agreement.offset) - 0.3) < 0.004)
        #expect(try #require(agreement.matchedPercent) >= 99 && agreement.peaksWithoutBeat == 0, "\(agreement)")
        // The peaks found are on the truth's sample (7.7 ms apart): the RRs agree to the 1/1024 s rounding.
        #expect(try #require(agreement.medianRRDifference) < 0.5 && agreement.rrDifference95! < 0.5, "\(agreement)")
    }
}
