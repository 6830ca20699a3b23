import Glibc

/// XDG Base Directory locations: the variable when it holds an absolute path, else the fallback
/// under `$HOME`.
public enum XDGDirectory {
    public static func path(_ variable: String, fallback: String) -> String {
        absolute(variable) ?? (getenv("HOME").map { String(cString: $0) } ?? "") + "/" + fallback
    }

    /// The variable's value when it is an absolute path (the spec says to ignore relative ones).
    public static func absolute(_ variable: String) -> String? {
        guard let value = getenv(variable).map({ String(cString: $0) }), value.hasPrefix("/") else { return nil }
        return value
    }

    /// `$XDG_RUNTIME_DIR`, which has no fallback.
    public static var runtime: String? { absolute("XDG_RUNTIME_DIR") }

    public static var config: String { path("XDG_CONFIG_HOME", fallback: ".config") }
    public static var data: String { path("XDG_DATA_HOME", fallback: ".local/share") }
}
