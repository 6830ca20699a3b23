import CPostgres
import Platform

/// One libpq connection driven by Platform's poll(2) loop through libpq's asynchronous API: the
/// connection is made with `PQconnectStartParams`/`PQconnectPoll`, each statement is sent with
/// `PQsendQueryParams` and its results read with `PQconsumeInput`/`PQisBusy`/`PQgetResult` when
/// `PQsocket` is readable. Nothing blocks and no thread is started, so a live session on the same
/// loop is never delayed by the server. One statement at a time.
public final class DatabaseConnection {
    public typealias Completion<Value> = (Result<Value, DatabaseFailure>) -> Void

    private let connection: OpaquePointer
    private let loop: EventLoop
    private var source: EventLoop.Source?
    private var deadline: EventLoop.Timer?

    private init(connection: OpaquePointer, loop: EventLoop) {
        self.connection = connection
        self.loop = loop
    }

    deinit {
        source?.cancel()
        deadline?.cancel()
        PQfinish(connection)
    }

    /// Connects without blocking; `completion` runs on `loop` once connected or refused, or after
    /// `timeout` seconds without an answer.
    public static func open(
        _ parameters: ConnectionParameters, on loop: EventLoop, timeout: Double = 20, completion: @escaping Completion<DatabaseConnection>
    ) {
        let keywords = parameters.values.map(\.0) + ["client_encoding", "application_name"]
        let values = parameters.values.map(\.1) + ["UTF8", "hrvmon"]
        let started = withCStrings(keywords) { keywords in withCStrings(values) { values in PQconnectStartParams(keywords, values, 0) } }
        guard let started else { return completion(.failure(DatabaseFailure(.unreachable, "out of memory"))) }
        let opened = DatabaseConnection(connection: started, loop: loop)
        guard PQstatus(started) != CONNECTION_BAD else {
            return completion(.failure(DatabaseFailure.connecting(opened.errorMessage)))
        }
        // The server's errors with their SQLSTATE, so that a refused credential is told apart.
        PQsetErrorVerbosity(started, PQERRORS_VERBOSE)
        // The timer and the socket's handler hold the connection until it is made or refused.
        opened.deadline = loop.schedule(after: timeout) {
            opened.finishConnecting(.failure(DatabaseFailure(.unreachable, "no answer within \(Int(timeout)) s")), completion)
        }
        opened.awaitConnecting(PGRES_POLLING_WRITING, completion)
    }

    /// The server's host, port and database, as libpq resolved them.
    public var host: String { PQhost(connection).map { String(cString: $0) } ?? "" }
    public var port: String { PQport(connection).map { String(cString: $0) } ?? "" }
    public var database: String { PQdb(connection).map { String(cString: $0) } ?? "" }
    public var user: String { PQuser(connection).map { String(cString: $0) } ?? "" }
    /// The TLS protocol in use (`TLSv1.3`), nil without TLS.
    public var tlsProtocol: String? { PQsslAttribute(connection, "protocol").map { String(cString: $0) } }

    /// Runs one statement with its parameters (text, nil for NULL) in its own implicit
    /// transaction: it is committed whole or not at all. Without parameters, `statement` may be
    /// several separated by `;` (`PQsendQuery`), which run as one implicit transaction.
    public func execute(_ statement: String, _ parameters: [String?] = [], completion: @escaping Completion<QueryResult>) {
        let sent =
            parameters.isEmpty
            ? PQsendQuery(connection, statement)
            : withOptionalCStrings(parameters) { values in
                PQsendQueryParams(connection, statement, Int32(parameters.count), nil, values, nil, nil, 0)
            }
        guard sent == 1 else { return completion(.failure(DatabaseFailure(.lost, DatabaseFailure.firstLine(errorMessage)))) }
        flushThenRead(completion)
    }

    /// A SCRAM-SHA-256 verifier of `password` for `user`, made here so that the password itself is
    /// never sent to the server nor written in its log.
    public func scramVerifier(password: String, user: String) -> String? {
        guard let verifier = PQencryptPasswordConn(connection, password, user, "scram-sha-256") else { return nil }
        defer { PQfreemem(verifier) }
        return String(cString: verifier)
    }

