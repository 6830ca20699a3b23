import Foundation

/// One of the fake desktop services of Tests/TestSupport/FakeDesktop (python3-dbus scripts sharing
/// desktop_service.py) as a child process: started and waited for until it prints "ready", told
/// lines on its stdin, its stdout read a line at a time, stopped. Every wait has a deadline.
final class FakeDesktopService {
    let logPath: String
    private let name: String
    private var process: Process?
    private var input: FileHandle?
    private var output: LineReader?

    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs `script` (a file of FakeDesktop, without ".py") with `arguments`, its stderr to `logPath`.
    init(_ script: String, _ arguments: [String], named name: String, log logPath: String, timeout: TimeInterval) throws {
        self.name = name
        self.logPath = logPath
        let path = Bundle.module.url(forResource: script, withExtension: "py", subdirectory: "FakeDesktop")!.path
        var environment = ProcessInfo.processInfo.environment
        for key in ["PYTHONHOME", "PYTHONPATH", "PYTHONSTARTUP"] { environment[key] = nil }
        let (process, input, output) = try TestChild.spawn(FakeBluetooth.python, [path] + arguments, environment: environment, log: logPath)
        (self.process, self.input, self.output) = (process, input, output)
        do {
            let line = try TestChild.nextLine(output, of: process, before: Date().addingTimeInterval(timeout), "\(name) starting", log: log)
            guard line == "ready" else { throw TestChild.Failure(description: "the \(name) printed '\(line)'\n\(log)") }
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    func tell(_ line: String) throws {
        guard let input else { throw TestChild.Failure(description: "no \(name) runs") }
        try input.write(contentsOf: Data("\(line)\n".utf8))
    }

    /// The lines printed so far and within `timeout` more seconds that `keep` turns into values,
    /// until `count` have come.
    func lines<Value>(_ count: Int, timeout: Double, _ keep: (String) -> Value?) -> [Value] {
        guard let process, let output else { return [] }
        var values: [Value] = []
        let deadline = Date().addingTimeInterval(timeout)
        while values.count < count, Date() < deadline,
            let line = try? TestChild.nextLine(output, of: process, before: deadline, "\(name) output", log: "")
        {
            if let value = keep(line) { values.append(value) }
        }
        return values
    }

    /// Idempotent.
    func stop() {
        if let process { TestChild.terminate(process, grace: 2) }
        try? input?.close()
        output?.close()
        process = nil
        input = nil
        output = nil
    }
}
