import Foundation

/// The real `hrvmon` binary running against the fake bluetoothd, its stdout read line by line.
/// Every wait has a deadline: a test may fail, never hang.
public final class LiveProcess: @unchecked Sendable {
    public let process = Process()
    private let lock = NSLock()
    private var lines: [String] = []
    private var errorText = ""
    private var cursor = 0
    /// Stdout's reader saw its end.
    private var finished = false
    /// Stderr's reader saw its end (only then is `stderr` the whole text).
    private var errorsFinished = false

    /// `home`: run in another process's home (its data, config and runtime directories), which
    /// that process keeps; by default a fresh one, removed with this process.
    public init(_ arguments: [String], environment: [String: String], settings: String = LiveProcess.fastLink, home shared: String? = nil) throws {
        let home = shared ?? Hrvmon.freshHome()
        ownsHome = shared == nil
        if shared == nil {
            try FileManager.default.createDirectory(atPath: home + "/config/hrvmon", withIntermediateDirectories: true)
            try settings.write(toFile: home + "/config/hrvmon/config", atomically: true, encoding: .utf8)
        }
        process.executableURL = Hrvmon.executable
        process.arguments = arguments
        process.environment = Hrvmon.environment(home: home, merging: environment)
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        self.home = home
        try process.run()
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lock.withLock { lines.append(line) }
                }
            }
            lock.withLock { finished = true }
        }
        Thread.detachNewThread { [self] in
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            lock.withLock {
                errorText = String(decoding: data, as: UTF8.self)
                errorsFinished = true
            }
        }
    }

    public let home: String
    private let ownsHome: Bool

    /// Short delays so faults resolve within a test's patience, and the longest watchdog: on a
    /// busy machine a test's own pause between two steps (or after its last notification) can
    /// pass a short watchdog's period, and the stall it reports adds a gap the test did not ask
    /// for. The watchdog's own tests shorten it with `fastLink(watchdog:)`.
    public static let fastLink = fastLink(watchdog: 300)

    public static func fastLink(watchdog seconds: Int) -> String {
        """
        link.reconnect_initial_seconds = 0.2
        link.reconnect_max_seconds = 1
        link.watchdog_seconds = \(seconds)
        link.resolve_timeout_seconds = 5
        """
    }

    public var allLines: [String] { lock.withLock { lines } }
    public var stderr: String { lock.withLock { errorText } }

    /// All JSON lines so far.
    public var objects: [[String: Any]] { allLines.compactMap(Self.parse) }

    public static func parse(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// The next JSON line (after the last one returned) that satisfies `condition`.
    public func next(timeout: Double = 10, where condition: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            let (found, exhausted): ([String: Any]?, Bool) = lock.withLock {
                while cursor < lines.count {
                    defer { cursor += 1 }
                    if let object = Self.parse(lines[cursor]), condition(object) { return (object, false) }
                }
                return (nil, finished)
            }
            if let found { return found }
            if exhausted { return nil }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return nil
    }

    /// The next `link` line with this state.
    public func link(_ state: String, timeout: Double = 10) -> [String: Any]? {
        next(timeout: timeout) { $0["type"] as? String == "link" && $0["state"] as? String == state }
    }

    /// The `rr_1024` values of every beat line so far, in order.
    public var beats: [Int] {
        objects.filter { $0["type"] as? String == "rr" }.compactMap { $0["rr_1024"] as? Int }
    }

    /// Waits until a line (of any format) satisfies `condition`.
    public func waitForLine(timeout: Double = 10, where condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !allLines.contains(where: condition) {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    /// Waits until `count` beats have been printed.
    public func waitForBeats(_ count: Int, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if beats.count >= count { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return beats.count >= count
    }

    public func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// The exit status, or nil if the process is still running after `timeout`.
    public func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard !process.isRunning else { return nil }
        // Let both reader threads see the end of their pipes: a test reads stderr right after.
        let drained = Date().addingTimeInterval(2)
        while !lock.withLock({ finished && errorsFinished }) && Date() < drained { Thread.sleep(forTimeInterval: 0.01) }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
        if ownsHome { try? FileManager.default.removeItem(atPath: home) }
    }
}
