import DBus
import Platform

/// Finding and connecting the sensor, and when to try again.
extension HeartRateLink {
    func connectWhenDue(_ device: Device, after failure: DBusError? = nil) {
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

    func linkUp() {
        connectStarted = nil
        connectRetry?.cancel()
        connectRetry = nil
        isLinkUp = true
    }

    func armResolveDeadline(_ device: Device) {
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
    func giveUpOnConnection(_ device: Device, _ reason: String) {
        onEvent(.notice(reason))
        connectNotBefore = EventLoop.now() + pacing.delayAfterFailure()
        let epoch = epoch
        var disconnecting = false
        let disconnect = { [weak self] in
            guard let self, !disconnecting, epoch == self.epoch, !self.isStopping else { return }
            disconnecting = true
            self.client.call(device.path, BlueZNames.device, "Disconnect") { [weak self] result in
                guard let self, epoch == self.epoch, !self.isStopping, case .failure(let error) = result else { return }
                self.retryLater("disconnecting from \(device.displayName) failed: \(error)")
                if self.isSubscribed { self.armWatchdog() }
            }
        }
        // A strap left streaming stays awake: stop its Measurement Data streams before leaving,
        // waiting a few seconds at most for a link that may not answer.
        measurementData.stopStreams(completion: disconnect)
        loop.schedule(after: 3, disconnect)
    }

    func connectLater(_ reason: String, after delay: Double) {
        guard connectRetry == nil else { return }
        report(.reconnecting, reason, retryIn: delay)
        connectRetry = loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.connectRetry = nil
            self.evaluate()
        }
    }

    /// Tries again after the back-off: for failures other than a Connect's.
    func retryLater(_ reason: String) {
        guard retry == nil else { return }
        let delay = pacing.delayAfterFailure()
        report(.reconnecting, reason, retryIn: delay)
        retry = loop.schedule(after: delay) { [weak self] in
            guard let self else { return }
            self.retry = nil
            self.evaluate()
        }
    }

    func startDiscovery() {
        guard let discovery, retry == nil else { return }
        discovery.start { [weak self] state in
            guard let self, case .failed(let error) = state else { return }
            self.onEvent(.notice("discovery failed: \(error); retrying"))
            self.retryLater("discovery failed: \(error)")
        }
    }
}
