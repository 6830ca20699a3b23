import Foundation
import Testing

/// udev/90-hrvmon.rules: its syntax (udev(7): comma-separated `KEY[{attribute}]OPERATOR"value"`),
/// and what it does. `udevadm verify` arrived in systemd 254, after Debian 12's 252, so the syntax
/// is checked by the parser below, and by udevadm as well where it has `verify`.
@Suite struct UdevRulesTests {
    static let path = InstallTests.repository + "/udev/90-hrvmon.rules"

    struct Token: Equatable {
        var key: String
        var attribute: String?
        var operation: String
        var value: String
    }

    struct SyntaxError: Error, CustomStringConvertible {
        var description: String
    }

    // udev(7) of systemd 252: which keys match, which assign, which take {attribute}.
    static let matchOnly: Set = ["ACTION", "DEVPATH", "KERNEL", "KERNELS", "SUBSYSTEM", "SUBSYSTEMS", "DRIVER", "DRIVERS", "ATTRS", "TAGS", "TEST", "PROGRAM", "RESULT", "CONST"]
    static let matchOrAssign: Set = ["NAME", "SYMLINK", "ATTR", "SYSCTL", "ENV", "TAG"]
    static let assignOnly: Set = ["OWNER", "GROUP", "MODE", "SECLABEL", "RUN", "LABEL", "GOTO", "IMPORT", "OPTIONS"]
    static let needAttribute: Set = ["ATTR", "ATTRS", "SYSCTL", "ENV", "CONST", "SECLABEL", "IMPORT"]
    static let mayHaveAttribute: Set = ["TEST", "RUN"]

    /// The rules of a file: one per line (a trailing backslash continues it), comments and blank
    /// lines skipped; each token checked against udev's keys and operators.
    static func parse(_ text: String) throws -> [[Token]] {
        var rules: [[Token]] = []
        var pending = ""
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = pending + rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasSuffix("\\") {
                line.removeLast()
                pending = line
                continue
            }
            pending = ""
            if line.isEmpty || line.hasPrefix("#") { continue }
            do {
                rules.append(try parseRule(line))
            } catch {
                throw SyntaxError(description: "line \(number + 1): \(error)")
            }
        }
        return rules
    }

    static func parseRule(_ line: String) throws -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(line)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }
            if !tokens.isEmpty {
                guard rest.first == "," else { throw SyntaxError(description: "expected ',' before '\(rest)'") }
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            }
            let key = String(rest.prefix { $0.isUppercase || $0 == "_" })
            guard !key.isEmpty else { throw SyntaxError(description: "expected a key at '\(rest)'") }
            rest = rest.dropFirst(key.count)
            var attribute: String?
            if rest.first == "{" {
                guard let close = rest.firstIndex(of: "}") else { throw SyntaxError(description: "unclosed { after \(key)") }
                attribute = String(rest[rest.index(after: rest.startIndex)..<close])
                rest = rest[rest.index(after: close)...]
            }
            guard let operation = ["==", "!=", "+=", "-=", ":=", "="].first(where: { rest.hasPrefix($0) }) else {
                throw SyntaxError(description: "expected an operator after \(key)")
            }
            rest = rest.dropFirst(operation.count)
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else {
                throw SyntaxError(description: "the value of \(key) must be in double quotes")
            }
            let value = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            let token = Token(key: key, attribute: attribute, operation: operation, value: value)
            try validate(token)
            tokens.append(token)
        }
        return tokens
    }

    static func validate(_ token: Token) throws {
        let isMatch = token.operation == "==" || token.operation == "!="
        switch token.key {
        case _ where matchOnly.contains(token.key):
            guard isMatch else { throw SyntaxError(description: "\(token.key) only matches (== or !=), not \(token.operation)") }
        case _ where assignOnly.contains(token.key):
            guard !isMatch else { throw SyntaxError(description: "\(token.key) only assigns, not \(token.operation)") }
            if token.key == "LABEL" || token.key == "GOTO" {
                guard token.operation == "=" else { throw SyntaxError(description: "\(token.key) takes =") }
            }
        case _ where matchOrAssign.contains(token.key):
            break
        default:
            throw SyntaxError(description: "unknown key \(token.key)")
        }
        if needAttribute.contains(token.key) {
            guard token.attribute?.isEmpty == false else { throw SyntaxError(description: "\(token.key) needs {attribute}") }
        } else if !mayHaveAttribute.contains(token.key) {
            guard token.attribute == nil else { throw SyntaxError(description: "\(token.key) takes no {attribute}") }
        }
    }

    @Test func ruleFileParses() throws {
        let rules = try Self.parse(try String(contentsOfFile: Self.path, encoding: .utf8))
        #expect(rules.count == 1)
    }

    /// Adapters (type "host"), not their connections; tags and wants are added with +=, so the
    /// systemd tag and the bluetooth.target wants of 99-systemd.rules are kept.
    @Test func ruleStartsTheUserServiceForAdapters() throws {
        let rule = try #require(try Self.parse(try String(contentsOfFile: Self.path, encoding: .utf8)).first)
        #expect(rule.contains(Token(key: "ACTION", operation: "!=", value: "remove")))
        #expect(rule.contains(Token(key: "SUBSYSTEM", operation: "==", value: "bluetooth")))
        #expect(rule.contains(Token(key: "ENV", attribute: "DEVTYPE", operation: "==", value: "host")))
        #expect(rule.contains(Token(key: "TAG", operation: "+=", value: "systemd")))
        #expect(rule.contains(Token(key: "ENV", attribute: "SYSTEMD_USER_WANTS", operation: "+=", value: "hrvmon.service")))
        #expect(rule.count == 5)
    }

    @Test func parserRejectsWhatUdevRejects() {
        for bad in [
            #"SUBSYSTEM="bluetooth""#,             // a match key assigned
            #"TAG=+"systemd""#,                    // no such operator
            #"SUBSYSTEM==bluetooth"#,              // unquoted
            #"SUBSYSTEM=="bluetooth" TAG+="x""#,   // missing comma
            #"ENV=="host""#,                       // ENV without {name}
            #"DEVTYPE=="host""#,                   // not a key (ENV{DEVTYPE} is)
            #"RUN=="x""#,                          // RUN only assigns
        ] {
            #expect(throws: SyntaxError.self, "\(bad)") { try Self.parseRule(bad) }
        }
        #expect(throws: Never.self) { try Self.parseRule(#"KERNEL=="hci[0-9]*", RUN{program}+="/bin/true", GOTO="end""#) }
    }

    static let udevadm = ["/usr/bin/udevadm", "/bin/udevadm"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static var udevadmVerifies: Bool {
        guard let udevadm else { return false }
        return (try? InstallTests.run(udevadm, ["verify", "--help"]).status) == 0
    }

    @Test(.enabled(if: udevadmVerifies)) func udevadmVerifyAcceptsIt() throws {
        let verify = try InstallTests.run(try #require(Self.udevadm), ["verify", Self.path])
        #expect(verify.status == 0, "\(verify.text)")
    }
}
