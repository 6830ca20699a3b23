import Glibc

/// XDG Base Directory locations: the variable when it holds an absolute path, else the fallback
/// under `$HOME`.
enum XDGDirectory {
    static func path(_ variable: String, fallback: String) -> String {
        absolute(variable) ?? (getenv("HOME").map { String(cString: $0) } ?? "") + "/" + fallback
    }

    /// The variable's value when it is an absolute path (the spec says to ignore relative ones).
    static func absolute(_ variable: String) -> String? {
        guard let value = getenv(variable).map({ String(cString: $0) }), value.hasPrefix("/") else { return nil }
        return value
    }

    /// `$XDG_RUNTIME_DIR`, which has no fallback.
    static var runtime: String? { absolute("XDG_RUNTIME_DIR") }

    static var config: String { path("XDG_CONFIG_HOME", fallback: ".config") }
    static var data: String { path("XDG_DATA_HOME", fallback: ".local/share") }
}
