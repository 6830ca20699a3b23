import BlueZ
import HRV
import LiveSession
import Platform
import Presentation
import SessionLog
import Settings

extension SensorOptions {
    /// Follows every `--device` at once until stopped (Ctrl-C, `duration`): each sensor with its
    /// own connection to the system bus, link, session and session file, all on one event loop,
    /// judged against the one personal baseline. A link that drops, stalls or reconnects touches
    /// only its own session. Lines go to stdout labelled with the sensor; the dashboard has a
    /// section for each. `prepare` sees each host, and the loop, before the links start.
    /// Returns the hosts in the order of `--device`, their sessions finished.
    func runSessions(
        settings: Settings, baseline: Baseline?, display: SessionDisplay, record: Bool, title: String, duration: Double?,
        prepare: (LiveSessionHost, EventLoop) -> Void
    ) throws -> [LiveSessionHost] {
        let bus = try SystemBus()
        var links: [HeartRateLink] = []
        var isStopping = false
        let stop = {
            guard !isStopping else { return }
            isStopping = true
            var running = links.count
            for link in links {
                link.stop {
                    running -= 1
                    if running == 0 { bus.loop.stop() }
                }
            }
        }

        let start = WallClock.now()
        let started = EventLoop.now()
        var hosts: [LiveSessionHost] = []
        for device in devices {
            let client = links.isEmpty ? bus.client : try bus.separateClient()
            let link = HeartRateLink(
                client: client, loop: bus.loop,
                configuration: linkConfiguration(device, settings))
            let address = device.isBluetoothAddress ? device.uppercased() : nil
            let header = SessionHeader(start: start, source: "live", deviceAddress: address, baseline: baseline, settings: settings)
            let host = try startingSession {
                try LiveSessionHost(
                    header, record: record, at: nil, display: display == .dashboard ? nil : display, sensor: address ?? device, takesNotes: false, title: title,
                    loop: bus.loop, clock: WallClock.now, stop: stop)
            }
            host.run.follow(link, remembers: false, now: WallClock.now)
            client.connection.onDisconnect = { [run = host.run] in
                run.report(.notice("the system D-Bus went away; stopping"), at: WallClock.now())
                bus.loop.stop()
            }
            links.append(link)
            hosts.append(host)
        }
        let group = SessionGroup(
            hosts, display: display, title: title, start: start, settings: settings, loop: bus.loop, clock: WallClock.now, stop: stop)
        if let duration { bus.loop.schedule(after: duration, stop) }
        bus.onInterrupt = stop
        for host in hosts { prepare(host, bus.loop) }
        for link in links { link.start() }
        group.runUntilStopped { (WallClock.now(), EventLoop.now() - started) }
        return hosts
    }
}