    /// `text` as an SQL string literal, quoted for this connection.
    public func literal(_ text: String) -> String {
        guard let quoted = PQescapeLiteral(connection, text, text.utf8.count) else { return "''" }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    private var errorMessage: String { PQerrorMessage(connection).map { String(cString: $0) } ?? "" }

    private func awaitConnecting(_ state: PostgresPollingStatusType, _ completion: @escaping Completion<DatabaseConnection>) {
        // libpq may open a new socket between steps (another address of the host), so each step
        // watches the socket it names now.
        let events = state == PGRES_POLLING_WRITING ? EventLoop.writable : EventLoop.readable
        source?.cancel()
        source = loop.watch(PQsocket(connection), events: events) { _ in
            self.source?.cancel()
            switch PQconnectPoll(self.connection) {
            case PGRES_POLLING_OK:
                PQsetErrorVerbosity(self.connection, PQERRORS_DEFAULT)
                if PQsetnonblocking(self.connection, 1) != 0 {
                    self.finishConnecting(.failure(DatabaseFailure(.lost, DatabaseFailure.firstLine(self.errorMessage))), completion)
                } else {
                    self.finishConnecting(.success(self), completion)
                }
            case PGRES_POLLING_FAILED: self.finishConnecting(.failure(DatabaseFailure.connecting(self.errorMessage)), completion)
            case let next: self.awaitConnecting(next, completion)
            }
        }
    }

    private func finishConnecting(_ result: Result<DatabaseConnection, DatabaseFailure>, _ completion: Completion<DatabaseConnection>) {
        guard deadline != nil else { return }  // already finished (the timer and the socket can race)
        deadline?.cancel()
        deadline = nil
        source?.cancel()
        source = nil  // its handler held this connection while connecting
        completion(result)
    }

    /// Sends what libpq still holds (`PQflush`), then reads the results.
    private func flushThenRead(_ completion: @escaping Completion<QueryResult>) {
        switch PQflush(connection) {
        case 0: awaitResults(completion)
        case 1:
            source?.cancel()
            source = loop.watch(PQsocket(connection), events: EventLoop.readable | EventLoop.writable) { [weak self] returned in
                guard let self else { return }
                self.source?.cancel()
                if returned & EventLoop.readable != 0, PQconsumeInput(self.connection) == 0 {
                    return completion(.failure(DatabaseFailure(.lost, DatabaseFailure.firstLine(self.errorMessage))))
                }
                self.flushThenRead(completion)
            }
        default: completion(.failure(DatabaseFailure(.lost, DatabaseFailure.firstLine(errorMessage))))
        }
    }

    private func awaitResults(_ completion: @escaping Completion<QueryResult>) {
        var outcome: Result<QueryResult, DatabaseFailure>?
        source?.cancel()
        source = loop.watch(PQsocket(connection)) { [weak self] _ in
            guard let self else { return }
            guard PQconsumeInput(self.connection) == 1 else {
                self.source?.cancel()
                return completion(.failure(DatabaseFailure(.lost, DatabaseFailure.firstLine(self.errorMessage))))
            }
            while PQisBusy(self.connection) == 0 {
                guard let result = PQgetResult(self.connection) else {
                    self.source?.cancel()
                    return completion(outcome ?? .failure(DatabaseFailure(.lost, "no result")))
                }
                // The first failure stands; later results of the same statement do not hide it.
                if case .failure = outcome {} else { outcome = QueryResult.read(result) }
                PQclear(result)
            }
        }
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings that live as long as the call.
func withCStrings<Value>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Value) -> Value {
    withOptionalCStrings(strings) { body($0!) }
}

func withOptionalCStrings<Value>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>?) -> Value) -> Value {
    // One buffer of NUL-terminated strings and pointers into it: no C allocation to free.
    var storage: [CChar] = []
    var offsets: [Int?] = []
    for string in strings {
        offsets.append(string.map { _ in storage.count })
        if let string { storage += string.utf8CString }
    }
    return storage.withUnsafeBufferPointer { characters in
        let pointers = offsets.map { $0.map { UnsafePointer(characters.baseAddress! + $0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress) }
    }
}
