import Foundation
import TestSupport
import Testing

/// The sensor keeps sending while the link fails in each way BlueZ and the radio fail: every
/// notification bluetoothd emitted for our subscription reaches the output exactly once, in order,
/// and beats flow again afterwards. The fake emits notifications the way BlueZ 5.66 does at a
/// reconnect — to the re-enabled session, before ServicesResolved and (where it lags or never
/// comes) before Connected — with jittered timing.
@Suite(.serialized) struct ReconnectTests {
    /// The first five minutes of MIT-BIH NSR, as 1/1024 s ticks.
    static let fiveMinutes = Fixture.ticks("mitbih_nsr_5min.txt")

    static func config(_ change: (inout FakeBluetooth.Device) -> Void = { _ in }, seed: Int = 1) -> FakeBluetooth.Config {
        var config = FakeBluetooth.Config()
        change(&config.devices[0])
        config.jitter = FakeBluetooth.Jitter(seed: seed)
        return config
    }

    /// Waits until every delivered beat is out, then compares what the monitor printed with what
    /// bluetoothd emitted, notification by notification.
    static func expectEveryDeliveredBeatOnce(
        _ stream: SensorStream, _ monitor: LiveProcess, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let delivered = stream.delivered.filter { !$0.rr.isEmpty }
        let beats = delivered.reduce(0) { $0 + $1.rr.count }
        #expect(monitor.waitForBeats(beats, timeout: 15), "printed \(monitor.beats.count) of \(beats) delivered beats", sourceLocation: sourceLocation)
        Thread.sleep(forTimeInterval: 0.2)  // anything extra (a duplicate) would be out by now
        let received = SensorStream.received(monitor)
        let missing = Set(delivered.map(\.number)).subtracting(received.map(\.number)).sorted()
        let counts = Dictionary(received.map { ($0.number, 1) }, uniquingKeysWith: +)
        let twice = counts.filter { $0.value > 1 }.keys.sorted()
        #expect(missing.isEmpty, "\(missing.count) notifications delivered by bluetoothd but not printed, from \(missing.prefix(10))", sourceLocation: sourceLocation)
        #expect(twice.isEmpty, "\(twice.count) notifications printed twice, from \(twice.prefix(10))", sourceLocation: sourceLocation)
        let firstDifference = Array(zip(received, delivered)).firstIndex { $0.number != $1.number || $0.rr != $1.rr }
        #expect(firstDifference == nil && received.count == delivered.count,
                "printed \(received.count) notifications, delivered \(delivered.count); first difference at \(firstDifference.map(String.init) ?? "the end")",
                sourceLocation: sourceLocation)
    }

    /// Seconds from `time` to the first notification delivered after it.
    static func gap(_ stream: SensorStream, after time: TimeInterval) -> Double? {
        stream.firstDelivered(after: time).map { $0.time - time }
    }

    static func monitor(_ fake: FakeBluetooth, _ extra: [String] = [], settings: String = LiveProcess.fastLink) throws -> LiveProcess {
        try LiveProcess(["monitor", "--device", FakeBluetooth.polar, "--format", "jsonl"] + extra, environment: fake.environment, settings: settings)
    }

    @Test func notificationsBeforeServicesResolvedAndConnectedArrive() throws {
        // bluetoothd re-enables our session at connect time; Connected follows 300 ms later and
        // ServicesResolved after 800 ms: the notifications of that second must not be lost.
        let fake = try FakeBluetooth(Self.config { $0.connectedSignalDelayMs = 300; $0.resolveDelayMs = 800 })
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let stream = SensorStream(fake, ticks: Self.fiveMinutes, interval: 0.01)
        stream.start()
        for at in [60, 160] {
            #expect(stream.waitUntilSent(at))
            try fake.drop()
        }
        #expect(stream.waitUntilFinished())
        Self.expectEveryDeliveredBeatOnce(stream, monitor)
        #expect(stream.delivered.filter(\.beforeServicesResolved).count >= 20, "the fault this test is about did not happen")
        let sessions = try fake.sessions()
        #expect(sessions["start_notify_calls"] as? Int == 1, "the kept session needs no new StartNotify: \(sessions)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func aConnectionBlueZNeverAnnouncesIsUsedAtOnce() throws {
        // bluetoothd 5.66's connect race: the link is made but Connected = true never comes.
        let fake = try FakeBluetooth(Self.config { $0.announceConnected = false })
        defer { fake.stop() }
        let started = Date()
        // Default settings: a 30 s resolve timeout would show as a 30 s wait in `connecting`. Half
        // of that tells them apart with room for a busy machine (a second or two to connect).
        let monitor = try Self.monitor(fake, settings: "")
        #expect(monitor.link("connected", timeout: 20) != nil, "\(monitor.allLines.suffix(5))")
        #expect(Date().timeIntervalSince(started) < 15)
        let stream = SensorStream(fake, ticks: Array(Self.fiveMinutes.prefix(200)), interval: 0.01)
        stream.start()
        #expect(stream.waitUntilSent(60))
        let dropped = ProcessInfo.processInfo.systemUptime
        try fake.drop()
        #expect(stream.waitUntilFinished())
        Self.expectEveryDeliveredBeatOnce(stream, monitor)
        let gap = try #require(Self.gap(stream, after: dropped))
        #expect(gap < 1.5, "first beat \(gap) s after the link loss")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func reconnectsWithinASecondAndAHalfWithDefaultSettings() throws {
        let fake = try FakeBluetooth(Self.config { $0.connectedSignalDelayMs = 60 })
        defer { fake.stop() }
        let monitor = try Self.monitor(fake, settings: "")
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let stream = SensorStream(fake, ticks: Self.fiveMinutes + Self.fiveMinutes, interval: 0.02)
        stream.start()
        var gaps: [Double] = []
        for at in [40, 90, 140] {
            #expect(stream.waitUntilSent(at))
            let dropped = ProcessInfo.processInfo.systemUptime
            try fake.drop()
            #expect(stream.waitUntilSent(at + 40))
            gaps.append(Self.gap(stream, after: dropped) ?? .infinity)
        }
        // Out of range for 3 s, longer than the fake's 2 s LE connect timeout: the Connect that
        // waits when the sensor comes back must be in flight.
        #expect(stream.waitUntilSent(190))
        try fake.range(false)
        Thread.sleep(forTimeInterval: 3)
        let back = ProcessInfo.processInfo.systemUptime
        try fake.range(true)
        #expect(stream.waitUntilFinished())
        gaps.append(Self.gap(stream, after: back) ?? .infinity)
        #expect(gaps.allSatisfy { $0 < 1.5 }, "first beat after each fault: \(gaps) s")
        Self.expectEveryDeliveredBeatOnce(stream, monitor)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func servicesResolvedFlappingAndAStaleCache() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let stream = SensorStream(fake, ticks: Self.fiveMinutes, interval: 0.01)
        stream.start()
        #expect(stream.waitUntilSent(50))
        try fake.flap()
        #expect(stream.waitUntilSent(120))
        #expect(try fake.sessions()["start_notify_calls"] as? Int == 1, "ServicesResolved flapping keeps the session")
        // Service Changed: the objects and every session are dropped and exported again.
        try fake.flap(refresh: true)
        #expect(stream.waitUntilFinished())
        Self.expectEveryDeliveredBeatOnce(stream, monitor)
        #expect(try fake.sessions()["start_notify_calls"] as? Int == 2, "a new session on the new object")
        #expect(stream.delivered.last?.number == stream.count - 1, "notifications flow again at the end")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test(arguments: ["unplug", "rfkill", "power"])
    func adapterFaultsEndWithBeatsFlowing(fault: String) throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let stream = SensorStream(fake, ticks: Self.fiveMinutes, interval: 0.01)
        stream.start()
        #expect(stream.waitUntilSent(60))
        switch fault {
        case "unplug": try fake.plug(false)
        case "rfkill": try fake.rfkill(blocked: true)
        default: try fake.power(false)
        }
        #expect(monitor.next { $0["type"] as? String == "link" && ["no_adapter", "adapter_off"].contains($0["state"] as? String) } != nil)
        Thread.sleep(forTimeInterval: 0.5)
        switch fault {
        case "unplug": try fake.plug(true)
        case "rfkill": try fake.rfkill(blocked: false)
        default: try fake.power(true)
        }
        #expect(stream.waitUntilFinished())
        Self.expectEveryDeliveredBeatOnce(stream, monitor)
        #expect(stream.delivered.last?.number == stream.count - 1, "notifications flow again at the end")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func anotherConnectInProgressAndConnectionParameterDrops() throws {
        let fake = try FakeBluetooth(Self.config())
        defer { fake.stop() }
        let monitor = try Self.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let stream = SensorStream(fake, ticks: Self.fiveMinutes, interval: 0.01)
        stream.start()
        // Out of range, and someone else's Connect is pending: ours is refused with
        // "Operation already in progress" until that one connects.
        #expect(stream.waitUntilSent(40))
        try fake.outOfRangeWhileAnotherConnects()
        #expect(monitor.next { ($0["detail"] as? String)?.contains("Operation already in progress") == true } != nil)
        try fake.range(true)
        // Connection-parameter failures (0x3b, le-connection-abort-by-local): the link keeps
        // dropping soon after it is made.
        for at in stride(from: 100, through: 250, by: 30) {
            #expect(stream.waitUntilSent(at))
            try fake.drop()
        }
        #expect(stream.waitUntilFinished())
        Self.expectEveryDeliveredBeatOnce(stream, monitor)
        #expect(stream.delivered.last?.number == stream.count - 1, "notifications flow again at the end")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }

    @Test func acquiredSocketThroughLinkLosses() throws {
        let fake = try FakeBluetooth(Self.config { $0.connectedSignalDelayMs = 60 })
        defer { fake.stop() }
        let monitor = try Self.monitor(fake, ["--acquire"])
        #expect(try MonitorCommandTests.waitForSubscriber(fake, acquired: true))
        let stream = SensorStream(fake, ticks: Self.fiveMinutes, interval: 0.01)
        stream.start()
        for at in [60, 160] {
            #expect(stream.waitUntilSent(at))
            try fake.drop()
        }
        #expect(stream.waitUntilFinished())
        Self.expectEveryDeliveredBeatOnce(stream, monitor)
        #expect(stream.delivered.last?.number == stream.count - 1, "notifications flow again at the end")
        #expect(try fake.sessions()["start_notify_calls"] as? Int == 0)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
    }
}
