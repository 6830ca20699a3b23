import Platform
import StudyDatabase

/// Why a study command could not do its work: bad input (exit 2: a refused URI or invite, a
/// database holding something else, a category not offered) or a failure of the server or of a
/// file (exit 1).
public enum StudyFailure: Error, CustomStringConvertible {
    case badInput(String)
    case database(DatabaseFailure)
    case file(String)

    public var isBadInput: Bool {
        switch self {
        case .badInput: true
        case .database(let failure): failure.kind == .tlsRequired
        case .file: false
        }
    }

    public var description: String {
        switch self {
        case .badInput(let reason), .file(let reason): reason
        case .database(let failure): failure.description
        }
    }
}

/// A session with the study's database, its failures as `StudyFailure`.
func connect(_ parameters: ConnectionParameters, on loop: Platform.EventLoop) throws(StudyFailure) -> DatabaseSession {
    do { return try DatabaseSession.connect(parameters, on: loop) } catch { throw .database(error) }
}

extension DatabaseSession {
    @discardableResult
    func query(_ statement: String, _ parameters: [String?] = []) throws(StudyFailure) -> QueryResult {
        do { return try run(statement, parameters) } catch { throw .database(error) }
    }
}

/// The connection a command was given, refused when it asks for less than TLS with verification.
public func studyConnection(_ uri: String, password: String? = nil, caFile: String? = nil) throws(StudyFailure) -> ConnectionParameters {
    do { return try ConnectionParameters(uri, password: password, caFile: caFile) } catch { throw .badInput(error.description) }
}
