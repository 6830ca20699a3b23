/// The strap's RR checked against its own ECG (a session recorded with `--ecg`): the R peaks
/// found in the ECG and how the beats the strap sent agree with them (`RRAgreement`). Found by
/// the analysis (`Analysis`), shown by `analyze` and by the session report.
public struct ECGCheck: Equatable, Sendable {
    /// All R peaks found in the ECG, also where the strap sent no beats.
    public var peaksFound: Int
    /// Seconds of ECG samples recorded.
    public var ecgSeconds: Double
    public var agreement: RRAgreement

    public init(peaksFound: Int, ecgSeconds: Double, agreement: RRAgreement) {
        (self.peaksFound, self.ecgSeconds, self.agreement) = (peaksFound, ecgSeconds, agreement)
    }
}
