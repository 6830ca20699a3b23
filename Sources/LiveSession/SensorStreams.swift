import LabStreamingLayer
import Platform
import PolarMeasurementData

/// A sensor's LSL streams: its beats (type `RR`: one float32 channel `rr_ms`, a sample per beat)
/// and the session's markers (type `Markers`: strings), both irregular (nominal rate 0); and, once
/// its Measurement Data flows, its chest accelerometer (type `Accelerometer`: x, y, z in mg at the
/// stream's rate) and ECG (type `ECG`: µV at 130 Hz). All carry the sensor's name and address;
/// their source ids are the sensor's address, so an inlet finds them again when hrvmon restarts
/// or the strap reconnects.
public final class SensorStreams {
    public let rr: StreamOutlet
    public let markers: StreamOutlet
    /// The Measurement Data streams opened so far.
    public private(set) var measurementData: [PMDMeasurementType: StreamOutlet] = [:]
    private let sensorName: String?
    private let address: String
    private let library: LSLLibrary

    public init(sensorName: String?, address: String, library: LSLLibrary) throws(LSLFailure) {
        rr = try StreamOutlet(Self.rr(sensorName: sensorName, address: address), library: library)
        markers = try StreamOutlet(Self.markers(sensorName: sensorName, address: address), library: library)
        self.sensorName = sensorName
        self.address = address
        self.library = library
    }

    /// The stream of Measurement Data `type` (accelerometer or ECG) at `rate`, opened the first
    /// time; nil for a type without one.
    func outlet(for type: PMDMeasurementType, rate: Double) throws(LSLFailure) -> StreamOutlet? {
        if let outlet = measurementData[type] { return outlet }
        guard let description = Self.measurementData(type, rate: rate, sensorName: sensorName, address: address) else { return nil }
        let outlet = try StreamOutlet(description, library: library)
        measurementData[type] = outlet
        return outlet
    }

    /// Opens the streams of Measurement Data `types` now, before their first frames: the demo
    /// knows what its strap sends, so an inlet can open them before it starts playing.
    public func open(measurementData types: [(type: PMDMeasurementType, rate: Double)]) throws(LSLFailure) {
        for (type, rate) in types { _ = try outlet(for: type, rate: rate) }
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
        stream("RR", format: .float32, channels: [[.value("label", "rr_ms"), .value("unit", "ms"), .value("type", "RR")]], sensorName, address)
    }

    static func markers(sensorName: String?, address: String) -> StreamDescription {
        stream("Markers", format: .string, channels: [[.value("label", "marker"), .value("type", "Markers")]], sensorName, address)
    }

    /// The accelerometer's axes as the strap has them (z through its face), in mg; the ECG in µV.
    static func measurementData(_ type: PMDMeasurementType, rate: Double, sensorName: String?, address: String) -> StreamDescription? {
        switch type {
        case .acc:
            let axes = ["x", "y", "z"].map { axis -> [StreamDescription.Element] in
                [.value("label", "acc_\(axis)"), .value("unit", "mg"), .value("type", "Accelerometer")]
            }
            return stream("Accelerometer", format: .float32, channels: axes, rate: rate, sensorName, address)
        case .ecg:
            let lead = [StreamDescription.Element.value("label", "ecg"), .value("unit", "microvolts"), .value("type", "ECG")]
            return stream("ECG", format: .float32, channels: [lead], rate: rate, sensorName, address)
        default:
            return nil
        }
    }

    /// Named and identified by the sensor; the `desc` says what each channel is, who made the
    /// stream and from which sensor: `acquisition` as XDF's meta-data has it (manufacturer, model,
    /// serial number) and `sensor` by its Bluetooth name and address.
    private static func stream(
        _ type: String, format: StreamDescription.ChannelFormat, channels: [[StreamDescription.Element]], rate: Double = 0,
        _ sensorName: String?, _ address: String
    ) -> StreamDescription {
        let model = sensorName.map { [StreamDescription.Element.value("model", $0)] } ?? []
        let name = sensorName.map { [StreamDescription.Element.value("name", $0)] } ?? []
        return StreamDescription(
            name: "hrvmon \(type) (\(sensorName ?? address))", type: type, channelCount: channels.count, nominalRate: rate, format: format,
            sourceID: "hrvmon-\(type.lowercased())-\(address)",
            desc: [
                .element("channels", channels.map { .element("channel", $0) }),
                .element("acquisition", [.value("manufacturer", "hrvmon")] + model + [.value("serial_number", address)]),
                .element("sensor", name + [.value("address", address)]),
            ])
    }
}
