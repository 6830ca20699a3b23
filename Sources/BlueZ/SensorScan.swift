import LivePipeline
import Platform

/// Discovers heart-rate sensors on one adapter for a while and reports what was seen.
public final class SensorScan {
    public enum Outcome {
        case found(adapter: Adapter, sensors: [Device])
        /// Scanning was impossible: no bluetoothd, no adapter, adapter off, discovery refused.
        case failed(LinkStatus)
    }

    private let client: BlueZClient
    private let loop: EventLoop
    private let adapterName: String?
    private let timeout: Double
    private var discovery: Discovery?
    private var completion: ((Outcome) -> Void)?

    public init(client: BlueZClient, loop: EventLoop, adapter: String?, timeout: Double) {
        self.client = client
        self.loop = loop
        adapterName = adapter
        self.timeout = timeout
    }

    public func run(completion: @escaping (Outcome) -> Void) {
        self.completion = completion
        client.onChange = { [weak self] change in
            switch change {
            case .loaded: self?.begin()
            case .unavailable(let error):
                self?.finish(.failed(.unavailable(error)))
            case .ownerLost:
                self?.finish(.failed(LinkStatus(.bluetoothUnavailable, "bluetoothd stopped during the scan")))
            default: break
            }
        }
        client.start()
    }

    private func begin() {
        guard discovery == nil else { return }
        let adapter: Adapter
        switch client.tree.poweredAdapter(named: adapterName) {
        case .success(let powered): adapter = powered
        case .failure(let status): return finish(.failed(status))
        }
        let discovery = Discovery(client: client, adapterPath: adapter.path)
        self.discovery = discovery
        discovery.start { [weak self] state in
            guard let self else { return }
            if case .failed(let error) = state {
                return self.finish(.failed(LinkStatus(.searching, "discovery on \(adapter.name) failed: \(error)")))
            }
        }
        loop.schedule(after: timeout) { [weak self] in
            guard let self else { return }
            let sensors = self.client.tree.devices.filter { $0.adapterPath == adapter.path && $0.offersHeartRate }
            // Seen ones first, strongest signal first; known but unseen ones after.
            let ordered = sensors.sorted { ($0.rssi ?? Int.min, $1.address) > ($1.rssi ?? Int.min, $0.address) }
            self.finish(.found(adapter: adapter, sensors: ordered))
        }
    }

    private func finish(_ outcome: Outcome) {
        guard let completion else { return }
        self.completion = nil
        client.onChange = { _ in }
        guard let discovery else { return completion(outcome) }
        discovery.stop { completion(outcome) }
    }
}
