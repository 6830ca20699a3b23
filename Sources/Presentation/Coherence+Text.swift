import HRV

extension Coherence {
    /// A coherence score (0–1) as people read it: `coherence 72 %`.
    public static func text(_ score: Double) -> String {
        "coherence \(Formatting.fixed(score * 100, digits: 0)) %"
    }
}
