import Foundation
import TestSupport
import Testing

/// `make install` and `make uninstall` into a scratch DESTDIR, from the binary the tests run
/// (BINARY=, so the suite needs no static release build), and what they install.
@Suite(.serialized) struct InstallTests {
    static let repository = Repository.root.path

    struct Output {
        var status: Int32
        var text: String
    }

    /// Runs a tool to the end with stdout and stderr together.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String = repository) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, text: String(decoding: data, as: UTF8.self))
    }

    static func make(_ arguments: [String]) throws -> Output {
        try run("/usr/bin/make", ["--no-print-directory", "-C", repository] + arguments + ["BINARY=\(Hrvmon.executable.path)"])
    }

    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-install-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Every file and symbolic link under `root`, relative to it.
    static func files(under root: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            let type = (try? FileManager.default.attributesOfItem(atPath: root + "/" + path))?[.type] as? FileAttributeType
            if type != .typeDirectory { found.append(path) }
        }
        return found.sorted()
    }

    /// The manual pages in man/ (hrvmon.1 and one per command; ManualPageTests checks them).
    static func manualPages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository + "/man").filter { $0.hasSuffix(".1") }.sorted()
    }

    static func installed() throws -> [(path: String, mode: Int)] {
        let files = [
            ("usr/bin/hrvmon", 0o755),
            ("usr/lib/systemd/user/hrvmon.service", 0o644),
            ("usr/lib/systemd/user/hrvmon-checkin-reminder.service", 0o644),
            ("usr/lib/systemd/user/hrvmon-checkin-reminder.timer", 0o644),
            ("usr/lib/systemd/user/hrvmon-dass21-reminder.service", 0o644),
            ("usr/lib/systemd/user/hrvmon-dass21-reminder.timer", 0o644),
            ("usr/lib/udev/rules.d/90-hrvmon.rules", 0o644),
            ("usr/share/bash-completion/completions/hrvmon", 0o644),
            ("usr/share/fish/vendor_completions.d/hrvmon.fish", 0o644),
            ("usr/share/zsh/site-functions/_hrvmon", 0o644),
        ]
        return (files + (try manualPages()).map { ("usr/share/man/man1/" + $0, 0o644) }).sorted { $0.0 < $1.0 }
    }

    @Test func installsEveryFileThenUninstallLeavesNone() throws {
        let destination = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let install = try Self.make(["install", "DESTDIR=\(destination)", "PREFIX=/usr"])
        #expect(install.status == 0, "\(install.text)")
        #expect(!install.text.contains("Installed."), "no reload hint for a staged install")

        let installed = try Self.installed()
        #expect(Self.files(under: destination) == installed.map(\.path))
        for (path, mode) in installed {
            let attributes = try FileManager.default.attributesOfItem(atPath: destination + "/" + path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(path)")
            #expect((attributes[.size] as? Int ?? 0) > 0, "\(path) is empty")
        }

        let version = try Self.run(destination + "/usr/bin/hrvmon", ["--version"])
        #expect(version.status == 0)
        #expect(version.text == "0.1.0\n")

        let unit = try String(contentsOfFile: destination + "/usr/lib/systemd/user/hrvmon.service", encoding: .utf8)
        #expect(unit.contains("\nExecStart=/usr/bin/hrvmon monitor\n"))
        #expect(!unit.contains("@bindir@"), "every placeholder substituted")
        let pages = try Self.manualPages()
        #expect(pages.contains("hrvmon.1") && pages.contains("hrvmon-monitor.1"))
        for page in pages {
            let manual = try String(contentsOfFile: destination + "/usr/share/man/man1/" + page, encoding: .utf8)
            #expect(manual == (try String(contentsOfFile: Self.repository + "/man/" + page, encoding: .utf8)), "\(page)")
            // As `man` shows it: the page's name in its header, its sections, and no complaint.
            let shown = try Self.run("/usr/bin/man", ["-l", destination + "/usr/share/man/man1/" + page], environment: ["MANPAGER": "cat", "MANWIDTH": "80"])
            let title = page.dropLast(2).uppercased() + "(1)"
            #expect(shown.status == 0 && shown.text.hasPrefix(title) && shown.text.contains("EXIT STATUS"), "\(page): \(shown.text.prefix(300))")
        }
        let bash = try String(contentsOfFile: destination + "/usr/share/bash-completion/completions/hrvmon", encoding: .utf8)
        #expect(bash.contains("-F _hrvmon hrvmon\n") && bash.contains("doctor"))
        let zsh = try String(contentsOfFile: destination + "/usr/share/zsh/site-functions/_hrvmon", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef hrvmon"))
        let fish = try String(contentsOfFile: destination + "/usr/share/fish/vendor_completions.d/hrvmon.fish", encoding: .utf8)
        #expect(fish.contains("complete -c 'hrvmon'") && fish.contains("doctor"))

        let uninstall = try Self.make(["uninstall", "DESTDIR=\(destination)", "PREFIX=/usr"])
        #expect(uninstall.status == 0, "\(uninstall.text)")
        #expect(Self.files(under: destination).isEmpty)
    }

    @Test func installStripInstallsARunnableSmallerBinary() throws {
        let destination = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let install = try Self.make(["install-strip", "DESTDIR=\(destination)", "PREFIX=/usr"])
        #expect(install.status == 0, "\(install.text)")
        let size = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0 }
        #expect(size(destination + "/usr/bin/hrvmon") < size(Hrvmon.executable.path))
        #expect(try Self.run(destination + "/usr/bin/hrvmon", ["--version"]).text == "0.1.0\n")
    }

    @Test func installWithoutABinarySaysToBuildFirst() throws {
        let destination = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let install = try Self.run("/usr/bin/make", ["--no-print-directory", "-C", Self.repository, "install", "DESTDIR=\(destination)", "BINARY=\(destination)/missing"])
        #expect(install.status != 0)
        #expect(install.text.contains("no \(destination)/missing: run make first"))
        #expect(Self.files(under: destination).isEmpty)
    }

    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    /// The unit as installed, loaded by systemd's own parser as a user unit: any warning (an
    /// unknown key, a bad value, a missing executable) fails.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: systemdAnalyze)))
    func userUnitPassesSystemdAnalyzeVerify() throws {
        let prefix = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        // Installed for real under a scratch PREFIX, so ExecStart names an existing binary.
        let install = try Self.make(["install", "PREFIX=\(prefix)"])
        #expect(install.status == 0, "\(install.text)")
        #expect(install.text.contains("sudo udevadm control --reload"), "a live install says how to load the rule")
        let runtime = prefix + "/runtime"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let unit = prefix + "/lib/systemd/user/hrvmon.service"
        let verify = try Self.run(Self.systemdAnalyze, ["verify", "--user", "--man=no", unit], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(verify.status == 0, "\(verify.text)")
        #expect(verify.text.isEmpty, "\(verify.text)")
        #expect(try String(contentsOfFile: unit, encoding: .utf8).contains("\nExecStart=\(prefix)/bin/hrvmon monitor\n"))
        // The reminders' units, each timer with its service beside it.
        for reminder in ["hrvmon-checkin-reminder", "hrvmon-dass21-reminder"] {
            let units = ["service", "timer"].map { prefix + "/lib/systemd/user/\(reminder).\($0)" }
            let verified = try Self.run(Self.systemdAnalyze, ["verify", "--user", "--man=no"] + units, environment: ["XDG_RUNTIME_DIR": runtime])
            #expect(verified.status == 0 && verified.text.isEmpty, "\(reminder): \(verified.text)")
            #expect(try String(contentsOfFile: units[0], encoding: .utf8).contains("\nExecStart=\(prefix)/bin/hrvmon remind "))
        }

        // The checker is not lenient: the same unit with a misspelt key does not pass.
        let broken = prefix + "/broken/hrvmon.service"
        try FileManager.default.createDirectory(atPath: prefix + "/broken", withIntermediateDirectories: true)
        try String(contentsOfFile: unit, encoding: .utf8).replacingOccurrences(of: "RestartSec=", with: "RestartSecs=")
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let rejected = try Self.run(Self.systemdAnalyze, ["verify", "--user", "--man=no", broken], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(rejected.text.contains("Unknown key 'RestartSecs'"))
    }

    /// The quick start's demo command installs what building needs and nothing the tests use;
    /// the test command installs both.
    @Test func theDemoInstallsOnlyWhatBuildingNeeds() throws {
        let build = try Self.run("/bin/bash", ["scripts/install-deps.sh", "--list", "build"])
        let all = try Self.run("/bin/bash", ["scripts/install-deps.sh", "--list"])
        #expect(build.status == 0 && all.status == 0)
        let buildPackages = Set(build.text.split(whereSeparator: \.isWhitespace).map(String.init))
        let allPackages = Set(all.text.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(buildPackages == ["pkg-config", "libdbus-1-dev", "libbluetooth-dev", "libpq-dev", "zlib1g-dev"])
        #expect(allPackages.isSuperset(of: buildPackages.union(["chromium", "tmux", "dbus-daemon", "python3-dbus", "postgresql", "openssl"])))
        let demo = try String(contentsOfFile: Self.repository + "/scripts/demo.sh", encoding: .utf8)
        let installs = demo.split(separator: "\n").filter { $0.hasPrefix("scripts/install-deps.sh") }
        #expect(installs == ["scripts/install-deps.sh build"])
        let test = try String(contentsOfFile: Self.repository + "/scripts/test.sh", encoding: .utf8)
        // Each step timed (`step COMMAND`): the whole list, the whole suite.
        #expect(test.split(separator: "\n").contains("step scripts/install-deps.sh"))
        #expect(test.split(separator: "\n").contains("step scripts/run-tests.sh \"$@\""))
        let runner = try String(contentsOfFile: Self.repository + "/scripts/run-tests.sh", encoding: .utf8)
        #expect(runner.contains("swift test --skip-build --ignore-lock --disable-xctest"), "no empty XCTest run after the real one")
    }

    /// README's first command, off a terminal as in CI: a short, readable account (no series
    /// CSV, no line per event), the long outputs in files it names, and the next commands to try;
    /// a failing step fails it.
    @Test func theQuickStartDemoIsShortAndSaysWhatNext() throws {
        let result = try Self.run("/bin/bash", ["scripts/demo.sh"], environment: ["HRVMON": Hrvmon.executable.path])
        #expect(result.status == 0, "\(result.text)")
        let lines = result.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count < 50, "\(lines.count) lines")
        #expect(!result.text.contains("t_s,rr_ms"), "the series CSV goes to a file")
        #expect(lines.contains { $0.hasPrefix("   10:00  648 beats, 0 malformed notifications in 10 min 00 s") }, "the demo's summary")
        let done = try #require(lines.firstIndex { $0.hasPrefix("Done: ") }, "\(result.text)")
        let end = lines[done...].joined(separator: "\n")
        for file in ["demo.txt", "mitbih.txt", "scenario.txt", "scenario-series.csv"] {
            #expect(end.contains("  \(file) "), "\(file) named")
            #expect(FileManager.default.fileExists(atPath: Self.repository + "/.build/demo/" + file), "\(file) written")
        }
        #expect(end.contains("Next, try:") && end.contains(" demo ") && end.contains(" doctor ") && end.contains(" breathe "), "\(end)")
        let failed = try Self.run("/bin/bash", ["scripts/demo.sh"], environment: ["HRVMON": "/bin/false"])
        #expect(failed.status != 0 && !failed.text.contains("Done: "), "\(failed.text)")
    }
}
