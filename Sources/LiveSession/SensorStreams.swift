import LabStreamingLayer
import Platform

/// A sensor's two LSL streams: its beats (type `RR`: one float32 channel `rr_ms`, a sample per
/// beat) and the session's markers (type `Markers`: strings). Both are irregular (nominal rate 0)
/// and carry the sensor's name and address; their source ids are the sensor's address, so an inlet
/// finds them again when hrvmon restarts.
public final class SensorStreams {
    public let rr: StreamOutlet
    public let markers: StreamOutlet

    public init(sensorName: String?, address: String, library: LSLLibrary) throws(LSLFailure) {
        rr = try StreamOutlet(Self.rr(sensorName: sensorName, address: address), library: library)
        markers = try StreamOutlet(Self.markers(sensorName: sensorName, address: address), library: library)
    }

    /// Waits up to `timeout` seconds in all for an inlet on each stream, and no longer once the
    /// user interrupts; whether both have one.
    public func waitForInlets(timeout: Double) -> Bool {
        let deadline = EventLoop.now() + timeout
        repeat {
            let slice = min(0.1, max(0, deadline - EventLoop.now()))
            if rr.waitForInlet(timeout: slice) && markers.waitForInlet(timeout: slice) { return true }
        } while EventLoop.now() < deadline && !Interruption.requested
        return false
    }

    static func rr(sensorName: String?, address: String) -> StreamDescription {
        stream("RR", format: .float32, channel: [.value("label", "rr_ms"), .value("unit", "ms"), .value("type", "RR")], sensorName, address)
    }

    static func markers(sensorName: String?, address: String) -> StreamDescription {
        stream("Markers", format: .string, channel: [.value("label", "marker"), .value("type", "Markers")], sensorName, address)
    }

    /// One channel, irregular, named and identified by the sensor; the `desc` says what the channel
    /// is, who made the stream and from which sensor: `acquisition` as XDF's meta-data has it
    /// (manufacturer, model, serial number) and `sensor` by its Bluetooth name and address.
    private static func stream(
        _ type: String, format: StreamDescription.ChannelFormat, channel: [StreamDescription.Element], _ sensorName: String?,
        _ address: String
    ) -> StreamDescription {
        let model = sensorName.map { [StreamDescription.Element.value("model", $0)] } ?? []
        let name = sensorName.map { [StreamDescription.Element.value("name", $0)] } ?? []
        return StreamDescription(
            name: "hrvmon \(type) (\(sensorName ?? address))", type: type, channelCount: 1, nominalRate: 0, format: format,
            sourceID: "hrvmon-\(type.lowercased())-\(address)",
            desc: [
                .element("channels", [.element("channel", channel)]),
                .element("acquisition", [.value("manufacturer", "hrvmon")] + model + [.value("serial_number", address)]),
                .element("sensor", name + [.value("address", address)]),
            ])
    }
}
