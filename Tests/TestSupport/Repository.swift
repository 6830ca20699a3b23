import Foundation

/// The repository's own files that tests check (README and docs/, scripts, udev rules, the fuzz corpora),
/// as they are in the working tree; test data lives in the bundle (`Fixture`).
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
