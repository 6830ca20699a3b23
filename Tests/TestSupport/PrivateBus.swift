import Foundation

/// A private dbus-daemon, by default with Tests/TestSupport/FakeBlueZ/bus.conf (anyone may own any name and
/// call anything), standing in for the system or the session bus. Gone with `stop()`, and with the
/// test process if that dies first.
public final class PrivateBus: @unchecked Sendable {
    public static let directory = Bundle.module.url(forResource: "FakeBlueZ", withExtension: nil)!

    /// The bus address, as dbus-daemon printed it.
    public private(set) var address = ""
    public let logPath: String
    private let wrapper: Process
    private let wrapperInput: FileHandle
    private let wrapperOutput: LineReader
    private var pid: pid_t = 0

    /// Listens on the Unix socket `socket` with the policy `configuration` (a file in
    /// Tests/TestSupport/FakeBlueZ); returns once the daemon printed its address.
    public init(socket: String, log: String, configuration: String = "bus.conf", timeout: TimeInterval = 10) throws {
        let configuration = Self.directory.appendingPathComponent(configuration).path
        guard FileManager.default.fileExists(atPath: configuration) else {
            throw TestChild.Failure(description: "missing \(configuration)")
        }
        logPath = log
        // The shell prints dbus-daemon's pid and kills it when our end of its stdin closes, so a
        // test process that dies without stop() does not leave a bus behind.
        let script = """
            dbus-daemon --config-file="$1" --nofork --print-address=1 --address="$2" </dev/null &
            echo "pid $!"
            read _ignored
            kill -9 $! 2>/dev/null
            """
        (wrapper, wrapperInput, wrapperOutput) = try TestChild.spawn(
            "/bin/sh", ["-c", script, "sh", configuration, "unix:path=\(socket)"], log: log)
        let deadline = Date().addingTimeInterval(timeout)
        do {
            while address.isEmpty || pid == 0 {
                let line = try TestChild.nextLine(wrapperOutput, of: wrapper, before: deadline, "dbus-daemon starting", log: self.log)
                if line.hasPrefix("pid "), let number = pid_t(line.dropFirst(4)) { pid = number }
                if line.hasPrefix("unix:") { address = line }
            }
        } catch {
            stop()
            throw error
        }
    }

    public var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Idempotent.
    public func stop() {
        // A throwaway bus: SIGKILL, because children of a Swift test inherit a signal mask that
        // blocks SIGTERM and dbus-daemon does not unblock it.
        if pid > 0 { kill(pid, SIGKILL) }
        pid = 0
        try? wrapperInput.close()  // the wrapper shell exits when its stdin closes
        TestChild.terminate(wrapper, grace: 2)
        wrapperOutput.close()
    }
}
