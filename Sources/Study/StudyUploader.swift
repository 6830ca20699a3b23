import Platform
import SessionLog
import StudyDatabase
import UserData

/// Sends a session to the study while it is recorded (`monitor`, `check`, `resonance`), on the
/// session's own event loop: libpq's socket is one more descriptor of that loop, and every
/// statement is asynchronous, so a beat is never delayed by the server. It reads what the
/// session recorder wrote to the file (the file is written first and stays the source of truth),
/// every `interval` seconds, and sends what is new in batches; when the server is away it tries
/// again with back-off, and whatever it could not send `study sync` sends later.
public final class StudyUploader {
    /// Seconds between reads of the file: beats reach the server within about this.
    public static let interval = 10.0
    /// The first wait after a failure, doubled after each until `longestWait`.
    static let firstWait = 2.0
    static let longestWait = 300.0
    /// A statement that gets no answer in this long (a network partition) counts as lost.
    static let statementTimeout = 60.0

    private let parameters: ConnectionParameters
    private let loop: EventLoop
    private let id: String
    private let tail: SessionTail
    private let interval: Double
    private let sendsBeats: Bool
    private let selfReports: StudySelfReports.Categories
    /// Times and the session's id as the server is sent them.
    private let shift: TimeShift
    /// Check-ins, answers to "Was that stress?", notes and events the server has confirmed (stored now or before).
    private var selfReportsSent = StudySelfReports.Sent()
    private var connection: DatabaseConnection?
    /// The server's last sequence number of this session; nil until asked on this connection.
    private var mark: Int?
    /// The highest sequence number the server has confirmed, kept across reconnections.
    private var confirmed = -1
    /// The session has ended: its file is whole, its last line (the summary) read too.
    private var ended = false
    /// How far the server was told the session was recorded (its gaps are measured to it).
    private var reportedUntil = -Double.infinity
    private var wait = StudyUploader.firstWait
    private var working = false
    private var timer: EventLoop.Timer?
    private var finishing: (() -> Void)?
    /// Beats the server stored from this process.
    public private(set) var beatsSent = 0
    /// Why the last attempt failed; nil after a success.
    public private(set) var lastFailure: DatabaseFailure?

    /// An uploader for the session recorded at `path` in the sessions directory; nil when this
    /// user takes part in no study, or sends none of its categories (rr, checkins, notes, events),
    /// or the file is elsewhere (`--log`: `study sync` does not send it either).
    public static func forSession(at path: String, loop: EventLoop, interval: Double = StudyUploader.interval) throws(StudyFailure) -> StudyUploader? {
        guard path.hasPrefix(SessionStore.directory + "/"), let membership = try Membership.load(),
            membership.categories.contains("rr") || StudySelfReports.Categories(membership.categories).any
        else {
            return nil
        }
        let invite = try Membership.loadInvite()
        let parameters = try studyConnection(invite.connection, password: invite.password, caFile: Membership.caFile)
        return StudyUploader(
            parameters: parameters, path: path, loop: loop, interval: interval,
            sendsBeats: membership.categories.contains("rr"), selfReports: StudySelfReports.Categories(membership.categories),
            shift: membership.timeShift)
    }

    init(
        parameters: ConnectionParameters, path: String, loop: EventLoop, interval: Double, sendsBeats: Bool,
        selfReports: StudySelfReports.Categories, shift: TimeShift
    ) {
        self.parameters = parameters
        self.sendsBeats = sendsBeats
        self.selfReports = selfReports
        self.shift = shift
        self.loop = loop
        self.interval = interval
        id = SessionStore.id(of: path)
        tail = SessionTail(path: path)
    }

    /// Starts sending; the first read is one interval away (the session's header comes first).
    public func start() { schedule(after: interval) }

    /// At the session's end (its summary written, the loop no longer running): sends what is
    /// left when the server is connected, waiting at most `seconds`; a server that is away is not
    /// waited for.
    public func finish(within seconds: Double = 5) {
        timer?.cancel()
        ended = true
        guard connection != nil else { return }
        _ = loop.wait { (done: @escaping (Bool) -> Void) in
            let deadline = loop.schedule(after: seconds) { done(false) }
            finishing = {
                deadline.cancel()
                done(true)
            }
            if !working { step() }
        }
        finishing = nil
        timer?.cancel()
        connection = nil
    }

    /// Beats recorded that the server has not confirmed.
    public var beatsWaiting: Int { tail.file?.beats.reduce(0) { $0 + ($1.sequence > confirmed ? 1 : 0) } ?? 0 }

    private func schedule(after seconds: Double) {
        timer?.cancel()
        timer = loop.schedule(after: seconds) { [weak self] in self?.step() }
    }

