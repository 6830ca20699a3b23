import SessionLog

/// One participant's invite: a regular 0600 file the researcher hands over (docs/reference/study.md).
///
///     hrvmon-study-invite 1
///     study: Sleep and stress 2027
///     connection: host='db.example.org' port='5432' dbname='study' user='p_3f9c0a1e7b2d'
///     password: …
///     expires: 1811548800 2027-05-29T00:00:00Z
///     ca:
///     -----BEGIN CERTIFICATE-----
///     …
///     -----END CERTIFICATE-----
///
/// `connection` is a libpq conninfo naming no password and no sslmode (hrvmon adds
/// `sslmode=verify-full` with the CA below, and `channel_binding=require`); `password` is the
/// participant's role's password; `expires` (only when the researcher gave `invite --expires`) is
/// when that password stops being valid, Unix seconds then the same in UTC; `ca` is the study's CA
/// certificate, PEM. The researcher's own password is never in it.
public struct Invite: Equatable, Sendable {
    public struct Invalid: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    public static let magic = "hrvmon-study-invite 1"

    public var study: String
    public var connection: String
    public var password: String
    public var certificate: String
    /// When the credential stops being valid, Unix seconds; nil: never.
    public var expires: Double?

    public init(study: String, connection: String, password: String, certificate: String, expires: Double? = nil) {
        self.study = study
        self.connection = connection
        self.password = password
        self.certificate = certificate
        self.expires = expires
    }

    /// Whether the credential has expired at `time` (Unix seconds).
    public func hasExpired(at time: Double) -> Bool { expires.map { $0 <= time } ?? false }

    /// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (UTC, as the server's times are written for people).
    public static func utc(_ unixSeconds: Double) -> String {
        let seconds = Int(unixSeconds.rounded(.down))
        let second = (seconds % 86_400 + 86_400) % 86_400
        let days = (seconds - second) / 86_400
        let two = { (value: Int) in value < 10 ? "0\(value)" : String(value) }
        return CalendarDay(ordinal: days).text + "T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))Z"
    }

    /// A conninfo of these keywords, each value quoted as libpq reads it.
    public static func connection(host: String, port: String, database: String, user: String) -> String {
        [("host", host), ("port", port), ("dbname", database), ("user", user)]
            .map { "\($0)='\($1.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'"))'" }.joined(separator: " ")
    }

    public var text: String {
        "\(Self.magic)\nstudy: \(study)\nconnection: \(connection)\npassword: \(password)\n"
            + (expires.map { "expires: \(Int($0)) \(Self.utc($0))\n" } ?? "") + "ca:\n\(certificate)"
            + (certificate.hasSuffix("\n") ? "" : "\n")
    }

    public init(text: String, path: String) throws(Invalid) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        guard lines.first == Self.magic else {
            throw Invalid(path: path, reason: "not a hrvmon study invite (it does not begin with '\(Self.magic)'); use the file the researcher sent")
        }
        lines = lines.dropFirst()
        func field(_ key: String) throws(Invalid) -> String {
            guard let line = lines.first, line.hasPrefix(key + ": ") else {
                throw Invalid(path: path, reason: "truncated or damaged: no '\(key):' line where it belongs; ask the researcher for the invite again")
            }
            lines = lines.dropFirst()
            return String(line.dropFirst(key.count + 2))
        }
        study = try field("study")
        connection = try field("connection")
        password = try field("password")
        if lines.first?.hasPrefix("expires: ") == true {
            let value = try field("expires")
            guard let seconds = Double(value.prefix { $0 != " " }) else {
                throw Invalid(path: path, reason: "damaged: its 'expires:' line is not a time (\(value)); ask the researcher for the invite again")
            }
            expires = seconds
        }
        let certificate = lines.dropFirst().joined(separator: "\n")
        guard lines.first == "ca:", certificate.contains("-----BEGIN CERTIFICATE-----"), certificate.contains("-----END CERTIFICATE-----") else {
            throw Invalid(path: path, reason: "truncated or damaged: the study's CA certificate is missing or cut short; ask the researcher for the invite again")
        }
        self.certificate = certificate
        if study.isEmpty || connection.isEmpty || password.isEmpty {
            throw Invalid(path: path, reason: "damaged: an empty study, connection or password; ask the researcher for the invite again")
        }
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
