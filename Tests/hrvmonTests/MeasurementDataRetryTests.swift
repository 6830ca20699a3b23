import Foundation
import TestSupport
import Testing

/// Found through the real bluetoothd in the VM test: a feature read that bluetoothd gave up on
/// (a slow strap) left motion off until the next connect, for hours. What fails in transit is
/// tried again while the connection lasts, told once, and beats never wait for it.
@Suite(.serialized) struct MeasurementDataRetryTests {
    static func told(_ monitor: LiveProcess) -> [String] {
        monitor.objects.compactMap { $0["message"] as? String }.filter { $0.contains("trying again while the strap is connected") }
    }

    static func connects(_ fake: FakeBluetooth) throws -> Int {
        (try fake.run("calls")["calls"] as? [[String: Any]] ?? []).filter { $0["method"] as? String == "Connect" }.count
    }

    @Test func aFailedFeatureReadIsTriedAgainUntilMotionStarts() throws {
        let fake = try FakeBluetooth(MeasurementDataTests.config { $0.pmdFailedFeatureReads = 2 })
        defer { fake.stop() }
        let monitor = try MeasurementDataTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let notice = monitor.next(timeout: 15) { ($0["message"] as? String)?.contains("trying again") == true }
        #expect((notice?["message"] as? String)?.hasPrefix("reading the strap's Measurement Data features failed: org.bluez.Error.Failed") == true, "\(monitor.allLines.suffix(10))")
        // Beats flow while motion waits for the strap.
        try MonitorCommandTests.send([Packet.measurement(rr: [810]), Packet.measurement(rr: [820, 830])], to: fake, expecting: 3, in: monitor)
        let motion = monitor.next(timeout: 40) { $0["type"] as? String == "motion" }
        #expect(motion != nil, "\(monitor.allLines.suffix(10))\n\(fake.fakeLog.suffix(2000))")
        try MonitorCommandTests.send([Packet.measurement(rr: [840])], to: fake, expecting: 4, in: monitor)
        let state = try fake.measurementData()
        #expect(state["feature_reads"] as? Int == 3 && MeasurementDataTests.streams(state) == ["acc"], "\(state)")
        #expect(try Self.connects(fake) == 1, "started without a reconnect")
        #expect(Self.told(monitor).count == 1, "told once, not on every try: \(Self.told(monitor))")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        #expect(monitor.beats == [810, 820, 830, 840], "every beat once")
        #expect(MeasurementDataTests.streams(try fake.measurementData()).isEmpty)
    }

    @Test func aRequestThatFailsInTransitIsSentAgain() throws {
        let fake = try FakeBluetooth(MeasurementDataTests.config())
        defer { fake.stop() }
        // The first write, the accelerometer's settings asked, fails before it reaches the strap.
        try fake.fail("WriteValue", with: "org.bluez.Error.Failed")
        let monitor = try MeasurementDataTests.monitor(fake)
        #expect(try MonitorCommandTests.waitForSubscriber(fake))
        let notice = monitor.next(timeout: 15) { ($0["message"] as? String)?.contains("trying again") == true }
        #expect((notice?["message"] as? String)?.hasPrefix("writing get settings accelerometer to the strap failed") == true, "\(monitor.allLines.suffix(10))")
        try MonitorCommandTests.send([Packet.measurement(rr: [810])], to: fake, expecting: 1, in: monitor)
        #expect(monitor.next(timeout: 40) { $0["type"] as? String == "motion" } != nil, "\(monitor.allLines.suffix(10))")
        try MonitorCommandTests.send([Packet.measurement(rr: [820])], to: fake, expecting: 2, in: monitor)
        let state = try fake.measurementData()
        #expect(MeasurementDataTests.writes(state) == ["01 02", MeasurementDataTests.startAccelerometer], "\(state)")
        #expect(try Self.connects(fake) == 1)
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        #expect(monitor.beats == [810, 820])
    }
}
