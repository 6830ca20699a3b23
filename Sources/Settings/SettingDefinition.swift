
/// One key of the configuration file: its name, documentation, allowed values, and where it goes.
public struct SettingDefinition: Sendable {
    public enum Kind: Sendable {
        case number(ClosedRange<Double>, WritableKeyPath<Settings, Double> & Sendable)
        case flag(WritableKeyPath<Settings, Bool> & Sendable)
        case text(allowed: String, check: @Sendable (String) -> Bool, WritableKeyPath<Settings, String> & Sendable)
        /// Repeatable: each line adds one entry.
        case list(WritableKeyPath<Settings, [String]> & Sendable)
    }

    public var key: String
    public var kind: Kind
    /// What it does and where the default comes from (docs/reference/configuration.md).
    public var help: String

    /// The value in `settings`, as it would be written in the file.
    public func value(in settings: Settings) -> String {
        switch kind {
        case .number(_, let path): Self.format(settings[keyPath: path])
        case .flag(let path): settings[keyPath: path] ? "true" : "false"
        case .text(_, _, let path): settings[keyPath: path]
        case .list(let path): settings[keyPath: path].isEmpty ? "(none)" : settings[keyPath: path].joined(separator: " | ")
        }
    }

    /// The allowed values, for messages and documentation.
    public var allowed: String {
        switch kind {
        case .number(let range, _): "a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        case .flag: "true or false"
        case .text(let allowed, _, _): allowed
        case .list: "any text (repeat the key for more)"
        }
    }

    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
