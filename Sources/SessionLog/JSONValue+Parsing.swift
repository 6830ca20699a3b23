import FoundationEssentials

extension JSONValue {
    /// One JSON document, an object or an array; nil when it is not JSON. What is accepted is what
    /// Foundation's JSONSerialization accepted (the reader used it before): trailing commas, the
    /// last of repeated keys, nesting up to 512 deep, and UTF-16 or UTF-32 text, told by a byte
    /// order mark or by the zero bytes of the first characters.
    static func parse(_ bytes: ArraySlice<UInt8>) -> JSONValue? {
        let (encoding, markLength) = encoding(of: bytes)
        var parser: JSONParser
        if encoding == .utf8 {
            parser = JSONParser(bytes: Array(bytes.dropFirst(markLength)))
        } else {
            guard let text = String(bytes: bytes.dropFirst(markLength), encoding: encoding) else { return nil }
            parser = JSONParser(bytes: Array(text.utf8))
        }
        guard let value = parser.value(), parser.nextNonWhitespace() == nil, value.numbersAreRepresentable else { return nil }
        switch value {
        case .object, .array: return value
        default: return nil
        }
    }

    private static func encoding(of bytes: ArraySlice<UInt8>) -> (String.Encoding, markLength: Int) {
        let start = Array(bytes.prefix(4))
        if start.count == 4 {
            if start.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
            if start == [0, 0, 0xFE, 0xFF] { return (.utf32BigEndian, 4) }
            if start == [0xFF, 0xFE, 0, 0] { return (.utf32LittleEndian, 4) }
            if start.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
            if start.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
            switch (start[0], start[1], start[2], start[3]) {
            case (0, 0, 0, _): return (.utf32BigEndian, 0)
            case (_, 0, 0, 0): return (.utf32LittleEndian, 0)
            case (0, _, 0, _): return (.utf16BigEndian, 0)
            case (_, 0, _, 0): return (.utf16LittleEndian, 0)
            default: break
            }
        } else if start.count >= 2 {
            if start[0] == 0 { return (.utf16BigEndian, 0) }
            if start[1] == 0 { return (.utf16LittleEndian, 0) }
        }
        return (.utf8, 0)
    }
}

