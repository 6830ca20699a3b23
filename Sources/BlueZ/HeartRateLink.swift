import LivePipeline
import Platform
import PolarMeasurementData

/// Keeps one heart-rate sensor connected and notifying, whatever BlueZ and the radio do: finds it
/// (discovering when needed), connects, waits for ServicesResolved, subscribes to 0x2A37 with
/// StartNotify or AcquireNotify, and recovers from link loss, device removal, bluetoothd restarts,
/// adapter power changes, refused calls and silent stalls. Every step is reported as a status.
///
/// A notification reaches `onEvent` exactly once: from PropertiesChanged while we hold a
/// StartNotify session, or from the acquired socket — never both. A StartNotify session is held
/// for as long as BlueZ keeps it: across link losses and adapter power cycles, until the
/// characteristic's object goes away. BlueZ re-enables it the moment the device reconnects
/// (src/gatt-client.c `btd_gatt_client_connected`), before `Connected` or `ServicesResolved` are
/// announced, so its notifications are taken whatever the link looks like at that instant.
public final class HeartRateLink {
    public struct Configuration: Sendable {
        /// An address, or a name or part of one.
        public var device: String
        /// `hci0`; nil takes the first adapter.
        public var adapter: String?
        /// Use AcquireNotify (falling back to StartNotify when refused).
        public var acquire = false
        /// The shortest spacing of connection attempts that fail quickly; it doubles after each.
        /// A link loss, or a Connect that waited for the sensor, is followed by a new Connect at once.
        public var reconnectInitial = 1.0
        public var reconnectMaximum = 30.0
        /// Connected but services not resolved after this long: disconnect and retry.
        public var resolveTimeout = 30.0
        /// No notification for this long while subscribed: re-subscribe; twice: reconnect.
        public var watchdog = 10.0
        /// Start the strap's accelerometer when it offers Polar's Measurement Data service.
        public var motion = true
        /// Start its ECG too.
        public var ecg = false

        public init(device: String) {
            self.device = device
        }
    }

    public enum Event {
        case status(LinkStatus)
        case notification([UInt8])
        /// The sensor was identified: its name and address for the log and the display.
        case device(Device)
        case bodySensorLocation(UInt8)
        case batteryLevel(Int)
        /// Something the user should know that is not a change of state.
        case notice(String)
        /// Beats may have been missed here (link loss, a hung-up socket, a stall): the next beat
        /// is not the neighbour of the previous one.
        case gap
        /// A frame of Polar's Measurement Data service (accelerometer, ECG) and its stream's
        /// sample rate (Hz).
        case measurementData(PMDFrame, sampleRate: Double)
    }

    enum Subscription {
        case none, starting, session, acquiring
        /// Our StartNotify session outlived a link loss: BlueZ re-enables it on reconnect.
        case keptSession
        case acquired(descriptor: Int32, source: EventLoop.Source, mtu: Int)
    }

    public let configuration: Configuration
    let client: BlueZClient
    let loop: EventLoop
    public var onEvent: (Event) -> Void = { _ in }

    // The link's state, shared by its concerns in HeartRateLink+*.swift (connecting, subscription,
    // watchdog, sensor information, loss): internal to BlueZ, not part of its interface.

    /// Bumped when bluetoothd goes away: replies from before are ignored.
    var epoch = 0
    var lastStatus: LinkStatus?
    var discovery: Discovery?
    var devicePath: String?
    /// The 0x2A37 characteristic of our subscription; kept while BlueZ keeps its object.
    var characteristicPath: String?
    var subscription = Subscription.none
    var acquireRefused = false
    /// When the Connect in flight went out; it stays in flight until the link is seen up or the
    /// resolve deadline gives up on it.
    var connectStarted: Double?
    /// After a failure, no Connect before this (monotonic) time.
    var connectNotBefore = 0.0
    var isLinkUp = false
    var informationRead: Set<String> = []
    var pacing: ConnectPacing
    var connectRetry: EventLoop.Timer?
    /// A subscription or discovery retry.
    var retry: EventLoop.Timer?
    var resolveDeadline: EventLoop.Timer?
    var watchdog: EventLoop.Timer?
    var lastNotification = 0.0
    var stalls = 0
    var isStopping = false
    let measurementData: MeasurementDataClient

    public init(client: BlueZClient, loop: EventLoop, configuration: Configuration) {
        self.client = client
        self.loop = loop
        self.configuration = configuration
        pacing = ConnectPacing(initial: configuration.reconnectInitial, maximum: configuration.reconnectMaximum)
        let wanted: [PMDMeasurementType] = (configuration.motion ? [.acc] : []) + (configuration.ecg ? [.ecg] : [])
        measurementData = MeasurementDataClient(client: client, loop: loop, wanted: wanted)
    }

