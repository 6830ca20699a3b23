import Platform

/// A connection for a command that asks one thing at a time: each call runs the event loop until
/// its answer (or failure) arrives. The loop is the program's one poll(2) loop, so a caller on it
/// could keep serving other descriptors; `DatabaseConnection` is the asynchronous API beneath.
public final class DatabaseSession {
    public let connection: DatabaseConnection
    private let loop: EventLoop

    private init(connection: DatabaseConnection, loop: EventLoop) {
        self.connection = connection
        self.loop = loop
    }

    public static func connect(_ parameters: ConnectionParameters, on loop: EventLoop) throws(DatabaseFailure) -> DatabaseSession {
        let opened = loop.wait { DatabaseConnection.open(parameters, on: loop, completion: $0) }
        return DatabaseSession(connection: try opened.get(), loop: loop)
    }

    /// One statement, committed whole or not at all.
    @discardableResult
    public func run(_ statement: String, _ parameters: [String?] = []) throws(DatabaseFailure) -> QueryResult {
        try loop.wait { connection.execute(statement, parameters, completion: $0) }.get()
    }
}
