import Platform

/// Writes a finished report: to standard output for `-`; otherwise whole or not at all (a
/// temporary file in the same directory, synced, then renamed over the path, so an interrupted
/// run never leaves half a page or destroys the previous one), 0600 because it holds health data.
public enum ReportFile {
    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): cannot write the report: \(reason)" }

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    public static func write(_ text: String, to path: String) throws(Failure) {
        let bytes = Array(text.utf8)
        let failure = path == "-" ? bytes.withUnsafeBytes { FileStream.writeAll($0, to: FileStream.standardOutput.descriptor) } : AtomicFile.write(bytes, to: path)
        if let failure { throw Failure(path: path == "-" ? "standard output" : path, reason: failure.description) }
    }
}
