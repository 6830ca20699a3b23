import Foundation
import TestSupport
import Testing

/// Negative numbers given to numeric options: `--speed -5` is refused by the option's own rule,
/// exactly as `--speed=-5` is, never as a missing value. Every numeric option of every command is
/// found from the program itself (its `--experimental-dump-help`), so a new one cannot escape.
@Suite struct OptionParsingTests {
    /// Makes a run stop at parsing, whatever the value did: nothing starts, however valid.
    static let unknown = "--no-such-option-for-this-test"

    struct Option: CustomStringConvertible {
        var command: [String]
        var name: String
        var description: String { (command + ["--" + name]).joined(separator: " ") }
    }

    /// Every option that takes a value, with the command (and subcommand) it belongs to.
    static func options() throws -> [Option] {
        let dump = try Hrvmon.run(["--experimental-dump-help"])
        let root = try #require(dump.json?["command"] as? [String: Any], "\(dump.stderr)")
        var found: [Option] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                guard let name = (argument["preferredName"] as? [String: Any])?["name"] as? String,
                    (argument["allValues"] as? [String] ?? []).isEmpty
                else { continue }
                found.append(Option(command: path, name: name))
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] { walk(sub, path + [sub["commandName"] as! String]) }
        }
        walk(root, [])
        return found
    }

    /// Numeric: a value that is no number is refused while parsing (a text option takes it, and
    /// the run stops at the unknown option instead).
    static func isNumeric(_ option: Option) throws -> Bool {
        let result = try Hrvmon.run(option.command + ["--\(option.name)=abc", unknown])
        return result.stderr.contains("The value 'abc' is invalid for '--\(option.name)")
    }

    @Test func everyNumericOptionTakesANegativeValue() throws {
        let numeric = try Self.options().filter(Self.isNumeric)
        // The discovery works: the options of the issue, and options of shared groups in each command.
        let names = Set(numeric.map(\.description))
        for expected in ["demo --speed", "analyze --rmssd-window", "sessions --days", "monitor --scan-timeout", "check --scan-timeout", "resonance --step-minutes"] {
            #expect(names.contains(expected), "\(expected) not found among \(names.sorted())")
        }
        #expect(numeric.count >= 25, "\(names.sorted())")
        for option in numeric {
            let spaced = try Hrvmon.run(option.command + ["--\(option.name)", "-5", Self.unknown])
            let joined = try Hrvmon.run(option.command + ["--\(option.name)=-5", Self.unknown])
            #expect(!spaced.stderr.contains("Missing value"), "\(option): \(spaced.stderr)")
            #expect(spaced.status == joined.status && spaced.stderr == joined.stderr, "\(option) -5: \(spaced.stderr)\nbut =-5: \(joined.stderr)")
        }
    }

    /// The cases whole: the option's own rule, as with `=`.
    @Test func negativeValuesMeetTheOptionsRule() throws {
        let cases: [([String], String)] = [
            (["demo", "--speed", "-5"], "--speed must be above 0"),
            (["analyze", "x.txt", "--rmssd-window", "-5"], "--rmssd-window must be 5–3600 seconds"),
            (["sessions", "--days", "-1"], "--days must be 1 or more"),
        ]
        for (arguments, rule) in cases {
            let result = try Hrvmon.run(arguments)
            #expect(result.status == 2 && result.stderr.contains(rule), "\(arguments): \(result.stderr)")
        }
    }

    /// `--log PATH` in a directory that does not exist: every command that takes it exits 2 before
    /// its session starts, saying which directory and what to do (it used to run, keeping no file).
    @Test func aLogInADirectoryThatDoesNotExistIsBadInput() throws {
        let commands = try Self.options().filter { $0.name == "log" }.map(\.command)
        for expected in [["demo"], ["monitor"], ["resonance"]] { #expect(commands.contains(expected), "\(expected) not among \(commands)") }
        let home = Hrvmon.freshHome()
        let path = home + "/no-such-directory/session.jsonl"
        for command in commands {
            // --demo and a short --duration: a run that got past the check would finish, not wait for a strap.
            let extra = command == ["resonance"] ? ["--demo"] : command == ["demo"] ? ["--speed", "1000", "--duration", "5"] : []
            let result = try Hrvmon.run(command + extra + ["--log", path], environment: ["XDG_DATA_HOME": home + "/data"])
            #expect(result.status == 2, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("--log \(path): the directory \(home)/no-such-directory does not exist; create it first"), "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command) started: \(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: home + "/no-such-directory"))
    }
}
