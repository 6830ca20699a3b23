/// What the link to the sensor is doing, for the user and for the session log.
public struct LinkStatus: Equatable, Sendable {
    public enum State: String, Sendable {
        /// bluetoothd is not on the system bus.
        case bluetoothUnavailable = "bluetooth_unavailable"
        case noAdapter = "no_adapter"
        case adapterOff = "adapter_off"
        /// Discovering: the sensor is not known to bluetoothd yet.
        case searching
        case connecting
        /// Connected; GATT services are being discovered.
        case resolving
        case subscribing
        /// Notifications are flowing.
        case connected
        case disconnected
        /// Waiting out the back-off before the next attempt.
        case reconnecting
        /// Connected and subscribed, but notifications stopped.
        case stalled
        case stopped
    }

    public var state: State
    /// Why, in words: an error name and text, the back-off delay, what to do.
    public var detail: String
    /// Seconds until the next attempt, while `reconnecting`.
    public var retryIn: Double?

    public init(_ state: State, _ detail: String = "", retryIn: Double? = nil) {
        self.state = state
        self.detail = detail
        self.retryIn = retryIn
    }
}
