/// One participant's invite: a regular 0600 file the researcher hands over (docs/reference/study.md).
///
///     hrvmon-study-invite 1
///     study: Sleep and stress 2027
///     connection: host='db.example.org' port='5432' dbname='study' user='p_3f9c0a1e7b2d'
///     password: …
///     ca:
///     -----BEGIN CERTIFICATE-----
///     …
///     -----END CERTIFICATE-----
///
/// `connection` is a libpq conninfo naming no password and no sslmode (hrvmon adds
/// `sslmode=verify-full` with the CA below, and `channel_binding=require`); `password` is the
/// participant's role's password; `ca` is the study's CA certificate, PEM. The researcher's own
/// password is never in it.
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

    public init(study: String, connection: String, password: String, certificate: String) {
        self.study = study
        self.connection = connection
        self.password = password
        self.certificate = certificate
    }

    /// A conninfo of these keywords, each value quoted as libpq reads it.
    public static func connection(host: String, port: String, database: String, user: String) -> String {
        [("host", host), ("port", port), ("dbname", database), ("user", user)]
            .map { "\($0)='\($1.replacingAll("\\", with: "\\\\").replacingAll("'", with: "\\'"))'" }.joined(separator: " ")
    }

    public var text: String {
        "\(Self.magic)\nstudy: \(study)\nconnection: \(connection)\npassword: \(password)\nca:\n\(certificate)"
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
