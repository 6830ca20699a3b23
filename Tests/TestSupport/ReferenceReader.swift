import Foundation

/// The readers researchers open hrvmon's exports with — pyedflib, MNE, pandas, numpy, CPython's
/// gzip, bids-validator — run by ReferenceReaders/read_export.py, which prints what they read as JSON;
/// and NeuroKit2's simulated ECG with its R peaks (ReferenceReaders/ecg_reference.py).
/// scripts/install-python-readers.sh installs them (scripts/test.sh runs it).
public enum ReferenceReader {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the readers of `kind` (edf, bids, kubios, gzip) see in `path`.
    public static func read(_ kind: String, _ path: String) throws -> [String: Any] {
        try run("read_export", [kind, path])
    }

    /// NeuroKit2's ECG cases (all, or those named): each one's signal in µV at 130 Hz, its known
    /// R peaks and NeuroKit2's, as sample indices.
    public static func neuroKitECG(_ cases: [String] = []) throws -> [String: Any] {
        try run("ecg_reference", cases)
    }

    /// What ReferenceReaders/`script`.py prints (JSON) when run with `arguments`.
    public static func run(_ name: String, _ arguments: [String]) throws -> [String: Any] {
        let script = Bundle.module.url(forResource: name, withExtension: "py", subdirectory: "ReferenceReaders")!
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path] + arguments
        // bids-validator is installed under .build, as pylsl is (scripts/install-python-readers.sh).
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["PYTHONPATH": Repository.root.appendingPathComponent(".build/bids-validator").path]) { $1 }
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
