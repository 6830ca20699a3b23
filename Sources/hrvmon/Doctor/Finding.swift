import Platform
/// What one `hrvmon doctor` check concluded: the verdict, what was found, and how to fix it.
struct Finding: Equatable {
    enum Status: String {
        case ok
        /// Works, but something is worth knowing or doing.
        case warn
        /// hrvmon cannot monitor until this is fixed.
        case fail
        /// Not checked because an earlier check failed; that one says what to do.
        case skip
    }

    /// Stable identifier, e.g. `kernel` (the JSON `check` key).
    var check: String
    /// For people, e.g. `Kernel Bluetooth`.
    var title: String
    var status: Status
    var explanation: String
    /// What to do, when there is something to do.
    var fix: String?
}

/// One check: an observation made elsewhere, judged here without I/O, so every verdict and its
/// wording is unit-testable.
protocol DoctorCheck {
    var check: String { get }
    var title: String { get }
    var finding: Finding { get }
}

extension DoctorCheck {
    func verdict(_ status: Finding.Status, _ explanation: String, fix: String? = nil) -> Finding {
        Finding(check: check, title: title, status: status, explanation: explanation, fix: fix)
    }
}
