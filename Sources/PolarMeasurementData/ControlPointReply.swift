/// An indication on the control point: the reply to a request (`F0 [op] [type] [status] [more]
/// [parameters…]`), or the strap saying it stopped streams by itself (`01 [types…]`; polar-ble-sdk
/// tests, BlePmdClientTest "process measurement stop control point command").
public enum PMDControlPointMessage: Equatable, Sendable {
    case reply(PMDReply)
    case stoppedByStrap([UInt8])

    public init(parsing bytes: some Collection<UInt8>) throws(PMDParseError) {
        let bytes = Array(bytes)
        guard let first = bytes.first else { throw PMDParseError(.truncated("the response code"), at: 0) }
        switch first {
        case 0xF0: self = .reply(try PMDReply(parsing: bytes))
        case 0x01: self = .stoppedByStrap(Array(bytes.dropFirst()))
        default: throw PMDParseError(.unexpected("control point indication", first), at: 0)
        }
    }
}

/// A reply to a request. An error reply may end after its status byte (`more` false then).
public struct PMDReply: Equatable, Sendable {
    public let operation: UInt8
    public let measurementType: UInt8
    public let status: PMDStatus
    /// Further indications follow; their parameters continue these.
    public let more: Bool
    public var parameters: [UInt8]

    public init(operation: UInt8, measurementType: UInt8, status: PMDStatus, more: Bool = false, parameters: [UInt8] = []) {
        self.operation = operation
        self.measurementType = measurementType
        self.status = status
        self.more = more
        self.parameters = parameters
    }

    init(parsing bytes: [UInt8]) throws(PMDParseError) {
        guard bytes.count >= 4 else {
            throw PMDParseError(.truncated(["the op code", "the measurement type", "the status"][max(bytes.count - 1, 0)]), at: bytes.count)
        }
        self.init(
            operation: bytes[1], measurementType: bytes[2], status: PMDStatus(code: bytes[3]),
            more: bytes.count > 4 && bytes[4] != 0, parameters: Array(bytes.dropFirst(5)))
    }

    /// Whether this answers `request`.
    public func answers(_ request: PMDRequest) -> Bool {
        operation == request.operation.rawValue && measurementType == request.measurementType.rawValue
    }

    /// The request did what it asked: success, or, for start and stop, "already in state".
    public var succeeded: Bool {
        status == .success || (status == .alreadyInState && operation != PMDOperation.getSettings.rawValue)
    }
}

/// Joins a reply split over several indications (`more` set on all but the last).
public struct PMDReplyAssembler: Sendable {
    private var pending: PMDReply?

    public init() {}

    /// The whole reply once its last part is in; nil while more are to come.
    public mutating func add(_ part: PMDReply) -> PMDReply? {
        var whole = part
        if let pending, pending.operation == part.operation, pending.measurementType == part.measurementType {
            whole.parameters = pending.parameters + part.parameters
        }
        guard !part.more else {
            pending = whole
            return nil
        }
        pending = nil
        return whole
    }

    public mutating func reset() { pending = nil }
}

/// The status byte of a reply.
public enum PMDStatus: Equatable, Sendable, CustomStringConvertible {
    case success, invalidOperation, invalidMeasurementType, notSupported, invalidLength, invalidParameter
    case alreadyInState, invalidResolution, invalidSampleRate, invalidRange, invalidMTU, invalidChannelCount
    case invalidState, inCharger, diskFull
    case unknown(UInt8)

    private static let known: [PMDStatus] = [
        .success, .invalidOperation, .invalidMeasurementType, .notSupported, .invalidLength, .invalidParameter,
        .alreadyInState, .invalidResolution, .invalidSampleRate, .invalidRange, .invalidMTU, .invalidChannelCount,
        .invalidState, .inCharger, .diskFull,
    ]

    public init(code: UInt8) {
        self = Int(code) < Self.known.count ? Self.known[Int(code)] : .unknown(code)
    }

    public var code: UInt8 {
        if case .unknown(let code) = self { return code }
        return UInt8(Self.known.firstIndex(of: self) ?? 0)
    }

    public var description: String {
        switch self {
        case .success: "success"
        case .invalidOperation: "invalid operation"
        case .invalidMeasurementType: "invalid measurement type"
        case .notSupported: "not supported"
        case .invalidLength: "invalid length"
        case .invalidParameter: "invalid parameter"
        case .alreadyInState: "already in state"
        case .invalidResolution: "invalid resolution"
        case .invalidSampleRate: "invalid sample rate"
        case .invalidRange: "invalid range"
        case .invalidMTU: "invalid MTU"
        case .invalidChannelCount: "invalid channel count"
        case .invalidState: "invalid state"
        case .inCharger: "in charger"
        case .diskFull: "disk full"
        case .unknown(let code): "status \(code)"
        }
    }
}

/// The smallest ATT MTU the H10 accepts a start with (status "invalid MTU" below it).
public let pmdMinimumMTU = 232
