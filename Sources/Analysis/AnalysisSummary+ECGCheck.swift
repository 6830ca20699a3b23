import HRV
import Presentation
import SessionLog

/// The "ECG check" of a session recorded with `--ecg`: its text lines and its JSON object
/// (`ecg_check`, a documented key; absent without ECG).
extension AnalysisSummary {
    func addECGCheck(to object: inout JSONObject) {
        guard let ecgCheck else { return }
        let agreement = ecgCheck.agreement
        var check = JSONObject()
        check.add("r_peaks", ecgCheck.peaksFound)
        check.add("ecg_s", ecgCheck.ecgSeconds)
        check.add("beats", agreement.beats)
        check.add("matched", agreement.matched)
        check.add("matched_pct", agreement.matchedPercent)
        check.add("beats_without_peak", agreement.beatsWithoutPeak)
        check.add("peaks_without_beat", agreement.peaksWithoutBeat)
        check.add("rr_compared", agreement.intervals)
        check.add("rr_diff_median_ms", agreement.medianRRDifference)
        check.add("rr_diff_p95_ms", agreement.rrDifference95)
        check.add("offset_s", agreement.offset)
        object.add("ecg_check", check)
    }

    func ecgCheckLines(_ fixed: (Double?, Int, String) -> String) -> [String] {
        guard let ecgCheck else { return [] }
        let agreement = ecgCheck.agreement
        let offset = agreement.offset.map { ($0 < 0 ? "" : "+") + fixed($0, 3, " s") } ?? "not found"
        return [
            "  ECG check    \(Formatting.count(ecgCheck.peaksFound, "R peak")) in \(Formatting.duration(ecgCheck.ecgSeconds)) of ECG;"
                + " \(agreement.matched) of \(Formatting.count(agreement.beats, "beat")) matched (\(fixed(agreement.matchedPercent, 1, " %")))",
            "               \(Formatting.count(agreement.beatsWithoutPeak, "beat")) without an R peak,"
                + " \(Formatting.count(agreement.peaksWithoutBeat, "R peak")) without a beat",
            "               |ΔRR| median \(fixed(agreement.medianRRDifference, 1, " ms")), 95th percentile \(fixed(agreement.rrDifference95, 1, " ms"))"
                + " (\(agreement.intervals) RR); offset \(offset) (beat − R peak)",
        ]
    }
}
