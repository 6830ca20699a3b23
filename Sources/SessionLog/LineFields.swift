/// A member's value as the session reader sees it.
enum LineValue<Object> {
    case number(Double)
    case bool(Bool)
    case null
    case string(String)
    case object(Object)
    /// An array: its numbers when it holds only numbers, nil when it holds anything else.
    case array([Double]?)
}

/// Typed access to one line's fields, with errors naming the key: the same for a line scanned in
/// place (`ScannedObject`) and one parsed into values (`JSONFields`). A field is read as the
/// reader read it through JSONSerialization's values before: true and false are the numbers 1
/// and 0, and the numbers 1 and 0 are true and false.
protocol LineFields {
    associatedtype Object: LineFields
    /// nil when the line has no such key.
    func value(_ key: StaticString) -> LineValue<Object>?
    /// The number at `key` correctly rounded from its text, as Swift's `Double(_:)` reads it: the
    /// Double whose shortest text was written comes back to the last bit. (`value` gives what the
    /// session reader always gave, `Decimal`'s rounding beyond 17 characters.) nil when `key`
    /// holds no number.
    func exactNumber(_ key: StaticString) -> Double?
}

extension LineFields {
    func string(_ key: StaticString) throws(SessionFileReader.LineError) -> String {
        guard case .string(let value)? = value(key) else { throw missing(key, "text") }
        return value
    }

    func optionalString(_ key: StaticString) throws(SessionFileReader.LineError) -> String? {
        switch value(key) {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw missing(key, "text")
        }
    }

    func double(_ key: StaticString) throws(SessionFileReader.LineError) -> Double {
        guard let value = try optionalDouble(key) else { throw missing(key, "a number") }
        return value
    }

    func optionalDouble(_ key: StaticString) throws(SessionFileReader.LineError) -> Double? {
        switch value(key) {
        case nil, .null?: return nil
        case .number(let number)?: return number
        case .bool(let value)?: return value ? 1 : 0
        default: throw missing(key, "a number")
        }
    }

    /// A number `exactNumber` reads: for files whose numbers hrvmon wrote from Doubles it must
    /// give back exactly (the session index).
    func exactDouble(_ key: StaticString) throws(SessionFileReader.LineError) -> Double {
        guard let value = try optionalExactDouble(key) else { throw missing(key, "a number") }
        return value
    }

    func optionalExactDouble(_ key: StaticString) throws(SessionFileReader.LineError) -> Double? {
        switch value(key) {
        case nil, .null?: return nil
        case .number?:
            guard let number = exactNumber(key) else { throw missing(key, "a number") }
            return number
        default: throw missing(key, "a number")
        }
    }

    func int(_ key: StaticString) throws(SessionFileReader.LineError) -> Int {
        guard let value = try optionalInt(key) else { throw missing(key, "a whole number") }
        return value
    }

    func optionalInt(_ key: StaticString) throws(SessionFileReader.LineError) -> Int? {
        guard let number = try optionalDouble(key) else { return nil }
        guard number == number.rounded(), abs(number) < 1e15 else { throw missing(key, "a whole number") }
        return Int(number)
    }

    func bool(_ key: StaticString) throws(SessionFileReader.LineError) -> Bool {
        switch value(key) {
        case .bool(let value)?: return value
        case .number(let number)? where number == 1: return true
        case .number(let number)? where number == 0: return false
        default: throw missing(key, "true or false")
        }
    }

    /// An array of numbers (a `motion_seconds` line's `mg`).
    func numbers(_ key: StaticString) throws(SessionFileReader.LineError) -> [Double] {
        guard case .array(let numbers?)? = value(key) else { throw missing(key, "a list of numbers") }
        return numbers
    }

    /// An array of whole numbers (a packet's `rr_1024`).
    func integers(_ key: StaticString) throws(SessionFileReader.LineError) -> [Int] {
        guard case .array(let numbers?)? = value(key) else { throw missing(key, "a list of whole numbers") }
        var integers: [Int] = []
        integers.reserveCapacity(numbers.count)
        for number in numbers {
            guard number == number.rounded(), abs(number) < 1e15 else { throw missing(key, "a list of whole numbers") }
            integers.append(Int(number))
        }
        return integers
    }

    func object(_ key: StaticString) throws(SessionFileReader.LineError) -> Object? {
        switch value(key) {
        case nil, .null?: return nil
        case .object(let nested)?: return nested
        default: throw missing(key, "an object")
        }
    }


    private func missing(_ key: StaticString, _ kind: String) -> SessionFileReader.LineError {
        SessionFileReader.LineError(reason: "\"\(key)\" must be \(kind)")
    }
}

/// A line parsed into values (`JSONValue.parse`): any line JSONSerialization read, the header's
/// settings lists among them.
struct JSONFields: LineFields {
    let object: [String: JSONValue]

    init(_ object: [String: JSONValue]) { self.object = object }

    var keys: Dictionary<String, JSONValue>.Keys { object.keys }

    func raw(_ key: String) -> JSONValue? { object[key] }

    func exactNumber(_ key: StaticString) -> Double? {
        guard case .number(let number)? = object[key.description] else { return nil }
        return Double(number.text)
    }

    func value(_ key: StaticString) -> LineValue<JSONFields>? {
        switch object[key.description] {
        case nil: nil
        case .number(let number)?: .number(number.value)
        case .bool(let value)?: .bool(value)
        case .null?: .null
        case .string(let text)?: .string(text)
        case .object(let members)?: .object(JSONFields(members))
        case .array(let values)?: .array(Self.numbers(values))
        }
    }

    private static func numbers(_ values: [JSONValue]) -> [Double]? {
        var numbers: [Double] = []
        for value in values {
            guard case .number(let number) = value else { return nil }
            numbers.append(number.value)
        }
        return numbers
    }
}
