import Foundation

/// A real terminal: a detached tmux session the tests type into and read back.
public struct TmuxTerminal {
    public let name = "hrvmon-test-\(UUID().uuidString.prefix(8))"

    public init(width: Int = 100, height: Int = 12) throws {
        // Two tests starting the process's first sessions at once race to start its tmux server,
        // and the loser's new-session fails (seen in CI with the suites in three processes): try
        // again once the server is up.
        var attempt = 1
        while true {
            do {
                try Self.startSession(["new-session", "-d", "-s", name, "-x", String(width), "-y", String(height)])
                return
            } catch where attempt < 3 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    public func type(_ text: String, enter: Bool = true) throws {
        try Self.tmux(["send-keys", "-t", name, "-l", text])
        if enter { try Self.tmux(["send-keys", "-t", name, "Enter"]) }
    }

    public func key(_ name: String) throws {
        try Self.tmux(["send-keys", "-t", self.name, name])
    }

    public var screen: String { (try? Self.tmux(["capture-pane", "-p", "-t", name])) ?? "" }

    /// The screen with its colours and attributes as escape sequences.
    public var styledScreen: String { (try? Self.tmux(["capture-pane", "-p", "-e", "-t", name])) ?? "" }

    /// tmux's own view of whether the cursor is shown.
    public var cursorVisible: Bool { (try? Self.tmux(["display-message", "-p", "-t", name, "#{cursor_flag}"]))?.hasPrefix("1") ?? false }

    /// Whether the program in the pane has switched to the alternate screen.
    public var alternateScreen: Bool { (try? Self.tmux(["display-message", "-p", "-t", name, "#{alternate_on}"]))?.hasPrefix("1") ?? false }

    /// Resizes the window, as dragging the terminal's corner does (the program gets SIGWINCH).
    public func resize(width: Int, height: Int) throws {
        try Self.tmux(["resize-window", "-t", name, "-x", String(width), "-y", String(height)])
    }

    /// Polls the screen until `condition` holds or `timeout` passes.
    public func wait(timeout: Double = 10, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(screen) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return condition(screen)
    }

    public func close() {
        _ = try? Self.tmux(["kill-session", "-t", name])
    }

    /// A server of the tests' own, so neither the user's tmux nor its configuration is touched.
    private static let socket = "hrvmon-tests-\(getpid())"

    private static func command(_ arguments: [String]) -> [String] {
        ["/usr/bin/tmux", "-L", socket, "-f", "/dev/null"] + arguments
    }

    /// `new-session` may fork the tmux server, which lives on and keeps every descriptor the
    /// client had. Foundation's Process watches a child through such a descriptor (and tests'
    /// pipes may be open too), so a server started by it makes `waitUntilExit` — or a read to
    /// EOF — wait forever. Spawn it directly with every descriptor above stderr closed instead.
    private static func startSession(_ arguments: [String]) throws {
        let argv = command(arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // glibc has no closefrom action in Swift's view; closing an fd that is gone by then is not an error.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw POSIXError(.EIO) }
    }

    @discardableResult
    public static func tmux(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = Array(command(arguments).dropFirst())
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
