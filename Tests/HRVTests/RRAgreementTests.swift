import HRV
import Testing

/// The strap's RR against the R peaks of its ECG: counts, |ΔRR| and the clocks' offset, on series
/// built with known differences.
@Suite struct RRAgreementTests {
    /// R peaks of a varying rhythm (HRV keeps the offset unambiguous).
    static let peaks: [RPeak] = {
        var time = 100.0
        return (0..<300).map { index in
            time += 0.8 + 0.05 * Double((index * 7) % 11) / 10
            return RPeak(time: time, microvolts: 1000)
        }
    }()

    /// The strap's beats at `peaks` plus `offset`, each RR rounded to 1/1024 s as it sends it.
    static func beats(of peaks: [RPeak], offset: Double) -> [RRAgreement.Beat] {
        peaks.indices.dropFirst().map { index in
            let rr = ((peaks[index].time - peaks[index - 1].time) * 1024).rounded() / 1024
            return RRAgreement.Beat(time: peaks[index].time + offset, milliseconds: 1000 * rr)
        }
    }

    @Test func agreeingSeriesMatchEveryBeat() throws {
        let agreement = RRAgreement(beats: Self.beats(of: Self.peaks, offset: 0.35), peaks: Self.peaks)
        #expect(abs(try #require(agreement.offset) - 0.35) < 1e-9)
        // The first peak, before the strap's first beat (its first RR ends at the second), is not compared.
        #expect(agreement.beats == 299 && agreement.peaks == 299 && agreement.matched == 299)
        #expect(agreement.peaksWithoutBeat == 0 && agreement.beatsWithoutPeak == 0)
        #expect(agreement.matchedPercent == 100)
        #expect(agreement.intervals == 298)
        // 1/1024 s rounding: at most half a tick.
        #expect(try #require(agreement.rrDifference95) <= 0.49)
    }

    /// A beat the strap missed (its RR then spans two), a peak the detector invented, a beat
    /// moved 40 ms: each counted where it belongs, and only the RRs they touch differ.
    @Test func missedAndExtraBeatsAreCounted() throws {
        var beats = Self.beats(of: Self.peaks, offset: -0.2)
        beats[100].milliseconds += beats[101].milliseconds
        beats.remove(at: 101)
        beats[200].time += 0.04
        var peaks = Self.peaks
        peaks.insert(RPeak(time: (peaks[50].time + peaks[51].time) / 2, microvolts: 300), at: 51)
        let agreement = RRAgreement(beats: beats, peaks: peaks)
        #expect(abs(try #require(agreement.offset) + 0.2) < 1e-9)
        #expect(agreement.beats == 298 && agreement.peaks == 300)
        #expect(agreement.matched == 298 && agreement.beatsWithoutPeak == 0 && agreement.peaksWithoutBeat == 2)
        #expect(try #require(agreement.medianRRDifference) < 0.5)
        // Of 295 RRs compared, none spans the missed beat or the invented peak.
        #expect(agreement.intervals == 295)
        #expect(try #require(agreement.rrDifference95) < 1)
    }

    /// Only the time both cover counts: an ECG that starts later leaves the earlier beats out.
    @Test func onlyTheCommonStretchIsCompared() {
        let agreement = RRAgreement(beats: Self.beats(of: Self.peaks, offset: 0.1), peaks: Array(Self.peaks[100...]))
        #expect(agreement.beats == 200 && agreement.peaks == 200 && agreement.matched == 200)
    }

    @Test func nothingToCompare() {
        let agreement = RRAgreement(beats: [], peaks: Self.peaks)
        #expect(agreement.offset == nil && agreement.matchedPercent == nil && agreement.medianRRDifference == nil)
    }
}
