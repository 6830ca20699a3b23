import Foundation

/// Children of the tests (dbus-daemon, the Python fakes): started with pipes, read line by line
/// with deadlines, stopped with a grace period. A test may fail, never hang.
public enum TestChild {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A new directory /tmp/PREFIX.XXXXXX of the test's own.
    public static func temporaryDirectory(_ prefix: String) throws -> String {
        var template = Array("/tmp/\(prefix).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed: errno \(errno)") }
        return String(cString: made)
    }

    /// A child with pipes on stdin and stdout and its stderr appended to `log`.
    public static func spawn(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil, log: String
    ) throws -> (Process, FileHandle, LineReader) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try logHandle(log)
        try process.run()
        return (process, input.fileHandleForWriting, LineReader(output.fileHandleForReading))
    }

    /// The child's next line, or a failure naming `what` once it exits, closes its output or
    /// `deadline` passes.
    public static func nextLine(_ reader: LineReader, of process: Process, before deadline: Date, _ what: String, log: @autoclosure () -> String) throws -> String {
        while true {
            switch reader.readLine(before: min(deadline, Date().addingTimeInterval(0.2))) {
            case .line(let line):
                return line
            case .end:
                throw Failure(description: "\(what): output closed\n\(log())")
            case .timeout:
                if !process.isRunning { throw Failure(description: "\(what): exited\n\(log())") }
                if Date() >= deadline { throw Failure(description: "\(what): nothing within the deadline\n\(log())") }
            }
        }
    }

    /// What a tool run to its end wrote, and its exit status.
    public struct ToolResult {
        public var status: Int32
        public var output: Data
        public var errors: String

        /// The standard output as text.
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// A system tool (gzip, sha256sum, mandoc, psql) run to its end, its standard output and error
    /// apart. `input`, when given, is fed to its standard input from another thread, so a tool
    /// that writes before it has read everything cannot deadlock against us; without it the tool
    /// reads /dev/null. `environment`: the tool's whole environment instead of the test's.
    public static func run(_ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String]? = nil) throws -> ToolResult {
        // A tool that exits before reading all of its input makes the write fail with EPIPE, not
        // kill the test process.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : standardInput
        try process.run()
        let fed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            defer { fed.signal() }
            guard let input else { return }
            try? standardInput.fileHandleForWriting.write(contentsOf: input)
            try? standardInput.fileHandleForWriting.close()
        }
        let (outputData, errorData) = collect(process, output: output, errors: errors)
        fed.wait()
        return ToolResult(status: process.terminationStatus, output: outputData, errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Everything a started child writes on `output` and `errors` until it exits, both pipes
    /// drained at once so a large output on either cannot block it.
    public static func collect(_ process: Process, output: Pipe, errors: Pipe) -> (output: Data, errors: Data) {
        nonisolated(unsafe) var errorData = Data()
        let drained = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return (outputData, errorData)
    }

    /// SIGTERM, wait up to `grace` seconds, then SIGKILL and wait briefly.
    public static func terminate(_ process: Process, grace: TimeInterval) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        var deadline = Date().addingTimeInterval(grace)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
    }

    public static func logHandle(_ path: String) throws -> FileHandle {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw Failure(description: "cannot open \(path)")
        }
        handle.seekToEndOfFile()
        return handle
    }

    public static func send(_ text: String, to fd: Int32) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot write to a child of the tests: errno \(errno)")
            }
            bytes = bytes.dropFirst(written)
        }
    }
}

/// Lines from a pipe, read with poll(2) and a deadline; never waits for end of file.
public final class LineReader {
    public enum Result { case line(String), end, timeout }

    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var ended = false
    private var closed = false

    public init(_ handle: FileHandle) { self.handle = handle }

    public func readLine(before deadline: Date) -> Result {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return .line(line)
            }
            if ended || closed { return .end }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return .timeout }
            var entry = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining * 1000, 1000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                ended = true
                continue
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                ended = true
            }
        }
    }

    public func close() {
        guard !closed else { return }
        closed = true
        try? handle.close()
    }
}
