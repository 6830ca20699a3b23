/// One notification on the PMD data characteristic: a 10-byte header (measurement type, u64
/// timestamp in ns since 2000-01-01 of the frame's LAST sample, frame type with bit 7 = delta
/// compressed), then samples (shared/POLAR-PMD.md; polar-ble-sdk `PmdDataFrame`).
public struct PMDFrame: Equatable, Sendable {
    public enum Samples: Equatable, Sendable {
        /// x, y, z per sample: mG for uncompressed frames; for delta frames in the sensor's
        /// counts (times the settings' factor, in G).
        case acceleration([Acceleration])
        /// µV per sample.
        case ecg([Int32])

        public var count: Int {
            switch self {
            case .acceleration(let samples): samples.count
            case .ecg(let samples): samples.count
            }
        }
    }

    public let measurementType: PMDMeasurementType
    /// Nanoseconds on the strap's own clock: only differences mean anything (the H10's restarts
    /// at 2019-01-01 when it powers up).
    public let timestamp: UInt64
    /// The frame type without the compression bit.
    public let frameType: UInt8
    public let isCompressed: Bool
    public let samples: Samples

    static let headerSize = 10

    public init(measurementType: PMDMeasurementType, timestamp: UInt64, frameType: UInt8, isCompressed: Bool = false, samples: Samples) {
        self.measurementType = measurementType
        self.timestamp = timestamp
        self.frameType = frameType
        self.isCompressed = isCompressed
        self.samples = samples
    }

    public init(parsing bytes: some Collection<UInt8>) throws(PMDParseError) {
        let bytes = Array(bytes)
        guard bytes.count >= Self.headerSize, let timestamp = bytes.unsignedLittleEndian(at: 1, size: 8) else {
            throw PMDParseError(.truncated(["the measurement type", "the timestamp", "the frame type"][bytes.isEmpty ? 0 : bytes.count < 9 ? 1 : 2]), at: bytes.count)
        }
        let typeByte = bytes[0] & 0x3F
        guard let type = PMDMeasurementType(rawValue: typeByte) else { throw PMDParseError(.unsupportedMeasurement(typeByte), at: 0) }
        let frameType = bytes[9] & 0x7F
        let isCompressed = bytes[9] & 0x80 != 0
        let samples: Samples
        switch (type, isCompressed, frameType) {
        case (.ecg, false, 0):
            samples = .ecg(try Self.fixedSize(bytes, channels: 1, size: 3).map { $0[0] })
        case (.acc, false, 0...2):
            samples = .acceleration(try Self.fixedSize(bytes, channels: 3, size: Int(frameType) + 1).map(Acceleration.init))
        case (.acc, true, 0...1):
            samples = .acceleration(try DeltaFrame.decode(bytes, from: Self.headerSize, channels: 3, referenceSize: 2).map(Acceleration.init))
        default:
            throw PMDParseError(.unsupportedFrameType(measurement: typeByte, frameType: bytes[9]), at: 9)
        }
        guard samples.count > 0 else { throw PMDParseError(.noSamples, at: Self.headerSize) }
        self.init(measurementType: type, timestamp: timestamp, frameType: frameType, isCompressed: isCompressed, samples: samples)
    }

    /// Samples of `channels` signed little-endian fields of `size` bytes each.
    private static func fixedSize(_ bytes: [UInt8], channels: Int, size: Int) throws(PMDParseError) -> [[Int32]] {
        let sampleSize = channels * size
        let remaining = (bytes.count - headerSize) % sampleSize
        guard remaining == 0 else { throw PMDParseError(.partialSample(sampleBytes: sampleSize, remaining: remaining), at: bytes.count - remaining) }
        return stride(from: headerSize, to: bytes.count, by: sampleSize).map { start in
            (0..<channels).map { bytes.signedLittleEndian(at: start + $0 * size, size: size) ?? 0 }
        }
    }
}

/// One accelerometer sample.
public struct Acceleration: Equatable, Sendable {
    public var x: Int32
    public var y: Int32
    public var z: Int32

    public init(x: Int32, y: Int32, z: Int32) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ channels: [Int32]) {
        self.init(x: channels[0], y: channels[1], z: channels[2])
    }
}

/// Delta-compressed samples: a reference sample (`channels` signed fields of `referenceSize`
/// bytes), then blocks `[bit width][sample count][packed deltas]`, each delta two's complement,
/// least significant bit first, added to the previous sample (polar-ble-sdk tests, AccDataTest).
enum DeltaFrame {
    static func decode(_ bytes: [UInt8], from start: Int, channels: Int, referenceSize: Int) throws(PMDParseError) -> [[Int32]] {
        var offset = start
        var sample: [Int32] = []
        for _ in 0..<channels {
            guard let value = bytes.signedLittleEndian(at: offset, size: referenceSize) else { throw PMDParseError(.truncated("the reference sample"), at: offset) }
            sample.append(value)
            offset += referenceSize
        }
        var samples = [sample]
        while offset < bytes.count {
            let width = Int(bytes[offset])
            guard width <= 32 else { throw PMDParseError(.deltaWidth(bytes[offset]), at: offset) }
            guard offset + 1 < bytes.count else { throw PMDParseError(.truncated("the delta block's sample count"), at: offset + 1) }
            let count = Int(bytes[offset + 1])
            let blockBytes = (width * count * channels + 7) / 8
            offset += 2
            guard offset + blockBytes <= bytes.count else { throw PMDParseError(.truncated("the delta block's \(blockBytes) bytes"), at: bytes.count) }
            var bit = offset * 8
            for _ in 0..<count {
                for channel in 0..<channels {
                    sample[channel] = sample[channel] &+ delta(bytes, bit: bit, width: width)
                    bit += width
                }
                samples.append(sample)
            }
            offset += blockBytes
        }
        return samples
    }

    /// The `width`-bit two's complement field starting at bit `bit` (bit 0: the lowest of byte 0).
    private static func delta(_ bytes: [UInt8], bit: Int, width: Int) -> Int32 {
        guard width > 0 else { return 0 }
        var raw: UInt64 = 0
        for index in 0..<width {
            let position = bit + index
            raw |= UInt64((bytes[position / 8] >> UInt8(position % 8)) & 1) << UInt64(index)
        }
        let shift = UInt64(64 - width)
        return Int32(truncatingIfNeeded: Int64(bitPattern: raw << shift) >> Int64(shift))
    }
}
