import Platform
import DBus

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
    }

    private enum Subscription {
        case none, starting, session, acquiring
        /// Our StartNotify session outlived a link loss: BlueZ re-enables it on reconnect.
        case keptSession
        case acquired(descriptor: Int32, source: EventLoop.Source, mtu: Int)
    }

    public let configuration: Configuration
    private let client: BlueZClient
    private let loop: EventLoop
    public var onEvent: (Event) -> Void = { _ in }

    /// Bumped when bluetoothd goes away: replies from before are ignored.
    private var epoch = 0
    private var lastStatus: LinkStatus?
    private var discovery: Discovery?
    private var devicePath: String?
    /// The 0x2A37 characteristic of our subscription; kept while BlueZ keeps its object.
    private var characteristicPath: String?
    private var subscription = Subscription.none
    private var acquireRefused = false
    /// When the Connect in flight went out; it stays in flight until the link is seen up or the
    /// resolve deadline gives up on it.
    private var connectStarted: Double?
    /// After a failure, no Connect before this (monotonic) time.
    private var connectNotBefore = 0.0
    private var isLinkUp = false
    private var informationRead: Set<String> = []
    private var pacing: ConnectPacing
    private var connectRetry: EventLoop.Timer?
    /// A subscription or discovery retry.
    private var retry: EventLoop.Timer?
    private var resolveDeadline: EventLoop.Timer?
    private var watchdog: EventLoop.Timer?
    private var lastNotification = 0.0
    private var stalls = 0
    private var isStopping = false

    public init(client: BlueZClient, loop: EventLoop, configuration: Configuration) {
        self.client = client
        self.loop = loop
        self.configuration = configuration
        pacing = ConnectPacing(initial: configuration.reconnectInitial, maximum: configuration.reconnectMaximum)
    }

    public func start() {
        client.onChange = { [weak self] in self?.handle($0) }
        client.start()
    }

    // MARK: Events from BlueZ

    private func handle(_ change: BlueZClient.Change) {
        guard !isStopping else {
            if case .value(let path, let bytes) = change, path == characteristicPath, receivesPropertyValues { deliver(bytes) }
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
            if path == characteristicPath, receivesPropertyValues { deliver(bytes) }
        }
    }

    /// Whether a change at `path` may change what `evaluate` decides. Once we have a device, other
    /// devices and their GATT objects cannot (discovery's RSSI reports, a keyboard's battery);
    /// adapters and everything of ours can.
    private func mayConcernUs(_ path: String) -> Bool {
        guard let devicePath, ObjectTree.isDeviceObject(path) else { return true }
        return path == devicePath || path.hasPrefix(devicePath + "/")
    }

    /// Our device as the tree has it now.
    private var ourDevice: Device? { devicePath.flatMap { client.tree.device(at: $0) } }

    /// Subscribed and confirmed: what the watchdog watches.
    private var isSubscribed: Bool {
        switch subscription {
        case .session, .acquired: true
        default: false
        }
    }

    private var receivesPropertyValues: Bool {
        switch subscription {
        case .starting, .session, .keptSession: true
        default: false
        }
    }

    /// Works out where we are from the tree and takes the next step. Safe to call at any time.
    private func evaluate() {
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
    }

    private func currentDevice(on adapter: Adapter) -> Device? {
        if let devicePath, let device = client.tree.device(at: devicePath) { return device }
        // Named by its address, the device is used before its UUIDs are known.
        return client.tree.devices(matching: configuration.device, on: adapter.path)
            .first { $0.offersHeartRate || $0.hasAddress(configuration.device) }
    }

    // MARK: Connecting

    private func connectWhenDue(_ device: Device, after failure: DBusError? = nil) {
        guard connectStarted == nil, connectRetry == nil else { return }
        let wait = connectNotBefore - EventLoop.now()
        guard wait <= 0 else {
            return connectLater(failure.map { "connecting to \(device.displayName) failed: \($0)" } ?? "\(device.displayName) not connected", after: wait)
        }
        connectStarted = EventLoop.now()
        // After a Connect that waited in vain the sensor is away: the new one waits for it.
        report(.connecting, failure.map { "waiting for \(device.displayName) (\(device.address)) to come into range (\($0))" }
            ?? "connecting to \(device.displayName) (\(device.address))")
        let epoch = epoch
        client.call(device.path, BlueZNames.device, "Connect", timeout: 90) { [weak self] result in
            guard let self, epoch == self.epoch, !self.isStopping, let started = self.connectStarted else { return }
            if case .failure(let error) = result, error.name != BlueZNames.Error.alreadyConnected {
                self.connectStarted = nil
                let now = EventLoop.now()
                self.connectNotBefore = now + self.pacing.delay(afterAttemptStartedAt: started, failedAt: now)
                return self.connectWhenDue(device, after: error)
            }
            // The link is up, but BlueZ may reply before Connected turns true, or never announce
            // it: read it back. The connection stays in flight until the link is seen up, or
            // until the deadline gives up on it.
            self.armResolveDeadline(device)
            self.client.refresh(device.path, BlueZNames.device)
        }
    }

    private func linkUp() {
        connectStarted = nil
        connectRetry?.cancel()
        connectRetry = nil
        isLinkUp = true
    }

    private func armResolveDeadline(_ device: Device) {
        guard resolveDeadline == nil else { return }
        let epoch = epoch
        resolveDeadline = loop.schedule(after: configuration.resolveTimeout) { [weak self] in
            guard let self, epoch == self.epoch else { return }
            self.resolveDeadline = nil
            let reason = "no Heart Rate Measurement (0x2A37) service on \(device.displayName) after \(Int(self.configuration.resolveTimeout)) s"
            self.giveUpOnConnection(device, reason)
            if self.connectStarted != nil {
                // Never seen connected, so no link-down will come to schedule the next attempt.
                self.connectStarted = nil
                self.connectWhenDue(device)
            }
        }
    }

    /// Disconnects; the link-down path then schedules the retry. Should BlueZ refuse, the link
    /// stays up and no link-down will come: the retry is scheduled here, and a watchdog that gave
    /// up is armed again, to give up again if notifications stay away.
    private func giveUpOnConnection(_ device: Device, _ reason: String) {
        onEvent(.notice(reason))
        connectNotBefore = EventLoop.now() + pacing.delayAfterFailure()
        let epoch = epoch
        client.call(device.path, BlueZNames.device, "Disconnect") { [weak self] result in
            guard let self, epoch == self.epoch, !self.isStopping, case .failure(let error) = result else { return }
            self.retryLater("disconnecting from \(device.displayName) failed: \(error)")
            if self.isSubscribed { self.armWatchdog() }
        }
    }

    private func connectLater(_ reason: String, after delay: Double) {
        guard connectRetry == nil else { return }
        report(.reconnecting, reason, retryIn: delay)
        connectRetry = loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.connectRetry = nil
            self.evaluate()
        }
    }

    /// Tries again after the back-off: for failures other than a Connect's.
    private func retryLater(_ reason: String) {
        guard retry == nil else { return }
        let delay = pacing.delayAfterFailure()
        report(.reconnecting, reason, retryIn: delay)
        retry = loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.retry = nil
            self.evaluate()
        }
    }

    private func startDiscovery() {
        guard let discovery, retry == nil else { return }
        discovery.start { [weak self] state in
            guard let self, case .failed(let error) = state else { return }
            self.onEvent(.notice("discovery failed: \(error); retrying"))
            self.retryLater("discovery failed: \(error)")
        }
    }

    // MARK: Subscribing

    private func subscribe(_ characteristic: Characteristic, _ device: Device) {
        guard retry == nil else { return }
        switch subscription {
        case .starting, .session, .acquiring, .acquired:
            return
        case .keptSession where characteristic.isNotifying:
            // BlueZ re-enabled our session after the reconnect: nothing to ask.
            subscription = .session
            return confirmSubscribed(device)
        case .keptSession, .none:
            break
        }
        if configuration.acquire && !acquireRefused { acquire(characteristic, device) } else { startNotify(characteristic, device) }
    }

    private func startNotify(_ characteristic: Characteristic, _ device: Device) {
        subscription = .starting
        report(.subscribing, "subscribing to heart-rate notifications (StartNotify)")
        let epoch = epoch
        client.call(characteristic.path, BlueZNames.gattCharacteristic, "StartNotify") { [weak self] result in
            guard let self, epoch == self.epoch, !self.isStopping, case .starting = self.subscription else { return }
            switch result {
            case .success:
                self.subscription = .session
                self.confirmSubscribed(device)
            case .failure(let error) where error.name == BlueZNames.Error.inProgress:
                // Our session exists already (BlueZ keeps one per client).
                self.subscription = .session
                self.confirmSubscribed(device)
            case .failure(let error):
                self.subscription = .none
                self.subscriptionFailed("StartNotify", error)
            }
        }
    }

    private func acquire(_ characteristic: Characteristic, _ device: Device) {
        subscription = .acquiring
        report(.subscribing, "acquiring the notification socket (AcquireNotify)")
        let epoch = epoch
        client.call(characteristic.path, BlueZNames.gattCharacteristic, "AcquireNotify", [.properties([:])]) { [weak self] result in
            let descriptor = (try? result.get())?.first?.unixFD
            guard let self, epoch == self.epoch, !self.isStopping, case .acquiring = self.subscription else {
                if let descriptor { Descriptor.close(descriptor) }
                return
            }
            switch result {
            case .success(let values):
                guard let descriptor else {
                    self.subscription = .none
                    return self.subscriptionFailed("AcquireNotify", DBusError(name: DBusError.invalidArguments, message: "no descriptor in the reply"))
                }
                let mtu = values.dropFirst().first?.integer ?? 512
                Descriptor.setNonBlocking(descriptor)
                let source = self.loop.watch(descriptor) { [weak self] events in self?.readAcquired(descriptor, events) }
                self.subscription = .acquired(descriptor: descriptor, source: source, mtu: max(mtu, 23))
                self.confirmSubscribed(device)
            case .failure(let error)
                where [BlueZNames.Error.notPermitted, BlueZNames.Error.inProgress, BlueZNames.Error.notSupported, DBusError.unknownMethod]
                    .contains(error.name):
                self.acquireRefused = true
                self.subscription = .none
                self.onEvent(.notice("AcquireNotify refused (\(error)); using StartNotify instead"))
                self.evaluate()
            case .failure(let error):
                self.subscription = .none
                self.subscriptionFailed("AcquireNotify", error)
            }
        }
    }

    private func subscriptionFailed(_ method: String, _ error: DBusError) {
        // NotConnected: the link went down under us, and its PropertiesChanged drives what's next.
        guard error.name != BlueZNames.Error.notConnected else { return evaluate() }
        retryLater("\(method) failed: \(error)")
    }

    private func confirmSubscribed(_ device: Device) {
        lastNotification = EventLoop.now()
        armWatchdog()
        // After a stall, `connected` waits for proof: the first notification ("notifications resumed").
        guard !awaitingResume else { return }
        report(.connected, "\(device.displayName) (\(device.address))")
    }

    /// A stall is on: it ends with the next notification, or when the link goes down.
    private var awaitingResume: Bool { stalls > 0 }

    /// One datagram per read; a zero-length one is an empty notification. After POLLHUP a zero
    /// read is end of file, so queued datagrams are drained first and beats are not lost.
    private func readAcquired(_ descriptor: Int32, _ events: Int16) {
        guard case .acquired(let current, let source, let mtu) = subscription, current == descriptor else { return }
        let hungUp = Descriptor.isHangUp(events)
        while let packet = Descriptor.receivePacket(descriptor, upTo: mtu) {
            if packet.isEmpty && hungUp { break }
            deliver(packet)
            if packet.isEmpty { return }
        }
        guard hungUp else { return }
        source.cancel()
        Descriptor.close(descriptor)
        subscription = .none
        onEvent(.gap)
        // Usually the link went down and its PropertiesChanged is on its way: acquiring again at
        // once would race it, so wait the back-off first (the link going down cancels the wait).
        retryLater("the notification socket hung up")
    }

    private func deliver(_ bytes: [UInt8]) {
        lastNotification = EventLoop.now()
        // A notification before StartNotify's reply proves the subscription: it is confirmed now
        // rather than showing `subscribing` while beats flow (the late reply is then ignored).
        if case .starting = subscription {
            subscription = .session
            if let device = ourDevice { confirmSubscribed(device) }
        }
        if awaitingResume, let device = ourDevice {
            stalls = 0
            report(.connected, "\(device.displayName) (\(device.address)): notifications resumed")
        }
        pacing.succeeded()
        onEvent(.notification(bytes))
    }

    // MARK: Watchdog

    /// One timer per watchdog period at most: notifications only move the deadline.
    private func armWatchdog() {
        watchdog?.cancel()
        let epoch = epoch
        watchdog = loop.schedule(at: lastNotification + configuration.watchdog) { [weak self] in
            guard let self, epoch == self.epoch, !self.isStopping else { return }
            self.watchdog = nil
            self.checkWatchdog()
        }
    }

    private func checkWatchdog() {
        guard isSubscribed else { return }
        let silent = EventLoop.now() - lastNotification
        guard silent >= configuration.watchdog else { return armWatchdog() }
        stalls += 1
        onEvent(.gap)
        report(.stalled, "no notification for \(Int(silent.rounded())) s")
        lastNotification = EventLoop.now()
        // The stall lasts until notifications resume or the link goes down.
        guard stalls < 2, let characteristicPath else {
            guard let device = ourDevice else { return }
            return giveUpOnConnection(device, "still no notifications after re-subscribing: reconnecting")
        }
        onEvent(.notice("re-subscribing after \(Int(silent.rounded())) s without notifications"))
        switch subscription {
        case .acquired:
            closeAcquiredSocket()
            evaluate()
        default:
            let epoch = epoch
            client.call(characteristicPath, BlueZNames.gattCharacteristic, "StopNotify") { [weak self] _ in
                guard let self, epoch == self.epoch, !self.isStopping, case .session = self.subscription else { return }
                self.subscription = .none
                self.evaluate()
            }
        }
        armWatchdog()
    }

    // MARK: Sensor information

    /// Reads location and battery once per connection, each as soon as its characteristic is
    /// exported (they may appear after the heart-rate one).
    private func readSensorInformation(_ device: Device) {
        let wanted: [(AssignedNumber, AssignedNumber, (UInt8) -> Event)] = [
            (.bodySensorLocation, .heartRateService, { .bodySensorLocation($0) }),
            (.batteryLevel, .batteryService, { .batteryLevel(Int($0)) }),
        ]
        let epoch = epoch
        for (characteristic, service, event) in wanted {
            guard let found = client.tree.characteristic(characteristic, in: service, of: device.path),
                  informationRead.insert(found.path).inserted
            else { continue }
            client.call(found.path, BlueZNames.gattCharacteristic, "ReadValue", [.properties([:])]) { [weak self] result in
                guard let self, epoch == self.epoch, let byte = (try? result.get())?.first?.bytes?.first else { return }
                self.onEvent(event(byte))
            }
        }
    }

    // MARK: Losing things

    /// The link is down: release what belonged to it. A StartNotify session is kept, as BlueZ
    /// re-enables it when the same device reconnects; an acquired socket is not. Whatever was
    /// being retried is moot: the reconnection starts over.
    private func linkDown(reason: String) {
        closeAcquiredSocket()
        switch subscription {
        case .session, .keptSession: subscription = .keptSession
        default: subscription = .none
        }
        watchdog?.cancel()
        watchdog = nil
        retry?.cancel()
        retry = nil
        informationRead = []
        // Not yet up: a connection in flight keeps its deadline.
        guard isLinkUp else { return }
        isLinkUp = false
        stalls = 0
        onEvent(.gap)
        resolveDeadline?.cancel()
        resolveDeadline = nil
        report(.disconnected, reason)
    }

    /// BlueZ ends every session with the characteristic's object: the device was removed, its GATT
    /// cache cleared, or its services changed. A new subscription is needed when it is back.
    private func forgetSubscriptionIfCharacteristicGone() {
        guard let characteristicPath, client.tree.properties(characteristicPath, BlueZNames.gattCharacteristic) == nil else { return }
        closeAcquiredSocket()
        self.characteristicPath = nil
        subscription = .none
        watchdog?.cancel()
        watchdog = nil
        if isLinkUp { onEvent(.gap) }
    }

    private func closeAcquiredSocket() {
        guard case .acquired(let descriptor, let source, _) = subscription else { return }
        source.cancel()
        Descriptor.close(descriptor)
        subscription = .none
    }

    private func loseDevice(reason: String) {
        guard devicePath != nil else { return }
        linkDown(reason: reason)
        subscription = .none
        characteristicPath = nil
        devicePath = nil
    }

    private func forgetEverything(reason: String) {
        epoch += 1
        linkDown(reason: reason)
        subscription = .none
        characteristicPath = nil
        devicePath = nil
        connectStarted = nil
        connectNotBefore = 0
        for timer in [connectRetry, resolveDeadline] { timer?.cancel() }
        connectRetry = nil
        resolveDeadline = nil
        discovery?.reset()
    }

    private func report(_ state: LinkStatus.State, _ detail: String, retryIn: Double? = nil) {
        report(LinkStatus(state, detail, retryIn: retryIn))
    }

    private func report(_ status: LinkStatus) {
        guard status != lastStatus else { return }
        lastStatus = status
        onEvent(.status(status))
    }

    // MARK: Stopping

    /// Stops notifications, disconnects and calls `completion` once BlueZ has answered (or after
    /// `timeout`). Notifications that arrive meanwhile are still delivered.
    public func stop(timeout: Double = 3, completion: @escaping () -> Void) {
        guard !isStopping else { return }
        isStopping = true
        for timer in [retry, connectRetry, watchdog, resolveDeadline] { timer?.cancel() }
        var finished = false
        let finish = { [weak self] in
            guard !finished else { return }
            finished = true
            self?.report(.stopped, "")
            completion()
        }
        loop.schedule(after: timeout, finish)
        discovery?.stop()
        let device = ourDevice
        let disconnect = { [weak self] in
            guard let self, let device, device.hasLink else { return finish() }
            self.client.call(device.path, BlueZNames.device, "Disconnect") { _ in finish() }
        }
        switch subscription {
        case .acquired(let descriptor, _, _):
            // Drain what is queued, then close: BlueZ stops notifying when the socket closes.
            readAcquired(descriptor, 0)
            closeAcquiredSocket()
            disconnect()
        case .session, .keptSession, .starting:
            guard let characteristicPath, device?.hasLink == true else { return disconnect() }
            client.call(characteristicPath, BlueZNames.gattCharacteristic, "StopNotify") { _ in disconnect() }
        default:
            disconnect()
        }
    }
}
