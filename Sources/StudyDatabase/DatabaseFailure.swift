/// Why the study's database could not be used, told apart so that the person at the keyboard
/// knows what to do: an expired or revoked credential is not "cannot reach the server".
public struct DatabaseFailure: Error, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Equatable {
        /// No server answered: down, wrong host or port, no network, no answer in time.
        case unreachable
        /// The connection would not have been encrypted and verified: refused before connecting,
        /// or the server offers no TLS.
        case tlsRequired
        /// The server's certificate is not from the study's CA, or is not for that host.
        case certificate
        /// The server refused the credential: wrong, expired, revoked, or not this study's.
        case credential
        /// The connection was lost during a request: what was not committed was not received.
        case lost
        /// The server refused a statement (its SQLSTATE, e.g. 42501 for a denied privilege).
        case refused(sqlState: String)
    }

    public var kind: Kind
    /// libpq's or the server's own words, first line.
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String {
        switch kind {
        case .unreachable: "cannot reach the study's database server (\(detail)); nothing was lost: try again later"
        case .tlsRequired: "the study's database requires TLS, and \(detail)"
        case .certificate: "the server's certificate is not from the study's CA (\(detail)); check the invite or the URI's sslrootcert"
        case .credential: "the server refused the credential (\(detail)): it is wrong, has expired or was revoked; ask the researcher for a new invite"
        case .lost: "the connection to the study's database was lost (\(detail)); what was not committed was not received: try again"
        case .refused(let sqlState): "the study's database refused the request (SQLSTATE \(sqlState)): \(detail)"
        }
    }

    /// A failed connection attempt, told apart by libpq's message. The server's SQLSTATE is in it
    /// because the connection reports errors verbosely (`FATAL:  28P01: …`); libpq's own messages
    /// (the client's TLS checks, the socket's errors) have none and are matched by their words,
    /// which are English because hrvmon never sets a message locale.
    static func connecting(_ message: String) -> DatabaseFailure {
        let detail = firstLine(message)
        let credentialCodes = ["28P01", "28000"]
        if credentialCodes.contains(where: { message.contains("FATAL:  \($0):") }) || message.contains("channel binding")
            || message.contains("SCRAM") || message.contains("password authentication failed")
        {
            return DatabaseFailure(.credential, detail)
        }
        let certificateWords = ["certificate verify failed", "server certificate for", "does not match host name", "root certificate", "certificate"]
        if certificateWords.contains(where: message.contains) { return DatabaseFailure(.certificate, detail) }
        if message.contains("server does not support SSL") || message.contains("no encryption") {
            return DatabaseFailure(.tlsRequired, "the server does not offer it (\(detail))")
        }
        return DatabaseFailure(.unreachable, detail)
    }

    /// A libpq message's first line, without the server's SQLSTATE and location decoration.
    static func firstLine(_ message: String) -> String {
        let line = message.split(separator: "\n").first.map(String.init) ?? "no message"
        return String(line.drop { $0 == " " || $0 == "\t" })
    }
}
