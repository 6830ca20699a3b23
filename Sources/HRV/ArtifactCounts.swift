/// A count per artifact class, without a dictionary so the hot path never allocates.
public struct ArtifactCounts: Equatable, Sendable {
    public var ectopic = 0
    public var missed = 0
    public var extra = 0
    public var longShort = 0
    public var implausible = 0

    public init() {}

    public subscript(artifact: ArtifactClass) -> Int {
        get {
            switch artifact {
            case .ectopic: ectopic
            case .missed: missed
            case .extra: extra
            case .longShort: longShort
            case .implausible: implausible
            }
        }
        set {
            switch artifact {
            case .ectopic: ectopic = newValue
            case .missed: missed = newValue
            case .extra: extra = newValue
            case .longShort: longShort = newValue
            case .implausible: implausible = newValue
            }
        }
    }

    public var total: Int { ArtifactClass.allCases.reduce(0) { $0 + self[$1] } }
}
