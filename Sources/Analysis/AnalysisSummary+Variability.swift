import HRV
import Presentation
import SessionLog

/// The research measures in `analyze`'s forms: JSON keys (a documented contract), CSV columns
/// and text lines.
extension AnalysisSummary {
    static let variabilityColumns = [
        "vlf_ms2", "lf_ms2", "hf_ms2", "lf_hf", "lf_nu", "hf_nu", "lf_peak_hz", "hf_peak_hz", "respiration_rate_bpm",
        "dfa_alpha1", "dfa_alpha2", "sampen", "baevsky_si", "baevsky_si_sqrt",
    ]

    var variabilityCells: [Double?] {
        let frequency = variability?.frequency
        return [
            frequency?.vlf, frequency?.lf, frequency?.hf, frequency?.lfHF, frequency?.lfNU, frequency?.hfNU, frequency?.lfPeak,
            frequency?.hfPeak, frequency?.respirationRate, variability?.dfaAlpha1, variability?.dfaAlpha2,
            variability?.sampleEntropy, variability?.baevskyIndex, variability?.baevskyIndexRoot,
        ]
    }

    func addVariability(to object: inout JSONObject) {
        guard let variability else { return }
        object.add("frequency", variability.frequency.map { frequency in
            var item = JSONObject()
            item.add("method", "welch")
            item.add("detrend", "linear")
            item.add("vlf_ms2", frequency.vlf)
            item.add("lf_ms2", frequency.lf)
            item.add("hf_ms2", frequency.hf)
            item.add("lf_hf", frequency.lfHF)
            item.add("lf_nu", frequency.lfNU)
            item.add("hf_nu", frequency.hfNU)
            item.add("lf_peak_hz", frequency.lfPeak)
            item.add("hf_peak_hz", frequency.hfPeak)
            item.add("segments", frequency.segments)
            return item
        })
        var nonlinear = JSONObject()
        nonlinear.add("dfa_alpha1", variability.dfaAlpha1)
        nonlinear.add("dfa_alpha2", variability.dfaAlpha2)
        nonlinear.add("sampen", variability.sampleEntropy)
        nonlinear.add("sampen_method", sampleEntropyMethod(variability))
        object.add("nonlinear", nonlinear)
        object.add("baevsky_si", variability.baevskyIndex)
        object.add("baevsky_si_sqrt", variability.baevskyIndexRoot)
        object.add("respiration_rate_bpm", variability.frequency?.respirationRate)
    }

    func variabilityLines(_ fixed: (Double?, Int, String) -> String) -> [String] {
        guard let variability else { return [] }
        var lines: [String] = []
        if let frequency = variability.frequency {
            let segments = "\(Formatting.count(frequency.segments, "segment")) of 256 s"
            let ratio = "LF/HF \(fixed(frequency.lfHF, 2, "")), LF \(fixed(frequency.lfNU, 1, " nu"))"
            lines.append("  LF / HF      \(fixed(frequency.lf, 0, " ms²")) / \(fixed(frequency.hf, 0, " ms²"))  (\(ratio); VLF \(fixed(frequency.vlf, 0, " ms²")); Welch over \(segments))")
        }
        // One line for breathing: the whole record's rate, and, when a chest strap's accelerometer
        // read it, where the stress detector took breathing from, second by second (the chest
        // while it reads breathing, else the RR; without one it is always the RR).
        let rate = variability.frequency.map { "\(fixed($0.respirationRate, 1, " /min"))  (the HF peak, \(fixed($0.hfPeak, 3, " Hz")))" }
        let sources = (breathingSourceSeconds[.chest] ?? 0) > 0
            ? Formatting.shares(breathingSourceSeconds.map { ($0.key == .chest ? "from the chest" : "from RR", $0.value) }) : nil
        if rate != nil || sources != nil {
            lines.append("  Breathing    " + [rate, sources.map { "read for stress \($0)" }].compactMap { $0 }.joined(separator: "; "))
        }
        lines.append("  DFA α1 / α2  \(fixed(variability.dfaAlpha1, 2, "")) / \(fixed(variability.dfaAlpha2, 2, ""))   SampEn \(fixed(variability.sampleEntropy, 2, "")) (\(sampleEntropyMethod(variability)))")
        lines.append("  Stress index \(fixed(variability.baevskyIndex, 1, ""))  (Baevsky; its square root, Kubios's \"Stress index\", \(fixed(variability.baevskyIndexRoot, 1, "")))")
        return lines
    }

    private func sampleEntropyMethod(_ variability: VariabilityMetrics) -> String {
        variability.sampleEntropySegments.map { "mean of \(Formatting.count($0, "5-minute segment"))" } ?? "whole record"
    }
}
