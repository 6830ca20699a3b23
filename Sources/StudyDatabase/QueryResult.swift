import CPostgres

/// A statement's rows as text (NULL as nil) and how many rows it changed.
public struct QueryResult: Sendable, Equatable {
    public var columns: [String]
    public var rows: [[String?]]
    /// `INSERT`/`UPDATE`/`DELETE`'s row count (`PQcmdTuples`); 0 for other statements.
    public var affected: Int

    public init(columns: [String] = [], rows: [[String?]] = [], affected: Int = 0) {
        self.columns = columns
        self.rows = rows
        self.affected = affected
    }

    /// The first row's first value.
    public var single: String? { rows.first?.first ?? nil }

    /// `row`'s value in `column`.
    public func value(_ column: String, row: Int) -> String? {
        columns.firstIndex(of: column).flatMap { rows[row][$0] }
    }

    static func read(_ result: OpaquePointer) -> Result<QueryResult, DatabaseFailure> {
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            let columnCount = PQnfields(result)
            let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
            let rows = (0..<PQntuples(result)).map { row in
                (0..<columnCount).map { column in
                    PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
                }
            }
            let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
            return .success(QueryResult(columns: columns, rows: rows, affected: affected))
        default:
            let field = { (code: Int32) in PQresultErrorField(result, code).map { String(cString: $0) } }
            let sqlState = field(Int32(UInt8(ascii: "C"))) ?? "?????"
            let message = field(Int32(UInt8(ascii: "M"))) ?? String(cString: PQresultErrorMessage(result))
            // Class 08 is the connection's, 57P0x the server's shutdown: the statement was not
            // committed because the server went away, not because it was refused.
            let lost = sqlState.hasPrefix("08") || sqlState.hasPrefix("57P0") || sqlState == "?????"
            return .failure(DatabaseFailure(lost ? .lost : .refused(sqlState: sqlState), DatabaseFailure.firstLine(message)))
        }
    }
}
