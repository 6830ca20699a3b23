/// Requests written to the PMD control point: `[op][type][settings…]` (shared/POLAR-PMD.md,
/// old spec's figures). Settings go in the order the H10's worked exchanges use: range, sample
/// rate, resolution, channels.
public enum PMDRequest: Equatable, Sendable {
    case getSettings(PMDMeasurementType)
    case start(PMDMeasurementType, PMDStreamSettings)
    case stop(PMDMeasurementType)

    public var operation: PMDOperation {
        switch self {
        case .getSettings: .getSettings
        case .start: .start
        case .stop: .stop
        }
    }

    public var measurementType: PMDMeasurementType {
        switch self {
        case .getSettings(let type), .start(let type, _), .stop(let type): type
        }
    }

    public var bytes: [UInt8] {
        var bytes = [operation.rawValue, measurementType.rawValue]
        if case .start(_, let settings) = self { bytes += settings.bytes }
        return bytes
    }
}

public enum PMDOperation: UInt8, Sendable, CustomStringConvertible {
    case getSettings = 1
    case start = 2
    case stop = 3

    public var description: String {
        switch self {
        case .getSettings: "get settings"
        case .start: "start"
        case .stop: "stop"
        }
    }
}

/// One choice for each setting a stream is started with.
public struct PMDStreamSettings: Equatable, Sendable {
    public var sampleRate: UInt16
    public var resolution: UInt16
    /// ±G for the accelerometer; ECG has none.
    public var range: UInt16?
    public var channels: UInt8?

    public init(sampleRate: UInt16, resolution: UInt16, range: UInt16? = nil, channels: UInt8? = nil) {
        self.sampleRate = sampleRate
        self.resolution = resolution
        self.range = range
        self.channels = channels
    }

    var bytes: [UInt8] {
        func u16(_ type: PMDSettingType, _ value: UInt16) -> [UInt8] { [type.rawValue, 1, UInt8(value & 0xFF), UInt8(value >> 8)] }
        var bytes: [UInt8] = []
        if let range { bytes += u16(.range, range) }
        bytes += u16(.sampleRate, sampleRate) + u16(.resolution, resolution)
        if let channels { bytes += [PMDSettingType.channels.rawValue, 1, channels] }
        return bytes
    }
}

/// Setting types and the size of one value of each.
public enum PMDSettingType: UInt8, Sendable {
    case sampleRate = 0
    case resolution = 1
    case range = 2
    case channels = 4
    case factor = 5

    var valueSize: Int {
        switch self {
        case .sampleRate, .resolution, .range: 2
        case .channels: 1
        case .factor: 4
        }
    }
}

/// What a stream can be started with: the parameters of a get-settings reply,
/// `[setting type][count][count values]…`.
public struct PMDAvailableSettings: Equatable, Sendable {
    public var sampleRates: [UInt16] = []
    public var resolutions: [UInt16] = []
    public var ranges: [UInt16] = []
    public var channels: [UInt8] = []
    /// The scale of delta-compressed samples (IEEE 754 single precision).
    public var factor: Float?

    public init(parsing parameters: some Collection<UInt8>) throws(PMDParseError) {
        let bytes = Array(parameters)
        var offset = 0
        while offset < bytes.count {
            guard let type = PMDSettingType(rawValue: bytes[offset]) else { throw PMDParseError(.unknownSetting(bytes[offset]), at: offset) }
            guard offset + 1 < bytes.count else { throw PMDParseError(.truncated("the setting's count"), at: offset + 1) }
            let count = Int(bytes[offset + 1])
            offset += 2
            for _ in 0..<count {
                guard let value = bytes.unsignedLittleEndian(at: offset, size: type.valueSize) else {
                    throw PMDParseError(.truncated("a value of setting \(type.rawValue)"), at: offset)
                }
                switch type {
                case .sampleRate: sampleRates.append(UInt16(value))
                case .resolution: resolutions.append(UInt16(value))
                case .range: ranges.append(UInt16(value))
                case .channels: channels.append(UInt8(value))
                case .factor: factor = Float(bitPattern: UInt32(value))
                }
                offset += type.valueSize
            }
        }
    }

    /// The settings to start with: the offered rate nearest `sampleRate` (the lower on a tie),
    /// the finest resolution, the range nearest `range`, and the most channels.
    public func choosing(sampleRate: UInt16, range: UInt16? = nil) -> PMDStreamSettings? {
        func nearest(_ values: [UInt16], _ wanted: UInt16) -> UInt16? {
            values.min { (abs(Int($0) - Int(wanted)), $0) < (abs(Int($1) - Int(wanted)), $1) }
        }
        guard let rate = nearest(sampleRates, sampleRate), let resolution = resolutions.max() else { return nil }
        return PMDStreamSettings(
            sampleRate: rate, resolution: resolution, range: range.flatMap { nearest(ranges, $0) }, channels: channels.max())
    }
}
