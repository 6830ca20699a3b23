import Foundation
import TestSupport
import Testing

/// The manual pages in man/, written by hand in mdoc: hrvmon(1) and one page per command, as git
/// has (a nested command such as `baseline add` is on its parent's page). They are checked
/// against the commands the binary has (`--experimental-dump-help`), so a new, renamed or removed
/// command or option fails here until its page says so.
@Suite struct ManualPageTests {
    static let directory = Repository.root.path + "/man"

    /// A command as the binary describes itself: its words after `hrvmon` and its option names
    /// (`--format`, `-o`).
    struct Command {
        var path: [String]
        var options: Set<String>
        var subcommands: [Command]

        /// hrvmon.1 for the program, hrvmon-NAME.1 for a command and for the commands under it.
        var page: String { path.isEmpty ? "hrvmon.1" : "hrvmon-\(path[0]).1" }

        /// `--help` and `--version` are on every command; hrvmon(1) documents them once.
        var documentedOptions: Set<String> { path.isEmpty ? options : options.subtracting(["-h", "--help", "--version"]) }

        var all: [Command] { [self] + subcommands.flatMap(\.all) }
    }

    static func command(_ json: [String: Any], path: [String]) -> Command {
        let options = (json["arguments"] as? [[String: Any]] ?? []).flatMap { argument in
            (argument["names"] as? [[String: Any]] ?? []).compactMap { name -> String? in
                guard let text = name["name"] as? String else { return nil }
                return name["kind"] as? String == "short" ? "-" + text : "--" + text
            }
        }
        // `help` is swift-argument-parser's own command, not hrvmon's.
        let subcommands = (json["subcommands"] as? [[String: Any]] ?? []).filter { $0["commandName"] as? String != "help" }
        return Command(
            path: path, options: Set(options),
            subcommands: subcommands.map { command($0, path: path + [$0["commandName"] as? String ?? ""]) })
    }

    static func program() throws -> Command {
        let dump = try Hrvmon.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let json = try #require((try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])?["command"] as? [String: Any])
        return command(json, path: [])
    }

    /// The pages' commands: each page with the commands it documents.
    static func pages() throws -> [String: [Command]] {
        Dictionary(grouping: try program().all, by: \.page)
    }

    static func text(of page: String) throws -> String {
        try String(contentsOfFile: directory + "/" + page, encoding: .utf8)
    }

