import DBus
import Platform
import PolarMeasurementData

/// Polar's Measurement Data service on the strap the heart-rate link is connected to: finds it,
/// enables indications on its control point and notifications on its data characteristic before
/// writing anything, reads the features, asks each wanted stream's settings and starts it — one
/// write at a time, each answered by an indication before the next — and hands on the frames.
/// It starts over after every reconnect (a stream ends with the link), stops the streams when
/// asked (exit, contact lost, before disconnecting: a strap left streaming drains its battery),
/// and says why when the strap refuses. A feature read or a request that fails in transit (a D-Bus
/// error, no answer: a slow strap) is tried again after 2, 4, 8 … 60 s while the connection lasts.
/// A strap without the service is left alone.
/// The bytes and their sources: shared/POLAR-PMD.md, `PolarMeasurementData`.
final class MeasurementDataClient {
    static let service = "fb005c80-02e7-f387-1cad-8acd2d8df0c8"
    static let controlPointUUID = "fb005c81-02e7-f387-1cad-8acd2d8df0c8"
    static let dataUUID = "fb005c82-02e7-f387-1cad-8acd2d8df0c8"
    /// How long a request may wait for its indication.
    static let replyTimeout = 10.0
    /// 50 Hz serves motion and chest breathing; 8 G keeps running inside the range.
    static let accelerometerRate: UInt16 = 50
    static let accelerometerRange: UInt16 = 8
    static let ecgRate: UInt16 = 130

    enum Phase: Equatable {
        /// No connection to work on, or not yet looked.
        case idle
        /// The strap shows no PMD service (yet).
        case absent
        /// Subscribing, reading features, or writing requests.
        case working
        /// Every wanted stream was answered (started or refused).
        case settled
        /// Streams stopped on purpose (contact lost); `resume` starts them again.
        case paused
        /// Something failed for this connection: told once, tried again after the next connect.
        case failed
    }

    let client: BlueZClient
    let loop: EventLoop
    let wanted: [PMDMeasurementType]
    var onEvent: (HeartRateLink.Event) -> Void = { _ in }

    var phase = Phase.idle
    /// Bumped when the connection ends: replies from before are ignored.
    var generation = 0
    var controlPoint: String?
    var dataPath: String?
    var offered: PMDFeatures?
    var queue: [PMDRequest] = []
    var inFlight: (request: PMDRequest, timer: EventLoop.Timer)?
    var assembler = PMDReplyAssembler()
    var chosen: [PMDMeasurementType: PMDStreamSettings] = [:]
    var streaming: Set<PMDMeasurementType> = []
    /// Streams the strap stopped by itself and we started again, this connection.
    var restartedAfterStrapStop: Set<PMDMeasurementType> = []
    var malformedFrames = 0
    /// Called once the queue is empty and nothing is in flight (a stop in progress).
    var whenQuiet: (() -> Void)?
    /// Pauses between tries of what failed in transit, this connection; back to 2 s after a success.
    var retry = Backoff(initial: 2, maximum: 60)
    var retryTimer: EventLoop.Timer?
    /// Requests to send again when `retryTimer` fires (none: the feature read is tried again).
    var retryRequests: [PMDRequest] = []

    init(client: BlueZClient, loop: EventLoop, wanted: [PMDMeasurementType]) {
        self.client = client
        self.loop = loop
        self.wanted = wanted
    }

    var isActive: Bool { phase == .working || phase == .settled || phase == .paused }

    /// The link is up and its services resolved: begin, once per connection. The service's
    /// objects may be announced after the heart-rate ones, so an absent one is looked for again.
    func linkReady(_ device: Device) {
        guard phase == .idle || phase == .absent, !wanted.isEmpty else { return }
        guard let controlPoint = client.tree.characteristic(uuid: Self.controlPointUUID, inService: Self.service, of: device.path),
              let data = client.tree.characteristic(uuid: Self.dataUUID, inService: Self.service, of: device.path)
        else {
            phase = .absent
            return
        }
        self.controlPoint = controlPoint.path
        dataPath = data.path
        if let mtu = controlPoint.mtu, mtu < pmdMinimumMTU {
            return fail(
                "motion data off: the strap's Measurement Data service needs an ATT MTU of at least \(pmdMinimumMTU) bytes and "
                    + "this link has \(mtu) (bluetoothd exchanges the largest it may, set by ExchangeMTU in main.conf's [GATT] section)")
        }
        phase = .working
        subscribe([controlPoint.path, data.path]) { [weak self] in self?.readFeatures() }
    }

