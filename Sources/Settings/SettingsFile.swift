
/// The configuration file: `key = value` lines, `#` comments, blank lines ignored; keys from
/// `SettingDefinition.all`. Anything else is an error naming the line, the key and what is allowed.
public enum SettingsFile {
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        public var source: String
        public var line: Int?
        public var problem: String

        public var description: String { line.map { "\(source):\($0): \(problem)" } ?? "\(source): \(problem)" }
    }

    public static func parse(_ text: String, source: String) throws(Error) -> Settings {
        var settings = Settings()
        let text = text.hasPrefix("\u{FEFF}") ? text.dropFirst() : Substring(text)  // a byte-order mark from a Windows editor
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                throw Error(source: source, line: index + 1, problem: "expected key = value, found '\(line)'")
            }
            let key = String(line[..<equals].trimmingWhitespace())
            var value = line[line.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            guard let definition = definitions[key] else {
                throw Error(source: source, line: index + 1,
                            problem: "unknown key '\(key)'; known keys: \(SettingDefinition.all.map(\.key).joined(separator: ", "))")
            }
            func invalid() -> Error {
                Error(source: source, line: index + 1, problem: "\(key) = \(value) is not allowed: \(key) takes \(definition.allowed)")
            }
            switch definition.kind {
            case .number(let range, let path):
                guard let number = Double(value), number.isFinite, range.contains(number) else { throw invalid() }
                settings[keyPath: path] = number
            case .flag(let path):
                guard let flag = ["true": true, "yes": true, "false": false, "no": false][value.lowercased()] else { throw invalid() }
                settings[keyPath: path] = flag
            case .text(_, let check, let path):
                guard check(String(value)) else { throw invalid() }
                settings[keyPath: path] = String(value)
            case .list(let path):
                guard !value.isEmpty else { throw invalid() }
                settings[keyPath: path].append(String(value))
            }
        }
        try checkConsistency(settings, source: source)
        return settings
    }

    private static let definitions = Dictionary(uniqueKeysWithValues: SettingDefinition.all.map { ($0.key, $0) })

    /// Rules between keys.
    private static func checkConsistency(_ settings: Settings, source: String) throws(Error) {
        if settings.stress.releaseMargin > settings.stress.onsetMargin {
            throw Error(source: source, line: nil,
                        problem: "stress.release_margin_sd (\(settings.stress.releaseMargin)) must not exceed stress.onset_margin_sd (\(settings.stress.onsetMargin))")
        }
        if settings.stress.activityExitMargin > settings.stress.activityMargin {
            throw Error(source: source, line: nil,
                        problem: "activity.exit_margin_bpm (\(settings.stress.activityExitMargin)) must not exceed activity.margin_bpm (\(settings.stress.activityMargin))")
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs; a view, no copy.
    func trimmingWhitespace() -> Substring {
        let isWhitespace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
