import Platform
import StudyDatabase
import TestSupport
import Testing

/// libpq on Platform's loop against a real PostgreSQL 15 (TestSupport.PrivatePostgres): TLS
/// verified, SCRAM with channel binding, statements with parameters, and each way of failing told
/// apart.
@Suite(.serialized) struct DatabaseConnectionTests {
    let server: PrivatePostgres

    init() throws { server = try PrivatePostgres.shared.get() }

    func open(_ connection: String, password: String? = nil, caFile: String? = nil) throws -> Result<DatabaseConnection, DatabaseFailure> {
        let parameters = try ConnectionParameters(connection, password: password ?? server.researcherPassword, caFile: caFile ?? server.caFile)
        let loop = EventLoop()
        return loop.wait { DatabaseConnection.open(parameters, on: loop, timeout: 60, completion: $0) }
    }

    func researcher(_ extra: String = "") -> String { "host=localhost port=\(server.port) dbname=postgres user=researcher \(extra)" }

    @Test func connectsOverVerifiedTLSAndRunsStatementsWithParameters() throws {
        let parameters = try ConnectionParameters(researcher(), password: server.researcherPassword, caFile: server.caFile)
        let loop = EventLoop()
        let session = try DatabaseSession.connect(parameters, on: loop)
        #expect(session.connection.tlsProtocol == "TLSv1.3")
        let result = try session.run("SELECT $1::int + 1 AS answer, $2::text IS NULL", ["41", nil])
        #expect(result.columns == ["answer", "?column?"])
        #expect(result.rows == [["42", "t"]])
        // The server agrees: this connection is TLS, and it authenticated with SCRAM-SHA-256-PLUS
        // (channel binding), which libpq was told to require.
        let ssl = try session.run("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        #expect(ssl.single == "t")
    }

    @Test func aStatementTheServerRefusesCarriesItsSQLState() throws {
        let session = try DatabaseSession.connect(
            try ConnectionParameters(researcher(), password: server.researcherPassword, caFile: server.caFile), on: EventLoop())
        #expect(throws: DatabaseFailure(.refused(sqlState: "42P01"), #"relation "no_such_table" does not exist"#)) {
            try session.run("SELECT * FROM no_such_table")
        }
        // The connection is still usable after a refused statement.
        #expect(try session.run("SELECT 1").single == "1")
    }

    @Test func aConnectionWithoutTLSIsRefusedSayingTLS() {
        for mode in ["disable", "allow", "prefer", "require", "verify-ca"] {
            #expect {
                try ConnectionParameters(researcher("sslmode=\(mode)"))
            } throws: { error in
                "\(error)".contains("TLS") && "\(error)".contains("sslmode=\(mode)")
            }
        }
        #expect(throws: ConnectionParameters.Invalid.self) { try ConnectionParameters(researcher("channel_binding=disable")) }
        #expect(throws: ConnectionParameters.Invalid.self) { try ConnectionParameters("postgresql://researcher:secret@localhost/db") }
    }

    @Test func aServerCertificateNotFromTheStudysCAIsRefused() throws {
        let failure = try #require(try open(researcher(), caFile: server.otherCAFile).failure)
        #expect(failure.kind == .certificate, "\(failure)")
        #expect("\(failure)".contains("not from the study's CA"))
    }

    @Test func aWrongCredentialIsNotCalledUnreachable() throws {
        let failure = try #require(try open(researcher(), password: "wrong").failure)
        #expect(failure.kind == .credential, "\(failure)")
        let unknown = try #require(try open("host=localhost port=\(server.port) dbname=postgres user=nobody_here", password: "x").failure)
        #expect(unknown.kind == .credential, "\(unknown)")
    }

    @Test func noServerIsUnreachable() throws {
        // A port nothing listens on: the server's own port + 1 is not guaranteed free, port 1 is
        // privileged and unused.
        let failure = try #require(try open("host=localhost port=1 dbname=postgres user=researcher").failure)
        #expect(failure.kind == .unreachable, "\(failure)")
        #expect("\(failure)".contains("cannot reach"))
    }

    /// The loop keeps serving its other work while libpq waits for the server: a timer armed
    /// before connecting fires before the connection's answer comes.
    @Test func connectingDoesNotBlockTheLoop() throws {
        let parameters = try ConnectionParameters(researcher(), password: server.researcherPassword, caFile: server.caFile)
        let loop = EventLoop()
        var events: [String] = []
        loop.schedule(after: 0) { events.append("timer") }
        let result = loop.wait { completion in
            DatabaseConnection.open(parameters, on: loop) { events.append("connected"); completion($0) }
        }
        #expect(result.failure == nil)
        #expect(events == ["timer", "connected"])
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