    /// The lines of section `name` (`.Sh name` up to the next `.Sh`).
    static func section(_ name: String, of text: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == ".Sh \(name)" }) else { return [] }
        let rest = lines[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix(".Sh ") })
    }

    /// The options a line of mdoc names with `Fl`: `.It Fl o , -output Ar path` names -o and --output.
    static func flags(in line: Substring) -> [String] {
        var found: [String] = []
        var inFlags = false
        for word in line.split(separator: " ") {
            if word == "Fl" {
                inFlags = true
            } else if word.first?.isUppercase == true && word.count <= 3 && word.allSatisfy(\.isLetter) {
                inFlags = false  // another macro: Ar, Op, Ns...
            } else if inFlags && word != "," && word != "|" {
                found.append("-" + word)
            }
        }
        return found
    }

    @Test func everyCommandHasAPageAndEveryPageACommand() throws {
        let pages = try Self.pages()
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.directory).filter { $0.hasSuffix(".1") }
        #expect(Set(files) == Set(pages.keys), "man/ holds \(files.sorted()); the commands need \(pages.keys.sorted())")
        #expect(pages.count > 10)
    }

    @Test func optionsSectionsNameExactlyTheCommandsOptions() throws {
        for (page, commands) in try Self.pages() {
            let expected = commands.reduce(into: Set<String>()) { $0.formUnion($1.documentedOptions) }
            let items = Self.section("OPTIONS", of: try Self.text(of: page)).filter { $0.hasPrefix(".It Fl ") }
            let documented = Set(items.flatMap(Self.flags))
            #expect(expected.subtracting(documented).isEmpty, "\(page) lacks \(expected.subtracting(documented).sorted())")
            #expect(documented.subtracting(expected).isEmpty, "\(page) documents options its command lacks: \(documented.subtracting(expected).sorted())")
        }
    }

    /// No page names an option (`Fl`) that no command has, in any section.
    @Test func everyOptionAPageMentionsExists() throws {
        let program = try Self.program()
        let existing = program.all.reduce(into: Set<String>()) { $0.formUnion($1.options) }
        for page in try Self.pages().keys {
            let mentioned = Set(try Self.text(of: page).split(separator: "\n").filter { $0.hasPrefix(".") }.flatMap(Self.flags))
            #expect(mentioned.subtracting(existing).isEmpty, "\(page) mentions \(mentioned.subtracting(existing).sorted())")
        }
    }

    @Test func everyPageHasTheSectionsOfAManual() throws {
        for (page, commands) in try Self.pages() {
            let text = try Self.text(of: page)
            let name = String(page.dropLast(2))
            #expect(text.contains("\n.Dt \(name.uppercased()) 1\n"), "\(page)")
            #expect(Self.section("NAME", of: text).first == ".Nm \(name)", "\(page)")
            var required = ["NAME", "SYNOPSIS", "DESCRIPTION", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]
            if commands.contains(where: { !$0.documentedOptions.isEmpty }) { required.append("OPTIONS") }
            for section in required {
                #expect(!Self.section(section, of: text).isEmpty, "\(page) has no \(section) section")
            }
            let status = Self.section("EXIT STATUS", of: text).joined(separator: "\n")
            for code in ["0", "1", "2"] {
                #expect(status.contains(".It \(code)\n"), "\(page): EXIT STATUS does not say what \(code) means")
            }
        }
    }

    /// Every command line in EXAMPLES (`.Dl hrvmon ...`, also after a pipe) runs an existing
    /// command with options it has.
    @Test func examplesUseExistingCommandsAndOptions() throws {
        let program = try Self.program()
        for page in try Self.pages().keys {
            let lines = Self.section("EXAMPLES", of: try Self.text(of: page)).filter { $0.hasPrefix(".Dl ") }
            #expect(!lines.isEmpty, "\(page) has no example command line")
            for line in lines {
                for segment in line.dropFirst(4).components(separatedBy: " | ") {
                    var words = segment.split(separator: " ").map(String.init)[...]
                    guard words.first == "hrvmon" else { continue }
                    words = words.dropFirst()
                    var command = program
                    while let word = words.first, let next = command.subcommands.first(where: { $0.path.last == word }) {
                        command = next
                        words = words.dropFirst()
                    }
                    #expect(!command.path.isEmpty || words.first?.hasPrefix("-") == true, "\(page): no command in '\(line)'")
                    for word in words where word.hasPrefix("-") && word.count > 1 && !word.hasPrefix("-\\") {
                        let option = String(word.prefix { $0 != "=" })
                        #expect(command.options.contains(option), "\(page): \(command.path.joined(separator: " ")) has no \(option) ('\(line)')")
                    }
                }
            }
        }
    }

    /// Every `.Xr hrvmon...` names a page there is.
    @Test func crossReferencesNameExistingPages() throws {
        let pages = try Self.pages().keys
        for page in pages {
            for line in try Self.text(of: page).split(separator: "\n") where line.hasPrefix(".Xr hrvmon") {
                let words = line.split(separator: " ")
                #expect(words.count >= 3 && pages.contains("\(words[1]).\(words[2])"), "\(page): \(line)")
            }
        }
    }

    /// mandoc's strictest check (scripts/install-deps.sh installs mandoc) says nothing but that
    /// a page referenced is not installed on this machine: hrvmon's own before `make install`
    /// (crossReferencesNameExistingPages checks those), bluetoothctl(1) without bluez. Its note
    /// on standard error that the system's page index is out of date is not about the pages.
    @Test func mandocLintIsSilent() throws {
        let pages = try Self.pages().keys.sorted().map { Self.directory + "/" + $0 }
        let lint = try TestChild.run("/usr/bin/mandoc", ["-T", "lint"] + pages)
        let messages = lint.text.split(separator: "\n").filter { !$0.contains(": STYLE: referenced manual not found: Xr ") }
        #expect(messages.isEmpty, "\(messages.joined(separator: "\n"))")
        let errors = lint.errors.split(separator: "\n").filter { !$0.hasPrefix("mandoc: outdated mandoc.db lacks ") }
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    }

    /// groff's mdoc macros render every page without a warning (groff-base).
    @Test func groffRendersWithoutWarnings() throws {
        for page in try Self.pages().keys.sorted() {
            let render = try TestChild.run("/usr/bin/groff", ["-mandoc", "-Tutf8", "-ww", "-z", Self.directory + "/" + page])
            #expect(render.status == 0 && render.output.isEmpty && render.errors.isEmpty, "\(page): \(render.errors)")
        }
    }
}
