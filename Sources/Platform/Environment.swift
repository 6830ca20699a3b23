import Glibc

/// The process's environment variables.
public enum Environment {
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// The user this process runs as.
public enum CurrentUser {
    public static var id: UInt32 { getuid() }

    /// The login name; "uid N" when the user database has none.
    public static var name: String {
        getpwuid(getuid()).flatMap { $0.pointee.pw_name }.map { String(cString: $0) } ?? "uid \(getuid())"
    }
}
