import HeartRateProtocol
import LivePipeline
import Platform
import SessionLog
import Settings

/// Keeps the session file: the lines `SessionFileLines` keeps of the events, each appended and written before the next
/// notification is processed, synced to the disk within `log.sync_seconds` and at the end. A
/// failed write is reported, never silent; the file is then left as it is (a later append
/// could land after a torn line) and the session goes on, or stops (`log.on_error`).
public final class SessionRecorder: SessionOutput {
    public let path: String
    private var descriptor: Int32
    private var header: SessionHeader
    private var headerWritten = false
    /// Lines that came before the header could be written (the sensor is not known yet).
    private var pending: [String] = []
    /// What of the events goes into the file (format version 2).
    private var lines = SessionFileLines()
    private let syncInterval: Double
    private let stopsOnError: Bool
    private let now: () -> Double
    private let schedule: (Double, @escaping () -> Void) -> Void
    private var unsyncedSince: Double?
    private var syncScheduled = false
    /// Called once when writing fails, with a message for the user; `stop` tells whether the
    /// session should end.
    public var onFailure: (_ message: String, _ stop: Bool) -> Void = { _, _ in }
    public private(set) var failed = false
    /// Compresses the file once the session has ended and it is synced (`SessionStore.compress`);
    /// nil leaves it as written (`--log PATH`).
    public var compress: ((String) -> FileOpenError?)?

    /// `now` is a monotonic clock; `schedule` runs a closure after a delay on the event loop
    /// (syncs are timed only while unsynced data waits, so an idle session does not wake).
    public init(
        descriptor: Int32, path: String, header: SessionHeader, settings: Settings.Log,
        now: @escaping () -> Double, schedule: @escaping (Double, @escaping () -> Void) -> Void
    ) {
        self.descriptor = descriptor
        self.path = path
        self.header = header
        syncInterval = settings.syncSeconds
        stopsOnError = settings.stopsOnError
        self.now = now
        self.schedule = schedule
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        if case .sensor(.identity(let name, let address)) = event, !headerWritten {
            header.deviceName = name
            header.deviceAddress = address
            writeHeader()
        }
        guard let text = lines.line(for: event, at: time, line: &line) else { return }
        if headerWritten {
            append(text)
        } else if case .live = event {
            writeHeader()
            append(text)
        } else {
            pending.append(text)
        }
    }

    /// The notification's line, on disk before the pipeline has made anything of it (and before
    /// stdout or the dashboard shows its beats).
    public func notificationArrived(_ measurement: HeartRateMeasurement, at time: Double) {
        if !headerWritten { writeHeader() }
        append(lines.packet(measurement, at: time))
    }

    /// The ECG's lines, written every two seconds of samples.
    public func ecgArrived(_ samples: ECGSamples) {
        let text = lines.ecg(samples)
        guard !text.isEmpty else { return }
        if headerWritten { append(text) } else { pending.append(text) }
    }

    public func finish(_ summary: SessionSummary) {
        if !headerWritten { writeHeader() }
        append(lines.finish() + SessionRecords.summary(summary).serialized + "\n")
        sync()
        if descriptor >= 0 { Descriptor.close(descriptor) }
        descriptor = -1
        guard !failed, let compress else { return }
        if let failure = compress(path) { onFailure("the session file \(path) stays uncompressed: \(failure)", false) }
    }

    private func writeHeader() {
        headerWritten = true
        append(SessionRecords.header(header).serialized + "\n")
        for line in pending { append(line) }
        pending = []
    }

    private func append(_ line: String) {
        guard !failed, descriptor >= 0 else { return }
        var line = line
        if let error = line.withUTF8({ FileStream.writeAll(UnsafeRawBufferPointer($0), to: descriptor) }) {
            return fail(error.description)
        }
        let now = now()
        if let since = unsyncedSince {
            if now - since >= syncInterval { sync() }
        } else {
            unsyncedSince = now
            scheduleSync()
        }
    }

    /// A one-shot timer for the tail: a session that goes quiet is still on disk soon after.
    private func scheduleSync() {
        guard !syncScheduled else { return }
        syncScheduled = true
        schedule(syncInterval) { [weak self] in
            guard let self else { return }
            syncScheduled = false
            if unsyncedSince != nil { sync() }
        }
    }

    private func sync() {
        guard !failed, descriptor >= 0, unsyncedSince != nil else { return }
        unsyncedSince = nil
        if let error = FileStream.sync(descriptor) { fail(error.description) }
    }

    private func fail(_ reason: String) {
        failed = true
        let outcome = stopsOnError ? "stopping (log.on_error = stop)" : "monitoring goes on without it (log.on_error = warn)"
        onFailure("cannot write the session log \(path): \(reason); \(outcome)", stopsOnError)
    }
}
