/// What one `hrvmon doctor` check concluded: the verdict, what was found, and how to fix it.
public struct Finding: Equatable {
    public enum Status: String {
        case ok
        /// Works, but something is worth knowing or doing.
        case warn
        /// hrvmon cannot monitor until this is fixed.
        case fail
        /// Not checked because an earlier check failed; that one says what to do.
        case skip
    }

    /// Stable identifier, e.g. `kernel` (the JSON `check` key).
    public var check: String
    /// For people, e.g. `Kernel Bluetooth`.
    public var title: String
    public var status: Status
    public var explanation: String
    /// What to do, when there is something to do.
    public var fix: String?

    public init(check: String, title: String, status: Status, explanation: String, fix: String? = nil) {
        self.check = check
        self.title = title
        self.status = status
        self.explanation = explanation
        self.fix = fix
    }
}

/// One check: an observation made elsewhere, judged here without I/O, so every verdict and its
/// wording is unit-testable.
public protocol DoctorCheck {
    var check: String { get }
    var title: String { get }
    var finding: Finding { get }
}

extension DoctorCheck {
    public func verdict(_ status: Finding.Status, _ explanation: String, fix: String? = nil) -> Finding {
        Finding(check: check, title: title, status: status, explanation: explanation, fix: fix)
    }
}
