/// What a PMD stream measures: the type byte of requests, replies and data frames
/// (polar-ble-sdk `PmdMeasurementType`; shared/POLAR-PMD.md). The H10 offers ECG and ACC.
public enum PMDMeasurementType: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    case ecg = 0
    case ppg = 1
    case acc = 2
    case ppi = 3
    case gyro = 5
    case magnetometer = 6

    public var description: String {
        switch self {
        case .ecg: "ECG"
        case .ppg: "PPG"
        case .acc: "accelerometer"
        case .ppi: "PPI"
        case .gyro: "gyroscope"
        case .magnetometer: "magnetometer"
        }
    }

    /// A type byte in words, known or not.
    static func describe(_ byte: UInt8) -> String {
        PMDMeasurementType(rawValue: byte)?.description ?? "measurement type \(byte)"
    }
}

/// The streams a strap offers: what reading the control point returns, `0F` then a bitmask
/// (bit n = type n). The H10 answers `0F 05 00`: ECG and ACC (polar-ble-sdk #281, #360).
public struct PMDFeatures: Equatable, Sendable {
    /// The first byte of a feature read's answer.
    public static let marker: UInt8 = 0x0F

    /// The type bytes offered, known to hrvmon or not, in ascending order.
    public let offered: [UInt8]

    public init(parsing bytes: some Collection<UInt8>) throws(PMDParseError) {
        let bytes = Array(bytes)
        guard let first = bytes.first else { throw PMDParseError(.truncated("the feature byte"), at: 0) }
        guard first == Self.marker else { throw PMDParseError(.unexpected("feature read", first), at: 0) }
        guard bytes.count > 1 else { throw PMDParseError(.truncated("the feature bitmask"), at: 1) }
        var offered: [UInt8] = []
        for (index, mask) in bytes.dropFirst().enumerated() where index < 32 {
            for bit in 0..<8 where mask & (1 << bit) != 0 { offered.append(UInt8(index * 8 + bit)) }
        }
        self.offered = offered
    }

    public func offers(_ type: PMDMeasurementType) -> Bool { offered.contains(type.rawValue) }
}

/// A byte sequence that is not what PMD says it should be, with the offset of the first byte
/// that does not fit.
public struct PMDParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The bytes end before `what`.
        case truncated(String)
        /// `byte` cannot start a `what`.
        case unexpected(String, UInt8)
        case unsupportedMeasurement(UInt8)
        case unsupportedFrameType(measurement: UInt8, frameType: UInt8)
        case unknownSetting(UInt8)
        /// Sample bytes that do not make whole samples.
        case partialSample(sampleBytes: Int, remaining: Int)
        case noSamples
        case deltaWidth(UInt8)
    }

    public let kind: Kind
    public let offset: Int

    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what =
            switch kind {
            case .truncated(let what): "the bytes end before \(what)"
            case .unexpected(let what, let byte): "0x\(String(byte, radix: 16, uppercase: true)) does not start a \(what)"
            case .unsupportedMeasurement(let type): "\(PMDMeasurementType.describe(type)) frames are not read"
            case .unsupportedFrameType(let type, let frame): "\(PMDMeasurementType.describe(type)) frame type \(frame) is not read"
            case .unknownSetting(let type): "unknown setting type \(type)"
            case .partialSample(let size, let remaining): "\(remaining) bytes left over after whole samples of \(size) bytes"
            case .noSamples: "the frame has no samples"
            case .deltaWidth(let width): "a delta block of \(width)-bit deltas (at most 32)"
            }
        return "\(what) (byte \(offset))"
    }
}

/// Little-endian fields at an offset, nil past the end.
extension Array where Element == UInt8 {
    func unsignedLittleEndian(at offset: Int, size: Int) -> UInt64? {
        guard offset >= 0, size <= 8, offset + size <= count else { return nil }
        var value: UInt64 = 0
        for index in (0..<size).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }

    /// A two's complement field of `size` bytes, sign-extended.
    func signedLittleEndian(at offset: Int, size: Int) -> Int32? {
        guard let raw = unsignedLittleEndian(at: offset, size: size), size <= 4 else { return nil }
        return Int32(truncatingIfNeeded: Int64(bitPattern: raw << (64 - 8 * UInt64(size))) >> (64 - 8 * Int64(size)))
    }
}
