import BlueZ
import HeartRateProtocol
import PolarMeasurementData
import Settings
import UserData

extension HeartRateLink.Configuration {
    /// The link to `device` as the user configured it (`link.*`), on `adapter` (nil: the first).
    public init(device: String, adapter: String?, acquire: Bool, settings: Settings.Link) {
        self.init(device: device)
        self.adapter = adapter
        self.acquire = acquire
        reconnectInitial = settings.reconnectInitial
        reconnectMaximum = settings.reconnectMaximum
        watchdog = settings.watchdog
        resolveTimeout = settings.resolveTimeout
    }
}

extension SessionRun {
    /// Takes the link's events into the session, stamped with `now`: notifications and gaps into
    /// the pipeline, the link's state and what the sensor says of itself as events. A sensor that
    /// connects is remembered for the next `monitor` without `--device`, unless it is one of
    /// several (`remembers` false): which of them would be "the one used last" is anyone's guess.
    public func follow(_ link: HeartRateLink, remembers: Bool = true, now: @escaping () -> Double) {
        var rememberedAddress: String?
        var sensor: Device?
        var contact: Bool?
        link.onEvent = { [unowned self] event in
            let time = now()
            switch event {
            case .notification(let bytes):
                // Parsed once, for the pipeline and for the strap's contact, which starts and
                // stops its Measurement Data streams.
                let measurement = try? HeartRateMeasurement(parsing: bytes)
                if let measurement, measurement.sensorContact != .notSupported {
                    let detected = measurement.sensorContact == .detected
                    if contact != detected { link.sensorContact(detected) }
                    contact = detected
                }
                receive(bytes, parsed: measurement, at: time)
            case .measurementData(let frame, let sampleRate):
                switch frame.samples {
                case .acceleration(let samples):
                    receive(acceleration: samples.lazy.map { SIMD3(Double($0.x), Double($0.y), Double($0.z)) }, sampleRate: sampleRate, at: time)
                case .ecg:
                    receive(ecg: frame, sampleRate: sampleRate, at: time)
                }
            case .gap:
                breakContinuity(at: time)
            case .status(let status):
                report(.link(status), at: time)
                if remembers, status.state == .connected, let sensor, rememberedAddress != sensor.address {
                    rememberedAddress = sensor.address
                    do { try DataDirectory.rememberSensor(sensor.address) } catch { report(.notice("cannot remember the sensor: \(error)"), at: time) }
                }
            case .device(let device):
                sensor = device
                report(.sensor(.identity(name: device.name, address: device.address)), at: time)
            case .bodySensorLocation(let byte):
                let location = (try? BodySensorLocation(parsing: [byte]))?.description ?? "reserved value \(byte)"
                report(.sensor(.bodySensorLocation(location)), at: time)
            case .batteryLevel(let percent):
                report(.sensor(.batteryLevel(percent)), at: time)
            case .notice(let message):
                report(.notice(message), at: time)
            }
        }
    }
}
