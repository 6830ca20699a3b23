import Dashboard
import LivePipeline
import SessionLog

extension Dashboard: SessionOutput {
    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        handle(event, at: time)
    }
}
