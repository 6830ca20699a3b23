/// One notification of the Heart Rate Measurement characteristic (0x2A37).
///
/// Layout (all multi-byte fields little-endian):
///
/// | offset    | field            | present when    |
/// |-----------|------------------|-----------------|
/// | 0         | flags            | always          |
/// | 1         | heart rate       | UInt8 if bit 0 clear, UInt16 if set |
/// | next      | energy expended  | bit 3 set; UInt16, kJ |
/// | next…end  | RR intervals     | bit 4 set; UInt16 each, 1/1024 s, oldest first |
public struct HeartRateMeasurement: Equatable, Sendable {
    public enum SensorContact: Equatable, Sendable {
        /// The strap can't tell (flag bit 2 clear). Not a sign of poor contact.
        case notSupported
        case notDetected
        case detected
    }

    /// Beats per minute.
    public var heartRate: UInt16

    public var sensorContact: SensorContact

    /// Kilojoules accumulated since the last reset; nil when not sent.
    /// 0xFFFF means the strap's counter is saturated.
    public var energyExpended: UInt16?

    /// RR intervals in 1/1024 s ticks (see `RRTicks`), oldest first.
    /// Never contains 0: those are counted in `zeroRRCount` instead.
    public var rrIntervals: [UInt16]

    /// RR fields that were 0. A zero-length beat is physically impossible, so
    /// these are reported for diagnostics but never become beats.
    public var zeroRRCount: Int

    public init(
        heartRate: UInt16,
        sensorContact: SensorContact = .notSupported,
        energyExpended: UInt16? = nil,
        rrIntervals: [UInt16] = [],
        zeroRRCount: Int = 0
    ) {
        self.heartRate = heartRate
        self.sensorContact = sensorContact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
        self.zeroRRCount = zeroRRCount
    }

    /// Parses one characteristic value.
    ///
    /// Accepts any byte collection, including slices whose `startIndex` is not
    /// zero, and throws rather than traps on any input.
    ///
    /// Tolerated, per spec:
    /// - Flag bits 5–7 are reserved for future use and ignored.
    /// - RR flag set with no RR bytes yields no intervals: the spec makes the
    ///   count of RR values depend only on the remaining length.
    /// - Bytes after the last defined field while the RR flag is clear are
    ///   ignored. The spec defines nothing there, and a receiver must ignore
    ///   what is reserved for future use (as with bits 5–7) so that a later
    ///   revision can append fields without breaking older clients. They are
    ///   never read as RR intervals: without bit 4 their meaning is unknown.
    public init(parsing bytes: some Collection<UInt8>) throws(HeartRateMeasurementError) {
        var reader = LittleEndianReader(bytes)

        guard let flagsByte = reader.readUInt8() else { throw .emptyPacket }
        let flags = HeartRateMeasurementFlags(rawValue: flagsByte)

        if flags.contains(.heartRateIsUInt16) {
            guard let value = reader.readUInt16() else {
                throw .truncatedHeartRate(needed: 2, available: reader.remainingCount)
            }
            heartRate = value
        } else {
            guard let value = reader.readUInt8() else {
                throw .truncatedHeartRate(needed: 1, available: reader.remainingCount)
            }
            heartRate = UInt16(value)
        }

        sensorContact = flags.sensorContact

        if flags.contains(.energyExpendedPresent) {
            guard let value = reader.readUInt16() else {
                throw .truncatedEnergyExpended(offset: reader.offset, available: reader.remainingCount)
            }
            energyExpended = value
        } else {
            energyExpended = nil
        }

        rrIntervals = []
        zeroRRCount = 0
        guard flags.contains(.rrIntervalsPresent) else { return }

        // Check the whole field up front: a half value at the end means the
        // packet is corrupt, and beats from a corrupt packet can't be trusted.
        guard reader.remainingCount.isMultiple(of: 2) else {
            throw .oddRRIntervalByteCount(offset: reader.offset, byteCount: reader.remainingCount)
        }
        while let ticks = reader.readUInt16() {
            if ticks == 0 {
                zeroRRCount += 1
            } else {
                rrIntervals.append(ticks)
            }
        }
    }

    /// The spec layout of this measurement, as a strap would send it.
    ///
    /// The heart rate is written as UInt16 when `uint16HeartRate` is true or
    /// when it doesn't fit in a UInt8. The RR flag is set when there is any
    /// RR value; the `zeroRRCount` zero values go after `rrIntervals`, since
    /// their original positions are not kept.
    public func encoded(uint16HeartRate: Bool = false) -> [UInt8] {
        var flags = HeartRateMeasurementFlags(sensorContact: sensorContact)
        let writesUInt16HeartRate = uint16HeartRate || heartRate > UInt8.max
        if writesUInt16HeartRate { flags.insert(.heartRateIsUInt16) }
        if energyExpended != nil { flags.insert(.energyExpendedPresent) }
        // A negative count is meaningless; treat it as none rather than trap.
        let zeroes = repeatElement(UInt16(0), count: max(zeroRRCount, 0))
        let rrValues = rrIntervals + zeroes
        if !rrValues.isEmpty { flags.insert(.rrIntervalsPresent) }

        var bytes = [flags.rawValue]
        if writesUInt16HeartRate {
            bytes.appendLittleEndian(heartRate)
        } else {
            bytes.append(UInt8(heartRate))
        }
        if let energyExpended { bytes.appendLittleEndian(energyExpended) }
        for ticks in rrValues { bytes.appendLittleEndian(ticks) }
        return bytes
    }
}

extension [UInt8] {
    fileprivate mutating func appendLittleEndian(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }
}
