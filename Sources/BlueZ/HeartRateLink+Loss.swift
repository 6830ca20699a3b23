import LivePipeline
import Platform

/// Losing the link, the device or bluetoothd, and stopping on purpose.
extension HeartRateLink {
    // MARK: Losing things

    /// The link is down: release what belonged to it. A StartNotify session is kept, as BlueZ
    /// re-enables it when the same device reconnects; an acquired socket is not. Whatever was
    /// being retried is moot: the reconnection starts over.
    func linkDown(reason: String) {
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
        measurementData.linkDown()
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
    func forgetSubscriptionIfCharacteristicGone() {
        if let controlPoint = measurementData.controlPoint, client.tree.properties(controlPoint, BlueZNames.gattCharacteristic) == nil {
            measurementData.linkDown()
            measurementData.controlPoint = nil
        }
        guard let characteristicPath, client.tree.properties(characteristicPath, BlueZNames.gattCharacteristic) == nil else { return }
        closeAcquiredSocket()
        self.characteristicPath = nil
        subscription = .none
        watchdog?.cancel()
        watchdog = nil
        if isLinkUp { onEvent(.gap) }
    }

    func closeAcquiredSocket() {
        guard case .acquired(let descriptor, let source, _) = subscription else { return }
        source.cancel()
        Descriptor.close(descriptor)
        subscription = .none
    }

    func loseDevice(reason: String) {
        guard devicePath != nil else { return }
        linkDown(reason: reason)
        subscription = .none
        characteristicPath = nil
        devicePath = nil
    }

    func forgetEverything(reason: String) {
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

    func report(_ state: LinkStatus.State, _ detail: String, retryIn: Double? = nil) {
        report(LinkStatus(state, detail, retryIn: retryIn))
    }

    func report(_ status: LinkStatus) {
        guard status != lastStatus else { return }
        lastStatus = status
        onEvent(.status(status))
    }

    // MARK: Stopping

    /// Stops the Measurement Data streams, then notifications, disconnects and calls `completion`
    /// once BlueZ has answered (or after `timeout`). Notifications that arrive meanwhile are still
    /// delivered.
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
        measurementData.stopStreams { [weak self] in self?.stopHeartRate(finish) }
    }

    private func stopHeartRate(_ finish: @escaping () -> Void) {
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
