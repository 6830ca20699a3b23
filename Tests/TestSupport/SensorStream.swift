import Foundation

/// A strap that keeps sending whatever the link does: Heart Rate Measurements one after another
/// through the fake bluetoothd, from a thread of its own, while the test injects faults. As a
/// strap does, each notification carries the RR intervals that ended in one second of its clock
/// (0, 1, 2 or 3 of them), and each is numbered in its Energy Expended field so that every beat
/// can be followed to the output. The fake says which notifications bluetoothd emitted (to a
/// StartNotify session or an acquired socket): exactly those must reach the pipeline, once each.
public final class SensorStream: @unchecked Sendable {
    public struct Notification {
        /// 0, 1, 2…: the Energy Expended field (UInt16) of the packet.
        public let number: Int
        public let rr: [Int]
        /// bluetoothd emitted it to a subscriber.
        public var delivered = false
        /// It was emitted before ServicesResolved (re-enabled session at reconnect).
        public var beforeServicesResolved = false
        /// When the fake had sent it (monotonic, seconds).
        public var time = 0.0
    }

    private let fake: FakeBluetooth
    /// The strap's address in the fake.
    public let device: String
    private let interval: TimeInterval
    private let lock = NSLock()
    private var notifications: [Notification]
    private var next = 0
    private var isStopped = false

    /// Notifications for `ticks` (RR in 1/1024 s), one per second of the strap's clock, sent every
    /// `interval` seconds of ours, from `device`.
    public init(_ fake: FakeBluetooth, ticks: [Int], interval: TimeInterval = 0.004, device: String = FakeBluetooth.polar) {
        self.fake = fake
        self.device = device
        self.interval = interval
        var beatsBySecond: [[Int]] = []
        var elapsed = 0
        for tick in ticks {
            elapsed += tick
            let second = elapsed / 1024
            // Seconds with no beat ending in them still send a notification, with no RR.
            while beatsBySecond.count <= second { beatsBySecond.append([]) }
            beatsBySecond[second].append(tick)
        }
        let notifications = beatsBySecond.enumerated().map { Notification(number: $0.offset, rr: $0.element) }
        precondition(notifications.count <= Int(UInt16.max), "packet numbers must fit Energy Expended")
        self.notifications = notifications
    }

    public var count: Int { lock.withLock { notifications.count } }
    /// How many notifications have been sent so far.
    public var sentCount: Int { lock.withLock { next } }
    public var isFinished: Bool { lock.withLock { next == notifications.count || isStopped } }

    /// The notifications bluetoothd emitted to a subscriber, in order.
    public var delivered: [Notification] { lock.withLock { notifications[..<next].filter(\.delivered) } }
    /// Every beat the sensor sent, delivered or not.
    public var beatCount: Int { lock.withLock { notifications.reduce(0) { $0 + $1.rr.count } } }

    public static func packet(_ notification: Notification) -> [UInt8] {
        Packet.measurement(heartRate: 60, energy: notification.number, rr: notification.rr)
    }

    public func start() {
        Thread.detachNewThread { [self] in
            while let notification = lock.withLock({ isStopped || next == notifications.count ? nil : notifications[next] }) {
                // While bluetoothd restarts there is no one to send to: that notification is lost in the air.
                let reply = try? fake.run("notify \(device) \(Packet.hex(Self.packet(notification)))")
                let delivered = (reply?["delivered"] as? Int ?? 0) > 0
                let now = ProcessInfo.processInfo.systemUptime
                lock.withLock {
                    notifications[next].delivered = delivered
                    notifications[next].beforeServicesResolved = delivered && reply?["services_resolved"] as? Bool == false
                    notifications[next].time = now
                    next += 1
                }
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }

    public func stop() { lock.withLock { isStopped = true } }

    /// Waits until `count` notifications have been sent (or the stream ended).
    public func waitUntilSent(_ count: Int, timeout: TimeInterval = 60) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if sentCount >= count || isFinished { return sentCount >= count }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return false
    }

    public func waitUntilFinished(timeout: TimeInterval = 120) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !isFinished && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return isFinished
    }

    /// The first notification delivered at or after `time` (monotonic seconds), if any.
    public func firstDelivered(after time: TimeInterval) -> Notification? {
        lock.withLock { notifications[..<next].first { $0.delivered && $0.time >= time } }
    }

    /// What the monitor printed, as (packet number, rr) per notification in the order the beats
    /// came, from the `energy_kj` and `rr_1024` of its beat lines; with `sensor`, only the lines
    /// labelled with it (a monitor following several sensors).
    public static func received(_ monitor: LiveProcess, sensor: String? = nil) -> [(number: Int, rr: [Int])] {
        var received: [(number: Int, rr: [Int])] = []
        var lastPacket: Int?
        for line in monitor.objects where line["type"] as? String == "rr" && (sensor == nil || line["sensor"] as? String == sensor) {
            guard let number = line["energy_kj"] as? Int, let rr = line["rr_1024"] as? Int, let packet = line["pkt"] as? Int else { continue }
            if packet == lastPacket, received.last?.number == number {
                received[received.count - 1].rr.append(rr)
            } else {
                received.append((number, [rr]))
            }
            lastPacket = packet
        }
        return received
    }
}