    /// One turn: connect, learn the server's mark, read the file, send the next batch; each
    /// answer continues the turn, and it ends waiting for the next interval or for a retry.
    private func step() {
        guard !working else { return }
        guard let connection else { return open() }
        guard let mark else {
            return run(StudyStatements.mark(session: id, shift: shift), on: connection) { [weak self] result in
                guard let self else { return }
                self.mark = Int(result.single ?? "")
                confirmed = max(confirmed, self.mark ?? -1)
                step()
            }
        }
        do { try tail.read(toTheEnd: ended) } catch {
            // A damaged file is left to `study sync`, which says so; nothing more is sent from it.
            timer?.cancel()
            return finished()
        }
        let first = sendsBeats ? tail.file?.beats.firstIndex { $0.sequence > mark } : nil
        guard let file = tail.file, first != nil || (sendsBeats && StudyStatements.recordedUntil(file) > reportedUntil) else {
            return sendSelfReports()
        }
        run(StudyStatements.session(id, file, shift: shift), on: connection) { [weak self] _ in
            // Not the connection captured above: a closure it holds must not hold it.
            guard let self, let connection = self.connection else { return }
            reportedUntil = StudyStatements.recordedUntil(file)
            guard let first else { return step() }
            let batch = file.beats[first..<min(first + StudySync.batchSize, file.beats.count)]
            run(StudyStatements.beats(batch, session: id, shift: shift), on: connection) { [weak self] result in
                guard let self else { return }
                beatsSent += result.affected
                self.mark = batch.last!.sequence
                confirmed = max(confirmed, batch.last!.sequence)
                // The sent state is a cache for `show`; the server's rows decide, so a failure to
                // write it is not a reason to stop sending.
                try? SentState.record(id, lastSequence: batch.last!.sequence, isComplete: file.summary != nil && batch.endIndex == file.beats.count)
                step()
            }
        }
    }

    /// Its check-ins, answers, notes and events the server has not confirmed, after its beats; then the turn ends.
    private func sendSelfReports() {
        let waiting = tail.file.map { StudySelfReports(id, $0, selfReports, sent: selfReportsSent) }
        guard let connection, let file = tail.file, let waiting, !waiting.isEmpty else {
            finished()
            return schedule(after: interval)
        }
        run(waiting.shifted(by: shift).statement, on: connection) { [weak self] _ in
            self?.selfReportsSent = StudySelfReports.Sent(file)
            self?.step()
        }
    }

    /// The session is sent as far as it is recorded (or cannot be sent now): a `finish` waiting ends.
    private func finished() { finishing?() }

    private func open() {
        working = true
        DatabaseConnection.open(parameters, on: loop) { [weak self] result in
            guard let self else { return }
            working = false
            switch result {
            case .success(let opened):
                connection = opened
                step()
            case .failure(let failure): fail(failure)
            }
        }
    }

    /// Runs `statement`; on its answer `next`, on a failure (or no answer in time) the connection
    /// is dropped and the turn retried after the wait.
    private func run(_ statement: (String, [String?]), on connection: DatabaseConnection, next: @escaping (QueryResult) -> Void) {
        working = true
        var answered = false
        let deadline = loop.schedule(after: Self.statementTimeout) { [weak self] in
            guard !answered else { return }
            answered = true
            self?.working = false
            self?.fail(DatabaseFailure(.lost, "no answer within \(Int(Self.statementTimeout)) s"))
        }
        connection.execute(statement.0, statement.1) { [weak self] result in
            guard !answered, let self else { return }
            answered = true
            deadline.cancel()
            working = false
            switch result {
            case .success(let answer):
                lastFailure = nil
                wait = Self.firstWait
                next(answer)
            case .failure(let failure): fail(failure)
            }
        }
    }

    private func fail(_ failure: DatabaseFailure) {
        lastFailure = failure
        connection = nil
        mark = nil
        finished()
        schedule(after: wait)
        wait = min(wait * 2, Self.longestWait)
    }
}

/// A session file read as it grows: each `read` feeds what was appended since the last.
final class SessionTail {
    private let path: String
    private var input: InputFile?
    private var lines: SessionFileReader.Lines
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)

    init(path: String) {
        self.path = path
        lines = SessionFileReader.Lines(source: path, detail: .beats, following: true)
    }

    private var whole: SessionFile?

    /// The session as far as it has been read; nil before its header.
    var file: SessionFile? { whole ?? lines.soFar }

    /// Reads what was appended (each whole line at once: `following`); `toTheEnd`: the file is
    /// complete, so a last line cut short is one (`tornLine`), not one still being written.
    func read(toTheEnd: Bool) throws {
        if input == nil { input = try InputFile(opening: path) }
        while case let count = try input!.read(into: &buffer), count > 0 {
            try buffer.withUnsafeBufferPointer { try lines.feed(UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
        if toTheEnd, whole == nil {
            var finishing = lines
            whole = try finishing.finish()
        }
    }
}
