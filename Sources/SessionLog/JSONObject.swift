/// Builds one JSON object with keys in insertion order, for the stable, documented output
/// contracts (`analyze --format json`, JSON Lines series).
public struct JSONObject {
    private var text = "{"
    private var empty = true

    public init() {}

    private mutating func key(_ name: String) {
        if !empty { text += "," }
        empty = false
        text += "\"\(name)\":"
    }

    public mutating func add(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    public mutating func add(_ name: String, _ value: Int?) {
        key(name)
        text += value.map { String($0) } ?? "null"
    }

    /// Non-finite or absent numbers are written as null.
    public mutating func add(_ name: String, _ value: Double?) {
        key(name)
        if let value, value.isFinite { text += String(value) } else { text += "null" }
    }

    public mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    public mutating func add(_ name: String, _ value: String?) {
        key(name)
        text += value.map(Self.quoted) ?? "null"
    }

    public mutating func add(_ name: String, _ value: JSONObject?) {
        key(name)
        text += value?.serialized ?? "null"
    }

    public mutating func add(_ name: String, _ values: [JSONObject]) {
        key(name)
        text += "[" + values.map(\.serialized).joined(separator: ",") + "]"
    }

    /// `json` must already be valid JSON.
    public mutating func addRaw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    public var serialized: String { text + "}" }

    public static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension JSONObject {
    public mutating func addIntegers(_ name: String, _ values: [Int]) {
        addRaw(name, "[" + values.map(String.init).joined(separator: ",") + "]")
    }

    public mutating func addStrings(_ name: String, _ values: [String]) {
        addRaw(name, "[" + values.map(JSONObject.quoted).joined(separator: ",") + "]")
    }
}
