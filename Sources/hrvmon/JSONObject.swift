import Platform
/// Builds one JSON object with keys in insertion order, for the stable, documented output
/// contracts (`analyze --format json`, JSON Lines series).
struct JSONObject {
    private var text = "{"
    private var empty = true

    private mutating func key(_ name: String) {
        if !empty { text += "," }
        empty = false
        text += "\"\(name)\":"
    }

    mutating func add(_ name: String, _ value: Int) {
        key(name)
        text += String(value)
    }

    mutating func add(_ name: String, _ value: Int?) {
        key(name)
        text += value.map { String($0) } ?? "null"
    }

    /// Non-finite or absent numbers are written as null.
    mutating func add(_ name: String, _ value: Double?) {
        key(name)
        if let value, value.isFinite { text += String(value) } else { text += "null" }
    }

    mutating func add(_ name: String, _ value: Bool) {
        key(name)
        text += value ? "true" : "false"
    }

    mutating func add(_ name: String, _ value: String?) {
        key(name)
        text += value.map(Self.quoted) ?? "null"
    }

    mutating func add(_ name: String, _ value: JSONObject?) {
        key(name)
        text += value?.serialized ?? "null"
    }

    mutating func add(_ name: String, _ values: [JSONObject]) {
        key(name)
        text += "[" + values.map(\.serialized).joined(separator: ",") + "]"
    }

    /// `json` must already be valid JSON.
    mutating func addRaw(_ name: String, _ json: String) {
        key(name)
        text += json
    }

    var serialized: String { text + "}" }

    static func quoted(_ string: String) -> String {
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
    mutating func addIntegers(_ name: String, _ values: [Int]) {
        addRaw(name, "[" + values.map(String.init).joined(separator: ",") + "]")
    }

    mutating func addStrings(_ name: String, _ values: [String]) {
        addRaw(name, "[" + values.map(JSONObject.quoted).joined(separator: ",") + "]")
    }
}
