import Foundation

/// Runs the real `hrvmon` binary built next to the test bundle.
public enum Hrvmon {
    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        public var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(stdout.utf8))) as? [String: Any]
        }
    }

    public static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("hrvmon")
    }

    /// A new, empty home for one run: no user's configuration, baseline or session leaks into a test.
    public static func freshHome() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-home-\(UUID().uuidString)").path
    }

    /// The environment of a run in `home`: its config, data and runtime directories are there.
    public static func environment(home: String, merging extra: [String: String]) -> [String: String] {
        let isolated = [
            "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_RUNTIME_DIR": home + "/runtime", "HOME": home,
        ]
        return ProcessInfo.processInfo.environment.merging(isolated) { $1 }.merging(extra) { $1 }
    }

    /// `stdout`: a file to write standard output to instead of capturing it (e.g. /dev/full).
    public static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], directory: URL? = nil,
        stdout: String? = nil
    ) throws -> Result {
        // A command that exits before reading all of its input (bad input is refused at once)
        // must fail its test, not kill the test process with SIGPIPE as we write the rest (the
        // write then fails with EPIPE, below).
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.environment = Self.environment(home: freshHome(), merging: environment)
        let output = Pipe()
        let errors = Pipe()
        let input = Pipe()
        if let stdout {
            guard let file = FileHandle(forWritingAtPath: stdout) else { throw CocoaError(.fileNoSuchFile) }
            process.standardOutput = file
            try? output.fileHandleForWriting.close()
        } else {
            process.standardOutput = output
        }
        process.standardError = errors
        process.standardInput = input
        try process.run()
        // Fed from another thread, so a command that writes before it has read everything
        // cannot deadlock against us.
        let writer = input.fileHandleForWriting
        let fed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            defer { fed.signal() }
            // The throwing write: a command that has already exited makes it fail with EPIPE,
            // which the non-throwing `write(_:)` turns into a fatal error of the test process.
            if let stdin { try? writer.write(contentsOf: Data(stdin.utf8)) }
            try? writer.close()
        }
        let (outputData, errorData) = TestChild.collect(process, output: output, errors: errors)
        // Nothing of this run may still be writing when the test goes on.
        try? input.fileHandleForReading.close()
        fed.wait()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outputData, as: UTF8.self),
            stderr: String(decoding: errorData, as: UTF8.self))
    }

    public static func temporaryFile(_ contents: String, name: String = "input.txt") throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url
    }
}
