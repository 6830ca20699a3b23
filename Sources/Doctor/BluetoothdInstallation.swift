import FoundationEssentials
import Platform

/// Where bluetoothd is installed and which version it says it is.
public enum BluetoothdInstallation: Equatable {
    /// `version` is nil when `bluetoothd --version` did not print one.
    case found(path: String, version: String?)
    case notFound

    /// Debian, Fedora and Ubuntu: /usr/libexec/bluetooth (Debian links /usr/sbin/bluetoothd to
    /// it); Arch: /usr/lib/bluetooth.
    public static let searchPaths = ["/usr/libexec/bluetooth/bluetoothd", "/usr/sbin/bluetoothd", "/usr/lib/bluetooth/bluetoothd"]

    /// Runs the first bluetoothd found with `--version`, which prints the version and exits
    /// before touching the bus or the adapters, so any user may run it.
    public static func find() -> BluetoothdInstallation {
        guard let path = searchPaths.first(where: { FileSystem.isAllowed($0, .execute) }) else { return .notFound }
        return .found(path: path, version: ChildProcess.output(of: path, ["--version"], timeout: 2).flatMap(version))
    }

    /// `5.66` from `5.66\n`; nil for anything that is not a dotted version number.
    public static func version(_ output: String) -> String? {
        let line = output.split(separator: "\n").first.map { $0.trimming(.spaces) } ?? ""
        let parts = line.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        return line
    }

    /// Process IDs of running bluetoothd processes, from /proc (`root` for tests): how doctor
    /// tells "not running" from "running but unreachable" when the bus is down.
    public static func runningProcesses(root: String = "/proc") -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return entries.compactMap(Int32.init).sorted().filter { pid in
            (try? InputFile.read("\(root)/\(pid)/comm")).map { String(decoding: $0, as: UTF8.self) } == "bluetoothd\n"
        }
    }
}