    /// The connection ended: whatever was streaming stopped with it.
    func linkDown() {
        generation += 1
        inFlight?.timer.cancel()
        inFlight = nil
        queue = []
        assembler.reset()
        streaming = []
        restartedAfterStrapStop = []
        malformedFrames = 0
        offered = nil
        cancelRetry()
        retry.reset()
        phase = .idle
        finishIfQuiet()
    }

    /// A value of one of our characteristics; false when `path` is not ours.
    func receive(_ path: String, _ bytes: [UInt8]) -> Bool {
        if path == dataPath {
            if isActive { deliverFrame(bytes) }
            return true
        }
        guard path == controlPoint else { return false }
        // bluetoothd announces what a read returned as a Value change too (the real one does, after
        // our feature read): that is no indication.
        guard bytes.first != PMDFeatures.marker else { return true }
        if isActive || whenQuiet != nil { indication(bytes) }
        return true
    }

    // MARK: Subscribing and features

    /// StartNotify on each path in turn (InProgress: our session is there already).
    func subscribe(_ paths: [String], then next: @escaping () -> Void) {
        guard let path = paths.first else { return next() }
        let generation = generation
        client.call(path, BlueZNames.gattCharacteristic, "StartNotify") { [weak self] result in
            guard let self, generation == self.generation, self.phase == .working else { return }
            if case .failure(let error) = result, error.name != BlueZNames.Error.inProgress {
                return self.fail("motion data off: enabling the strap's Measurement Data \(path == self.controlPoint ? "indications" : "notifications") failed: \(error)", error)
            }
            self.subscribe(Array(paths.dropFirst()), then: next)
        }
    }

    func readFeatures() {
        guard let controlPoint else { return }
        let generation = generation
        client.call(controlPoint, BlueZNames.gattCharacteristic, "ReadValue", [.properties([:])]) { [weak self] result in
            guard let self, generation == self.generation, self.phase == .working else { return }
            switch result {
            case .failure(let error) where Self.isTransient(error):
                self.retryLater("reading the strap's Measurement Data features failed: \(error)")
            case .failure(let error):
                self.fail("motion data off: reading the strap's Measurement Data features failed: \(error)", error)
            case .success(let values):
                do {
                    let features = try PMDFeatures(parsing: values.first?.bytes ?? [])
                    self.offered = features
                    self.retry.reset()
                    let streams = self.wanted.filter(features.offers)
                    guard !streams.isEmpty else {
                        return self.fail("motion data off: the strap's Measurement Data service offers no \(self.wanted.map(\.description).joined(separator: " or ")) stream")
                    }
                    self.enqueue(streams.map { type in self.chosen[type].map { .start(type, $0) } ?? .getSettings(type) })
                } catch {
                    self.fail("motion data off: the strap's feature read is not PMD's: \(error)")
                }
            }
        }
    }

    // MARK: Trying again

    /// Failed in transit, not refused: the strap may answer a moment later. (NotConnected: the
    /// link is going down; NotSupported, NotPermitted: asking again gets the same answer.)
    static func isTransient(_ error: DBusError) -> Bool {
        ![BlueZNames.Error.notConnected, BlueZNames.Error.notSupported, BlueZNames.Error.notPermitted].contains(error.name)
    }

    /// Tries again after the next pause: `request`, or the feature read when nil. Told once per
    /// run of failures, not on every try; beats never wait for it (a timer on the loop).
    func retryLater(_ problem: String, _ request: PMDRequest? = nil) {
        if let request { retryRequests.append(request) }
        guard retryTimer == nil else { return }
        if retry.attempts == 0 { onEvent(.notice("\(problem); trying again while the strap is connected")) }
        let generation = generation
        retryTimer = loop.schedule(after: retry.next()) { [weak self] in
            guard let self, generation == self.generation else { return }
            self.retryTimer = nil
            let requests = self.retryRequests
            self.retryRequests = []
            guard !self.isWindingDown else { return }
            self.phase = .working
            if self.offered == nil { self.readFeatures() } else { self.enqueue(requests) }
        }
    }

    func cancelRetry() {
        retryTimer?.cancel()
        retryTimer = nil
        retryRequests = []
    }

    func fail(_ message: String, _ error: DBusError? = nil) {
        // NotConnected: the link went down under us; its PropertiesChanged resets everything.
        guard error?.name != BlueZNames.Error.notConnected else { return }
        phase = .failed
        queue = []
        onEvent(.notice(message))
        finishIfQuiet()
    }
}
