import HRV
import Presentation

/// The session page's "ECG check", for a session recorded with `--ecg`: the R peaks found in the
/// strap's ECG and how the RR it sent agrees with them (the figures of `hrvmon analyze`).
public enum SessionECGCheck {
    /// The section; empty for a session without ECG.
    public static func section(_ check: ECGCheck?) -> String {
        guard let check else { return "" }
        let agreement = check.agreement
        func milliseconds(_ value: Double?) -> String { value.map { Formatting.fixed($0, digits: 1) + " ms" } ?? "—" }
        let rows: [(String, String)] = [
            ("R peaks found", "\(Formatting.grouped(check.peaksFound)) in \(Formatting.elapsed(check.ecgSeconds)) of ECG"),
            ("Beats matched by an R peak", "\(Formatting.grouped(agreement.matched)) of \(Formatting.grouped(agreement.beats))"
                + (agreement.matchedPercent.map { " (\(Formatting.fixed($0, digits: 1)) %)" } ?? "")),
            ("Beats without an R peak", Formatting.grouped(agreement.beatsWithoutPeak)),
            ("R peaks without a beat", Formatting.grouped(agreement.peaksWithoutBeat)),
            ("|ΔRR| median", milliseconds(agreement.medianRRDifference)),
            ("|ΔRR| 95th percentile", milliseconds(agreement.rrDifference95)),
            ("Offset (beat − R peak)", agreement.offset.map { ($0 < 0 ? "" : "+") + Formatting.fixed($0, digits: 3) + " s" } ?? "not found"),
        ]
        return "<h2>ECG check</h2>" + ReportPage.table(
            caption: "The strap's RR against the R peaks found in its ECG, over the time both cover: |ΔRR| compares an RR the strap sent with the time between the two R peaks matched to its beats.",
            headings: [ReportPage.Cell("Check"), ReportPage.Cell("Value", kind: "number")],
            rows: rows.map { [ReportPage.Cell($0.0), ReportPage.Cell($0.1, kind: "number")] })
    }
}
