import DesktopIdle
import Platform

/// Which desktop source, if any, tells `monitor` when there was input at the desk. Optional:
/// without one the stress detector reads heart rate alone, as it always did.
public struct DeskInputCheck: DoctorCheck {
    /// `desk.input` in the configuration.
    public var enabled: Bool
    /// The source that answered (`mutter`, `screensaver`, `logind`); nil: none did.
    public var source: String?

    public var check: String { "desk" }
    public var title: String { "Desk input" }

    public var finding: Finding {
        guard enabled else { return verdict(.ok, "desk.input is off: input at the desk is not read") }
        switch source {
        case nil:
            return verdict(
                .ok,
                "no desktop source of idle time answered (GNOME's Mutter, the freedesktop ScreenSaver, logind): monitor judges activity from heart rate alone (optional)")
        case "logind"?:
            return verdict(.ok, "logind's idle hint answers (coarse: a desktop sets it only after its own idle delay): monitor takes recent input as evidence of sitting")
        case let name?:
            return verdict(.ok, "\(name) answers with the idle time: monitor takes input within the last minute as evidence of sitting")
        }
    }

    public init(enabled: Bool, source: String?) {
        self.enabled = enabled
        self.source = source
    }

    /// Asks the desktop as `monitor` does (each source at most `timeout` seconds); nil when
    /// none answers.
    public static func observe(timeout: Double) -> String? {
        let loop = EventLoop()
        let reader: DeskIdleReader? = loop.wait { found in DeskIdleReader.find(loop: loop, timeout: timeout, found: found) }
        return reader?.source.rawValue
    }
}
