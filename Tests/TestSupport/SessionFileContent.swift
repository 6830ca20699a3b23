import Foundation

/// A session file's lines as hrvmon reads them: a closed session in the sessions directory is
/// `ID.jsonl.gz`, decompressed here by gzip itself (not by hrvmon's reader, which is under test).
public enum SessionFileContent {
    public static func data(_ path: String) throws -> Data {
        guard path.hasSuffix(".gz") else { return try Data(contentsOf: URL(fileURLWithPath: path)) }
        return try TestChild.run("/bin/gzip", ["-dc", path]).output
    }

    public static func text(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self)
    }
}
