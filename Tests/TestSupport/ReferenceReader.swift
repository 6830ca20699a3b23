import Foundation

/// The readers researchers open hrvmon's exports with — pyedflib, MNE, pandas, numpy, CPython's
/// gzip, bids-validator — run by ReferenceReaders/read_export.py, which prints what they read as JSON.
/// scripts/install-python-readers.sh installs them (scripts/test.sh runs it).
public enum ReferenceReader {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the readers of `kind` (edf, bids, kubios, gzip) see in `path`.
    public static func read(_ kind: String, _ path: String) throws -> [String: Any] {
        try run("read_export", [kind, path])
    }

    /// What ReferenceReaders/`script`.py prints (JSON) when run with `arguments`.
    public static func run(_ name: String, _ arguments: [String]) throws -> [String: Any] {
        let script = Bundle.module.url(forResource: name, withExtension: "py", subdirectory: "ReferenceReaders")!
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        // bids-validator and NeuroKit2 are installed under .build, as pylsl is (scripts/install-python-readers.sh).
        let installed = [".build/bids-validator", ".build/neurokit2"].map { Repository.root.appendingPathComponent($0).path }
        process.environment = ProcessInfo.processInfo.environment.merging(["PYTHONPATH": installed.joined(separator: ":")]) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (data, errorData) = TestChild.collect(process, output: output, errors: errors)
        guard process.terminationStatus == 0, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure(description: """
                \(name).py \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus)); \
                scripts/install-python-readers.sh installs its readers:
                \(String(decoding: errorData, as: UTF8.self))
                """)
        }
        return object
    }
}