/// Reads UTF-8 JSON text; every method returns nil where the text is not JSON.
private struct JSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Skips spaces, tabs and line breaks; the byte after them, nil at the end.
    mutating func nextNonWhitespace() -> UInt8? {
        while index < bytes.count {
            switch bytes[index] {
            case .space, .tab, .lineFeed, .carriageReturn: index += 1
            case let byte: return byte
            }
        }
        return nil
    }

    mutating func value() -> JSONValue? {
        guard let byte = nextNonWhitespace() else { return nil }
        switch byte {
        case .quote: return string().map(JSONValue.string)
        case .openBrace: return object()
        case .openBracket: return array()
        case UInt8(ascii: "t"): return literal("true", .bool(true))
        case UInt8(ascii: "f"): return literal("false", .bool(false))
        case UInt8(ascii: "n"): return literal("null", .null)
        case .minus, UInt8(ascii: "0")...UInt8(ascii: "9"): return number().map(JSONValue.number)
        default: return nil
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count,
              word.withUTF8Buffer({ $0.elementsEqual(bytes[index..<index + length]) }) else { return nil }
        index += length
        return value
    }

    /// `[` at `index`.
    private mutating func array() -> JSONValue? {
        guard depth < 512 else { return nil }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var values: [JSONValue] = []
        if nextNonWhitespace() == .closeBracket {
            index += 1
            return .array(values)
        }
        while true {
            guard let value = value() else { return nil }
            values.append(value)
            switch nextNonWhitespace() {
            case .closeBracket?:
                index += 1
                return .array(values)
            case .comma?:
                index += 1
                if nextNonWhitespace() == .closeBracket {
                    index += 1
                    return .array(values)
                }
            default:
                return nil
            }
        }
    }

    /// `{` at `index`.
    private mutating func object() -> JSONValue? {
        guard depth < 512 else { return nil }
        depth += 1
        defer { depth -= 1 }
        index += 1
        var members: [String: JSONValue] = [:]
        if nextNonWhitespace() == .closeBrace {
            index += 1
            return .object(members)
        }
        while true {
            guard index < bytes.count, bytes[index] == .quote, let key = string(),
                  nextNonWhitespace() == .colon else { return nil }
            index += 1
            guard let value = value() else { return nil }
            members[key] = value
            switch nextNonWhitespace() {
            case .closeBrace?:
                index += 1
                return .object(members)
            case .comma?:
                index += 1
                if nextNonWhitespace() == .closeBrace {
                    index += 1
                    return .object(members)
                }
            default:
                return nil
            }
        }
    }

    /// `"` at `index`. The text between escapes is decoded as JSONSerialization decoded it,
    /// with Foundation's `String(bytes:encoding:)`, which drops a byte order mark at its start.
    private mutating func string() -> String? {
        index += 1
        var text = ""
        var start = index
        while index < bytes.count {
            switch bytes[index] {
            case .quote:
                guard let piece = String(bytes: bytes[start..<index], encoding: .utf8) else { return nil }
                index += 1
                return text + piece
            case .backslash:
                guard let piece = String(bytes: bytes[start..<index], encoding: .utf8) else { return nil }
                index += 1
                guard let escaped = escape() else { return nil }
                text += piece + escaped
                start = index
            case 0..<0x20:
                return nil
            default:
                index += 1
            }
        }
        return nil
    }

    /// The character after a backslash, at `index`.
    private mutating func escape() -> String? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        index += 1
        switch byte {
        case .quote: return "\""
        case .backslash: return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hexUnit() else { return nil }
            guard unit & 0xFC00 == 0xD800 else { return Unicode.Scalar(unit).map { String($0) } }
            // A high surrogate is only half a character: its low half must follow.
            guard index + 2 <= bytes.count, bytes[index] == .backslash, bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            index += 2
            guard let low = hexUnit(), low & 0xFC00 == 0xDC00 else { return nil }
            return Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) * 0x400 + (UInt32(low) - 0xDC00)).map { String($0) }
        default:
            return nil
        }
    }

    /// Four hex digits at `index`.
    private mutating func hexUnit() -> UInt16? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Int(String(UnicodeScalar(byte)), radix: 16) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        index += 4
        return unit
    }

    /// A minus or a digit at `index`: JSON's number grammar (no leading zeros), ended by
    /// whitespace, a comma, a closing bracket or brace, or the end.
    private mutating func number() -> JSONNumber? {
        enum Part { case integer, fraction, exponentMark, exponentSign }
        var part = Part.integer
        var digits = bytes[index] == .minus ? 0 : 1
        var leadingZero = bytes[index] == .digit0
        var end = index + 1
        scan: while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                if leadingZero { return nil }
                // `-0`: the zero after the minus leads.
                if bytes[end] == .digit0, digits == 0, part == .integer { leadingZero = true }
                digits += 1
            case UInt8(ascii: "."):
                guard digits > 0, part == .integer else { return nil }
                (part, digits, leadingZero) = (.fraction, 0, false)
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard digits > 0, part == .integer || part == .fraction else { return nil }
                (part, digits, leadingZero) = (.exponentMark, 0, false)
            case UInt8(ascii: "+"), .minus:
                guard digits == 0, part == .exponentMark else { return nil }
                part = .exponentSign
            case .space, .tab, .lineFeed, .carriageReturn, .comma, .closeBracket, .closeBrace:
                break scan
            default:
                return nil
            }
            end += 1
        }
        guard digits > 0 else { return nil }
        let token = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end
        return JSONNumber(token: token[...])
    }
}

/// The bytes of JSON's grammar, for this module's readers of it.
extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let quote = UInt8(ascii: "\"")
    static let backslash = UInt8(ascii: "\\")
    static let comma = UInt8(ascii: ",")
    static let colon = UInt8(ascii: ":")
    static let minus = UInt8(ascii: "-")
    static let digit0 = UInt8(ascii: "0")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
}
