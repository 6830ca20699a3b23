import Foundation
import Testing

/// Debian's Chromium, headless: loads a page from a file, keeps a screenshot, returns the page's
/// DOM and every console message. It runs under `timeout` (which signals Chromium's whole
/// process group), with a profile of its own and its output going to files, so it can never hang
/// a test or leave a pipe open.
public enum HeadlessChromium {
    public struct Page {
        public var status: Int32
        /// The DOM after loading, serialised.
        public var dom: String
        /// Console messages (errors included): a page without scripts should have none.
        public var console: [String]
        public var log: String
    }

    /// Where screenshots are kept after the run: `.build/test-artifacts`.
    public static let artifacts = Repository.root.appendingPathComponent(".build/test-artifacts").path

    public static var executable: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin"] {
            for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }

    public static func render(_ page: String, screenshot: String, width: Int = 1280, height: Int) throws -> Page {
        let chromium = try #require(
            executable, "chromium is not installed: the report tests render pages in it (scripts/install-deps.sh installs it; or apt-get install chromium)")
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-chromium-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createDirectory(atPath: (screenshot as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: screenshot)
        for file in ["/dom.html", "/log.txt"] { _ = FileManager.default.createFile(atPath: scratch + file, contents: nil) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [
            "--kill-after=5", "60", chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--force-device-scale-factor=1",
            "--user-data-dir=\(scratch)/profile", "--window-size=\(width),\(height)", "--screenshot=\(screenshot)", "--dump-dom",
            "--enable-logging=stderr", "--v=0", URL(fileURLWithPath: page).absoluteString,
        ]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/dom.html"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch + "/log.txt"))
        try process.run()
        // timeout ends it within 65 s; this deadline only guards against timeout itself hanging.
        let deadline = Date().addingTimeInterval(90)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let log = (try? String(contentsOfFile: scratch + "/log.txt", encoding: .utf8)) ?? ""
        return Page(
            status: process.terminationStatus,
            dom: (try? String(contentsOfFile: scratch + "/dom.html", encoding: .utf8)) ?? "",
            console: log.split(separator: "\n").filter { $0.contains(":CONSOLE") || $0.contains("Uncaught") }.map(String.init),
            log: log)
    }

    /// Size of a PNG from its header, or nil when the file is not a PNG.
    public static func pngSize(_ path: String) -> (width: Int, height: Int)? {
        guard let data = FileManager.default.contents(atPath: path), data.count > 24,
              data.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        else { return nil }
        func integer(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (integer(16), integer(20))
    }
}
