import DBus

/// Our discovery session on one adapter, filtered to LE heart-rate sensors. BlueZ merges all
/// clients' filters, so callers still check each device's UUIDs.
public final class Discovery {
    public enum State: Equatable {
        case stopped, starting, running
        case failed(DBusError)
    }

    private let client: BlueZClient
    public let adapterPath: String
    public private(set) var state = State.stopped

    public init(client: BlueZClient, adapterPath: String) {
        self.client = client
        self.adapterPath = adapterPath
    }

    public func start(completion: @escaping (State) -> Void = { _ in }) {
        if state == .starting || state == .running { return completion(state) }
        state = .starting
        let filter = DBusValue.properties([
            "UUIDs": .strings([AssignedNumber.heartRateService.uuid]),
            "Transport": .string("le"),
        ])
        client.call(adapterPath, BlueZNames.adapter, "SetDiscoveryFilter", [filter]) { [weak self] result in
            guard let self, self.state == .starting else { return }
            if case .failure(let error) = result { return self.finish(.failed(error), completion) }
            self.client.call(self.adapterPath, BlueZNames.adapter, "StartDiscovery") { [weak self] result in
                guard let self, self.state == .starting else { return }
                switch result {
                case .success: self.finish(.running, completion)
                // Our session already exists (e.g. a retry raced a reply): it is running.
                case .failure(let error) where error.name == BlueZNames.Error.inProgress: self.finish(.running, completion)
                case .failure(let error): self.finish(.failed(error), completion)
                }
            }
        }
    }

    /// Ends our session; replies are not waited for. Forget a session bluetoothd already dropped
    /// (restart, adapter off) with `reset()` instead.
    public func stop(completion: @escaping () -> Void = {}) {
        let wasActive = state == .running || state == .starting
        state = .stopped
        guard wasActive else { return completion() }
        client.call(adapterPath, BlueZNames.adapter, "StopDiscovery") { _ in completion() }
    }

    public func reset() { state = .stopped }

    private func finish(_ state: State, _ completion: (State) -> Void) {
        self.state = state
        completion(state)
    }
}
