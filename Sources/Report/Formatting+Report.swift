import Presentation
/// Lengths and counts as the report pages write them.
extension Formatting {
    /// `12 min`, `1 h 05 min`, `40 s`, `0 min`: whole minutes from a minute on.
    public static func minutes(_ seconds: Double) -> String {
        guard seconds >= 60 || seconds == 0 else { return "\(Int(seconds.rounded())) s" }
        let total = Int((seconds / 60).rounded())
        return total >= 60 ? "\(total / 60) h \(total % 60 < 10 ? "0" : "")\(total % 60) min" : "\(total) min"
    }

    /// `7 min 59 s`; `23 h 03 min` from an hour on; `under 1 s` (a session streamed faster than
    /// real time has link losses of no length).
    public static func elapsed(_ seconds: Double) -> String {
        seconds < 1 ? "under 1 s" : seconds < 3600 ? duration(seconds) : minutes(seconds)
    }

    /// A setting's length: `60 s`, `3 min`.
    public static func setting(seconds value: Double) -> String {
        value < 120 || value.truncatingRemainder(dividingBy: 60) != 0 ? "\(fixed(value, digits: 0)) s" : "\(Int(value) / 60) min"
    }

    /// `45 ms`.
    public static func milliseconds(_ value: Double) -> String { fixed(value, digits: 0) + " ms" }

    /// `103,111`.
    public static func grouped(_ value: Int) -> String {
        let digits = String(value)
        return digits.enumerated().map { ($0.offset > 0 && (digits.count - $0.offset) % 3 == 0 ? "," : "") + String($0.element) }.joined()
    }
}
