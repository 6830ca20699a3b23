import Dashboard
import LivePipeline
import SessionLog

extension Dashboard: SessionOutput {
    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        handle(event, at: time, sensor: 0)
    }

    public func finish(_ summary: SessionSummary) {
        finish(summary, sensor: 0)
    }
}

/// One of several sensors' sessions on the shared dashboard.
final class DashboardFeed: SessionOutput {
    private let dashboard: Dashboard
    private let sensor: Int

    init(_ dashboard: Dashboard, sensor: Int) {
        self.dashboard = dashboard
        self.sensor = sensor
    }

    func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        dashboard.handle(event, at: time, sensor: sensor)
    }

    func finish(_ summary: SessionSummary) {
        dashboard.finish(summary, sensor: sensor)
    }
}
