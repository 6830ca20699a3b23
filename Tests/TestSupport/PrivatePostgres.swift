import Foundation

/// A private PostgreSQL 15 for one test suite (Tests/TestSupport/PrivatePostgres/server.sh): its
/// own cluster in a temporary directory, TLS only, on 127.0.0.1, with a CA made for it. The
/// superuser `researcher`'s password is given to clients in PGPASSWORD, never on a command line.
/// Gone with `stop()`, and with the test process if that dies first.
public final class PrivatePostgres: @unchecked Sendable {
    public static let script = Bundle.module.url(forResource: "PrivatePostgres", withExtension: nil)!.appendingPathComponent("server.sh").path
    public static let psql = "/usr/lib/postgresql/15/bin/psql"

    public let directory: String
    public private(set) var port = 0
    private let wrapper: Process
    private let wrapperInput: FileHandle
    private let wrapperOutput: LineReader
    private let logPath: String

    public init(timeout: TimeInterval = 120) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-postgres-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        logPath = directory + ".log"
        (wrapper, wrapperInput, wrapperOutput) = try TestChild.spawn("/bin/bash", [Self.script, directory], log: logPath)
        let line = try answer("starting PostgreSQL", timeout: timeout)
        guard line.hasPrefix("port "), let number = Int(line.dropFirst(5)) else {
            stop()
            throw TestChild.Failure(description: "PostgreSQL's script said '\(line)'\n\(log)")
        }
        port = number
    }

    public var log: String {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
            + ((try? String(contentsOfFile: directory + "/run/server.log", encoding: .utf8)) ?? "")
    }

    /// The study's CA certificate, and one that signed nothing of this server.
    public var caFile: String { directory + "/ca.pem" }
    public var otherCAFile: String { directory + "/other-ca.pem" }
    public var researcherPassword: String {
        ((try? String(contentsOfFile: directory + "/password", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The researcher's URI for `database` (`study`, empty; `other`, holding something else).
    public func researcherURI(_ database: String = "study", caFile: String? = nil) -> String {
        "postgresql://researcher@localhost:\(port)/\(database)?sslrootcert=\(caFile ?? self.caFile)"
    }

    /// The researcher's password where libpq looks for it.
    public var researcherEnvironment: [String: String] { ["PGPASSWORD": researcherPassword] }

    /// Stops the server at once, as a crash or a pulled cable would (`pg_ctl -m immediate`).
    public func crash() throws {
        try TestChild.send("stop\n", to: wrapperInput.fileDescriptor)
        _ = try answer("stopping PostgreSQL", timeout: 60)
    }

    public func restart() throws {
        try TestChild.send("start\n", to: wrapperInput.fileDescriptor)
        _ = try answer("starting PostgreSQL again", timeout: 60)
    }

    /// psql's run of `sql` with `connection` (a conninfo) and `password`: a client other than
    /// hrvmon, to try what a participant's credential allows.
    public func psql(_ connection: String, password: String, _ sql: String) throws -> Hrvmon.Result {
        let ran = try TestChild.run(
            Self.psql, ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", connection, "-c", sql], environment: ["PGPASSWORD": password, "PATH": "/usr/bin:/bin"])
        return Hrvmon.Result(status: ran.status, stdout: ran.text, stderr: ran.errors)
    }

    /// Idempotent: the script stops the server and removes its directory when its stdin closes.
    public func stop() {
        try? wrapperInput.close()
        let deadline = Date().addingTimeInterval(60)
        while wrapper.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        TestChild.terminate(wrapper, grace: 2)
        wrapperOutput.close()
    }

    private func answer(_ what: String, timeout: TimeInterval) throws -> String {
        try TestChild.nextLine(wrapperOutput, of: wrapper, before: Date().addingTimeInterval(timeout), what, log: self.log)
    }
}

extension PrivatePostgres {
    /// A new empty database for one test, so tests sharing the server do not see each other's study.
    public func newDatabase() throws -> String {
        let name = "study_" + UUID().uuidString.prefix(8).lowercased()
        let result = try psql(researcherConninfo("postgres"), password: researcherPassword, "CREATE DATABASE \(name)")
        guard result.status == 0 else { throw TestChild.Failure(description: "CREATE DATABASE: \(result.stderr)") }
        return name
    }

    /// The researcher's conninfo for psql.
    public func researcherConninfo(_ database: String) -> String {
        "host=localhost port=\(port) dbname=\(database) user=researcher sslmode=verify-full sslrootcert=\(caFile)"
    }

    /// psql as the researcher.
    public func researcherSQL(_ database: String, _ sql: String) throws -> Hrvmon.Result {
        try psql(researcherConninfo(database), password: researcherPassword, sql)
    }

    /// One server for a whole test process, started on first use; stopped when the process exits
    /// (the script stops it when its stdin closes).
    public static let shared = Result { try PrivatePostgres() }
}
