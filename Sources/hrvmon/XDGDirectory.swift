import Glibc

/// XDG Base Directory locations: the variable when it holds an absolute path, else the fallback
/// under `$HOME`.
enum XDGDirectory {
    static func path(_ variable: String, fallback: String) -> String {
        if let base = getenv(variable).map({ String(cString: $0) }), base.hasPrefix("/") { return base }
        return (getenv("HOME").map { String(cString: $0) } ?? "") + "/" + fallback
    }

    static var config: String { path("XDG_CONFIG_HOME", fallback: ".config") }
    static var data: String { path("XDG_DATA_HOME", fallback: ".local/share") }
}
