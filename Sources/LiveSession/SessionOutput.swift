import LivePipeline
import SessionLog

/// Where a running session's events go. Outputs are told every event in order, and the summary
/// once at the end.
public protocol SessionOutput: AnyObject {
    /// `line` is the event's JSON line, for the outputs that write it.
    func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine)
    func finish(_ summary: SessionSummary)
    /// The pipeline is done with a notification: every event it caused has been handled.
    func notificationEnded()
}

extension SessionOutput {
    public func notificationEnded() {}
}
