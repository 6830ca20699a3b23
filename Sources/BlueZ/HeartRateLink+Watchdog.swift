import Platform

/// A subscription that goes silent: re-subscribe once, then reconnect.
extension HeartRateLink {
    /// One timer per watchdog period at most: notifications only move the deadline.
    func armWatchdog() {
        watchdog?.cancel()
        let epoch = epoch
        watchdog = loop.schedule(at: lastNotification + configuration.watchdog) { [weak self] in
            guard let self, epoch == self.epoch, !self.isStopping else { return }
            self.watchdog = nil
            self.checkWatchdog()
        }
    }

    func checkWatchdog() {
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
}
