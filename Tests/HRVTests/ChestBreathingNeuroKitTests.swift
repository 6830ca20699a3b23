import HRV
import Testing
import TestSupport

/// Breathing from the chest checked against NeuroKit2 (Makowski et al. 2021), which nobody here
/// wrote: its simulated respiration (the BreathMetrics model: breaths of uneven length and depth)
/// turned into the chest's tilt, read by `MotionMeter`, against NeuroKit2's own rate of the same
/// respiration (ReferenceReaders/chest_breathing.py; scripts/install-python-readers.sh).
@Suite struct ChestBreathingNeuroKitTests {
    @Test(arguments: [(8.0, 1, 0.0, false), (12.0, 2, 2.0, true), (15.0, 3, -1.2, false), (20.0, 4, 3.1, true)])
    func theRateIsNeuroKitsWithinABreathAMinute(rate: Double, seed: Int, angle: Double, flipped: Bool) throws {
        let reference = try ReferenceReader.run("chest_breathing", ["\(rate)", "\(seed)", "\(angle)", flipped ? "flipped" : "upright"])
        let samples = try #require(reference["samples"] as? [[Double]])
        let troughs = try #require(reference["nk_troughs"] as? [Double])
        var meter = MotionMeter(sampleRate: 50)
        var seconds: [MotionSecond] = []
        for sample in samples {
            if let second = meter.append(x: sample[0], y: sample[1], z: sample[2]) { seconds.append(second) }
        }
        // Second n ends at n + 1 s; each reading covers the 32 s before, and so does NeuroKit2's
        // rate there: its breaths (onsets of inhalation) in the window over their time.
        var compared = 0, rateErrors: [Double] = [], onsetErrors: [Double] = []
        let read = seconds[40...].filter { $0.breathing != nil }.count
        // Breaths of uneven length spread the rhythm's peak: its quality is under the 0.8 that
        // keeps talking out in a third of the seconds or more, which fall back to the RR spectrum.
        #expect(Double(read) >= 0.5 * Double(seconds.count - 40), "rate \(rate): \(read) of \(seconds.count - 40) seconds read")
        for (index, second) in seconds.enumerated() where index >= 40 {
            guard let breathing = second.breathing else { continue }
            let end = Double(index + 1)
            let onsets = troughs.filter { $0 > end - ChestBreathingMeter.window && $0 <= end }
            guard let first = onsets.first, let last = onsets.last, onsets.count >= 3 else { continue }
            let neuroKit = 60 * Double(onsets.count - 1) / (last - first)
            rateErrors.append(abs(breathing.rate - neuroKit))
            // Where the chest says the breath began, against NeuroKit2's nearest onset, in breaths.
            let began = end - breathing.breathBegan
            onsetErrors.append((troughs.map { abs($0 - began) }.min() ?? .infinity) * neuroKit / 60)
            compared += 1
        }
        let within = rateErrors.filter { $0 <= 1 }.count
        let onsets = onsetErrors.sorted()[onsetErrors.count * 9 / 10]
        print("NeuroKit2 \(reference["neurokit2"] ?? "?") at \(rate)/min: \(read) seconds read, \(within) of \(compared) within 1/min of its rate "
            + "(largest difference \(rateErrors.max() ?? 0)); 90 % of the onsets within \(onsets) of a breath of its")
        #expect(compared >= 50)
        #expect(Double(within) >= 0.95 * Double(compared), "rate \(rate): \(rateErrors)")
        #expect(onsets <= 0.25, "rate \(rate): \(onsetErrors)")
    }
}
