/// A D-Bus value with its type. Byte arrays get their own case: notifications are `ay` and are
/// read in one copy.
public indirect enum DBusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A descriptor received or to be sent. A received one is a duplicate the receiver owns.
    case unixFD(Int32)
    case bytes([UInt8])
    case array(elementSignature: String, [DBusValue])
    case dictionary(keySignature: String, valueSignature: String, [DictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    public struct DictionaryEntry: Equatable, Sendable {
        public var key: DBusValue
        public var value: DBusValue

        public init(_ key: DBusValue, _ value: DBusValue) {
            self.key = key
            self.value = value
        }
    }

    /// The type signature, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// `a{sv}`, the shape of every property set and option dictionary.
    public static func properties(_ values: [String: DBusValue]) -> DBusValue {
        .dictionary(
            keySignature: "s", valueSignature: "v",
            values.sorted { $0.key < $1.key }.map { DictionaryEntry(.string($0.key), .variant($0.value)) })
    }

    public static func strings(_ values: [String]) -> DBusValue {
        .array(elementSignature: "s", values.map(DBusValue.string))
    }
}

// Typed reads. A variant is looked through, so a property value reads like its content.
extension DBusValue {
    private var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    public var bool: Bool? {
        if case .boolean(let flag) = unwrapped { return flag }
        return nil
    }

    /// Any integer type that fits an Int.
    public var integer: Int? {
        switch unwrapped {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        default: nil
        }
    }

    public var bytes: [UInt8]? {
        if case .bytes(let bytes) = unwrapped { return bytes }
        return nil
    }

    public var unixFD: Int32? {
        if case .unixFD(let descriptor) = unwrapped { return descriptor }
        return nil
    }

    public var elements: [DBusValue]? {
        switch unwrapped {
        case .array(_, let elements), .structure(let elements): elements
        default: nil
        }
    }

    public var strings: [String]? {
        elements.flatMap { elements in
            let strings = elements.compactMap(\.string)
            return strings.count == elements.count ? strings : nil
        }
    }

    /// A dictionary keyed by strings or object paths, e.g. `a{sv}` or `a{oa{sa{sv}}}`.
    public var dictionary: [String: DBusValue]? {
        guard case .dictionary(_, _, let entries) = unwrapped else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            result[key] = entry.value
        }
        return result
    }
}
