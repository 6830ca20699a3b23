import Foundation

/// A real terminal: a detached tmux session the tests type into and read back.
struct Terminal {
    let name = "hrvmon-test-\(UUID().uuidString.prefix(8))"

    init(width: Int = 100, height: Int = 12) throws {
        // This may start the tmux server, which keeps the client's stdout: give it no pipe to hold open.
        try Self.tmux(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height)], capturingOutput: false)
    }

    func type(_ text: String, enter: Bool = true) throws {
        try Self.tmux(["send-keys", "-t", name, "-l", text])
        if enter { try Self.tmux(["send-keys", "-t", name, "Enter"]) }
    }

    func key(_ name: String) throws {
        try Self.tmux(["send-keys", "-t", self.name, name])
    }

    var screen: String { (try? Self.tmux(["capture-pane", "-p", "-t", name])) ?? "" }

    /// tmux's own view of whether the cursor is shown.
    var cursorVisible: Bool { (try? Self.tmux(["display-message", "-p", "-t", name, "#{cursor_flag}"]))?.hasPrefix("1") ?? false }

    /// Polls the screen until `condition` holds or `timeout` passes.
    func wait(timeout: Double = 10, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(screen) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition(screen)
    }

    func close() {
        _ = try? Self.tmux(["kill-session", "-t", name])
    }

    /// A server of the tests' own, so neither the user's tmux nor its configuration is touched.
    private static let socket = "hrvmon-tests-\(getpid())"

    @discardableResult
    static func tmux(_ arguments: [String], capturingOutput: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-L", socket, "-f", "/dev/null"] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard capturingOutput else {
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return ""
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
