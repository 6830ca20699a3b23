import CPostgres

/// A libpq connection (a `postgresql://` URI or `key=value` conninfo) with hrvmon's security
/// floor applied: the server's certificate verified against the study's CA and its name
/// (`sslmode=verify-full`), and SCRAM-SHA-256 with channel binding (`channel_binding=require`:
/// libpq 15 has no `require_auth`, and channel binding exists only in SCRAM, so it refuses
/// password, md5 and trust alike). A weaker `sslmode` is refused, never quietly raised, so that a
/// URI that asks for plain text is answered with why not.
public struct ConnectionParameters: Sendable, Equatable {
    public struct Invalid: Error, CustomStringConvertible {
        public var description: String
    }

    /// Keyword and value, in libpq's names (`host`, `port`, `dbname`, `user`, `sslrootcert`…).
    public private(set) var values: [(String, String)]

    public static func == (left: Self, right: Self) -> Bool {
        left.values.map(\.0) == right.values.map(\.0) && left.values.map(\.1) == right.values.map(\.1)
    }

    /// `connection`'s keywords, checked and completed. `password`, when given, is added (kept
    /// out of the URI so that no password is on a command line).
    public init(_ connection: String, password: String? = nil, caFile: String? = nil) throws(Invalid) {
        var parsed = try Self.parse(connection)
        if let sslmode = parsed.first(where: { $0.0 == "sslmode" })?.1, sslmode != "verify-full" {
            throw Invalid(
                description: "sslmode=\(sslmode) is refused: the study's data travels only over TLS with the server's certificate verified (sslmode=verify-full)")
        }
        if let binding = parsed.first(where: { $0.0 == "channel_binding" })?.1, binding != "require" {
            throw Invalid(description: "channel_binding=\(binding) is refused: the study's database is reached only with SCRAM-SHA-256 channel binding over TLS")
        }
        parsed.removeAll { ["sslmode", "channel_binding"].contains($0.0) || ($0.0 == "sslrootcert" && caFile != nil) }
        parsed += [("sslmode", "verify-full"), ("channel_binding", "require")]
        if let caFile { parsed.append(("sslrootcert", caFile)) }
        if let password { parsed.append(("password", password)) }
        values = parsed
    }

    public func value(_ keyword: String) -> String? { values.last { $0.0 == keyword }?.1 }

    /// The keywords libpq found in `connection`, with values.
    private static func parse(_ connection: String) throws(Invalid) -> [(String, String)] {
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connection, &error) else {
            let message = error.map { String(cString: $0) } ?? "cannot be parsed"
            PQfreemem(error)
            throw Invalid(description: "the connection '\(redacted(connection))' is not a libpq URI or conninfo: \(DatabaseFailure.firstLine(message))")
        }
        defer { PQconninfoFree(options) }
        var parsed: [(String, String)] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val { parsed.append((String(cString: keyword), String(cString: value))) }
            option += 1
        }
        if parsed.contains(where: { $0.0 == "password" }) {
            throw Invalid(description: "the connection holds a password: give it in PGPASSWORD or ~/.pgpass (PGPASSFILE) instead, where no one else can read it")
        }
        return parsed
    }

    /// `connection` with any password replaced, for messages.
    static func redacted(_ connection: String) -> String {
        connection.contains("password") || connection.contains("@") && connection.contains(":") ? "(not shown: it may hold a password)" : connection
    }
}
