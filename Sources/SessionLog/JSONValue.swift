@_spi(SwiftCorelibsFoundation) import FoundationEssentials

/// A JSON value of a session line, as `SessionFileReader` reads it. Numbers carry the value and
/// the text Foundation's JSONSerialization gave them (the reader used it before; so every file
/// reads as it did: a timestamp of more than 17 characters went through `Decimal`).
enum JSONValue {
    case string(String)
    case number(JSONNumber)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    /// The text `"\(value)"` gave for the value JSONSerialization made of it (a setting's list
    /// item in the session header is written so).
    var description: String {
        switch self {
        case .string(let text): text
        default: debugDescription
        }
    }

    /// As an element of a printed list or dictionary: text quoted.
    private var debugDescription: String {
        switch self {
        case .string(let text): text.debugDescription
        case .number(let number): number.text
        case .bool(let value): value ? "1" : "0"
        case .null: "<null>"
        case .array(let values): "[" + values.map(\.debugDescription).joined(separator: ", ") + "]"
        case .object(let members):
            members.isEmpty ? "[:]"
                : "[" + members.keys.sorted().map { "\($0.debugDescription): \(members[$0]!.debugDescription)" }.joined(separator: ", ") + "]"
        }
    }
}

/// A JSON number as JSONSerialization's NSNumber was read: `value` what `Double` or `Int`
/// casts gave (never -0), `text` its description.
struct JSONNumber {
    var value: Double
    var text: String
    /// False beyond Double's range: JSONSerialization refused a document that still held such a
    /// number once parsed (a repeated key may have replaced it).
    var isRepresentable = true

    /// The number a token of the JSON grammar stands for. A token of up to 19 or 20 characters
    /// without `.` or `e` is a whole number; more than 17 characters (before a lowercase `e`) are
    /// read as a `Decimal`, and converted to Double the way `Decimal` does it, not correctly
    /// rounded.
    init(token: Substring) {
        let exponentMark = token.firstIndex(of: "e")
        let isInteger = !token.contains(".") && exponentMark == nil
        let digitCount = token[..<(exponentMark ?? token.endIndex)].count
        if isInteger, token.first == "-", digitCount <= 19, let integer = Int64(token) {
            self.init(value: Double(integer), text: String(integer))
            return
        }
        if isInteger, token.first != "-", digitCount <= 20, let integer = UInt64(token) {
            self.init(value: Double(integer), text: String(integer))
            return
        }
        let exponent = exponentMark.flatMap { Int(token[token.index(after: $0)...]) } ?? 0
        if digitCount > 17, (-128...127).contains(exponent), let decimal = Decimal(string: String(token)), decimal.isFinite {
            self.init(value: decimal._doubleValue, text: decimal.description)
            return
        }
        let double = Double(token) ?? .nan
        self.init(value: double, text: double.description)
        isRepresentable = double.isFinite
    }

    private init(value: Double, text: String) {
        // -0 was read through an `Int` cast, as 0.
        self.value = value == 0 ? 0 : value
        self.text = text
    }
}

extension JSONValue {
    var numbersAreRepresentable: Bool {
        switch self {
        case .number(let number): number.isRepresentable
        case .array(let values): values.allSatisfy(\.numbersAreRepresentable)
        case .object(let members): members.values.allSatisfy(\.numbersAreRepresentable)
        case .string, .bool, .null: true
        }
    }
}
