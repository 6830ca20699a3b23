import DBus
import Platform

/// Subscribing to 0x2A37 (StartNotify or AcquireNotify) and delivering notifications.
extension HeartRateLink {
    func subscribe(_ characteristic: Characteristic, _ device: Device) {
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

    func startNotify(_ characteristic: Characteristic, _ device: Device) {
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

    func acquire(_ characteristic: Characteristic, _ device: Device) {
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

    func subscriptionFailed(_ method: String, _ error: DBusError) {
        // NotConnected: the link went down under us, and its PropertiesChanged drives what's next.
        guard error.name != BlueZNames.Error.notConnected else { return evaluate() }
        retryLater("\(method) failed: \(error)")
    }

    func confirmSubscribed(_ device: Device) {
        lastNotification = EventLoop.now()
        armWatchdog()
        // After a stall, `connected` waits for proof: the first notification ("notifications resumed").
        guard !awaitingResume else { return }
        report(.connected, "\(device.displayName) (\(device.address))")
    }

    /// A stall is on: it ends with the next notification, or when the link goes down.
    var awaitingResume: Bool { stalls > 0 }

    /// One datagram per read; a zero-length one is an empty notification. After POLLHUP a zero
    /// read is end of file, so queued datagrams are drained first and beats are not lost.
    func readAcquired(_ descriptor: Int32, _ events: Int16) {
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

    func deliver(_ bytes: [UInt8]) {
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
}