    public func start() {
        measurementData.onEvent = { [weak self] in self?.onEvent($0) }
        client.onChange = { [weak self] in self?.handle($0) }
        client.start()
    }

    // MARK: Events from BlueZ

    func handle(_ change: BlueZClient.Change) {
        guard !isStopping else {
            if case .value(let path, let bytes) = change { take(bytes, from: path) }
            return
        }
        switch change {
        case .loaded:
            evaluate()
        case .unavailable(let error):
            report(LinkStatus.unavailable(error).waiting)
        case .ownerLost:
            forgetEverything(reason: "bluetoothd stopped")
            report(.bluetoothUnavailable, "bluetoothd stopped: waiting for it to come back")
        case .changed(let path), .removed(let path, _):
            if mayConcernUs(path) { evaluate() }
        case .value(let path, let bytes):
            take(bytes, from: path)
        }
    }

    /// A characteristic's new value: a heart-rate notification, or one of Measurement Data's.
    func take(_ bytes: [UInt8], from path: String) {
        if path == characteristicPath {
            if receivesPropertyValues { deliver(bytes) }
        } else {
            _ = measurementData.receive(path, bytes)
        }
    }

    /// Whether the strap touches the skin (0x2A37's contact bits): the Measurement Data streams
    /// are stopped while it does not, and started again when it does.
    public func sensorContact(_ detected: Bool) {
        guard !isStopping else { return }
        if detected {
            measurementData.resume()
        } else if measurementData.phase == .working || measurementData.phase == .settled {
            measurementData.stopStreams(pausing: true)
        }
    }

    /// Whether a change at `path` may change what `evaluate` decides. Once we have a device, other
    /// devices and their GATT objects cannot (discovery's RSSI reports, a keyboard's battery);
    /// adapters and everything of ours can.
    func mayConcernUs(_ path: String) -> Bool {
        guard let devicePath, ObjectTree.isDeviceObject(path) else { return true }
        return path == devicePath || path.hasPrefix(devicePath + "/")
    }

    /// Our device as the tree has it now.
    var ourDevice: Device? { devicePath.flatMap { client.tree.device(at: $0) } }

    /// Subscribed and confirmed: what the watchdog watches.
    var isSubscribed: Bool {
        switch subscription {
        case .session, .acquired: true
        default: false
        }
    }

    var receivesPropertyValues: Bool {
        switch subscription {
        case .starting, .session, .keptSession: true
        default: false
        }
    }

    /// Works out where we are from the tree and takes the next step. Safe to call at any time.
    func evaluate() {
        guard !isStopping, client.isLoaded else { return }
        forgetSubscriptionIfCharacteristicGone()
        let adapter: Adapter
        switch client.tree.poweredAdapter(named: configuration.adapter) {
        case .success(let powered):
            adapter = powered
        case .failure(let status):
            // bluetoothd dropped our discovery session with the adapter. A powered-off adapter
            // keeps its devices (and our session with them); a removed one takes them along.
            discovery?.reset()
            if ourDevice == nil { loseDevice(reason: status.detail) } else { linkDown(reason: status.detail) }
            return report(status.waiting)
        }
        if discovery?.adapterPath != adapter.path {
            discovery = Discovery(client: client, adapterPath: adapter.path)
        }
        guard let device = currentDevice(on: adapter) else {
            loseDevice(reason: "\(configuration.device) is no longer known to bluetoothd")
            startDiscovery()
            return report(.searching, "looking for \(configuration.device) on \(adapter.name)")
        }
        if devicePath != device.path {
            devicePath = device.path
            onEvent(.device(device))
        }
        guard device.hasLink else {
            linkDown(reason: "link lost")
            return connectWhenDue(device)
        }
        linkUp()
        // BlueZ may announce ServicesResolved before the InterfacesAdded of the GATT objects
        // (its signals are batched), so wait for the characteristic itself.
        guard device.areServicesResolved,
              let characteristic = client.tree.characteristic(.heartRateMeasurement, in: .heartRateService, of: device.path)
        else {
            armResolveDeadline(device)
            return report(.resolving, "connected to \(device.displayName); discovering services")
        }
        resolveDeadline?.cancel()
        resolveDeadline = nil
        discovery?.stop()
        characteristicPath = characteristic.path
        readSensorInformation(device)
        subscribe(characteristic, device)
        measurementData.linkReady(device)
    }

    func currentDevice(on adapter: Adapter) -> Device? {
        if let devicePath, let device = client.tree.device(at: devicePath) { return device }
        // Named by its address, the device is used before its UUIDs are known.
        return client.tree.devices(matching: configuration.device, on: adapter.path)
            .first { $0.offersHeartRate || $0.hasAddress(configuration.device) }
    }
}
