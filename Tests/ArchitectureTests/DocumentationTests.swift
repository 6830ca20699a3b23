import Foundation
import TestSupport
import Testing

/// README.md and the pages under docs/ stay one connected, working set: every relative link names a
/// file that exists and, after `#`, a heading that file has (GitHub's anchors); no page under docs/
/// is left unlinked; README stays short enough to read.
@Suite struct DocumentationTests {
    /// A Markdown page of the repository, by its path from the root.
    struct Page {
        var path: String
        var text: String

        var directory: String { path.split(separator: "/").dropLast().joined(separator: "/") }

        /// The lines outside fenced code blocks, with inline code removed: what renders as prose.
        var prose: [Substring] {
            var inFence = false
            var lines: [Substring] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.drop(while: { $0 == " " }).hasPrefix("```") {
                    inFence.toggle()
                    continue
                }
                if !inFence { lines.append(line) }
            }
            return lines
        }

        /// The relative link targets on the page (`[text](target)` and `![alt](target)`); web and
        /// mail addresses are left out.
        var links: [String] {
            prose.flatMap { line in
                line.replacing(/`[^`]*`/, with: "").matches(of: /\]\(([^)\s]+)\)/).map { String($0.1) }
            }.filter { $0.firstMatch(of: /^[a-z]+:/) == nil }
        }

        /// The anchors GitHub gives the page's headings: the heading's text without markup, lower
        /// case, punctuation dropped, each space a hyphen; a repeated anchor gets -1, -2, ….
        var anchors: Set<String> {
            var seen: [String: Int] = [:]
            var anchors: Set<String> = []
            for line in prose {
                guard let heading = line.firstMatch(of: /^#{1,6} (.+)$/) else { continue }
                let slug = DocumentationTests.slug(String(heading.1))
                let count = seen[slug, default: 0]
                seen[slug] = count + 1
                anchors.insert(count == 0 ? slug : "\(slug)-\(count)")
            }
            return anchors
        }
    }

    static func slug(_ heading: String) -> String {
        let text = heading.replacing(/\[([^\]]*)\]\([^)]*\)/) { String($0.1) }.lowercased()
        let kept = text.filter { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == " " }
        return String(kept.map { $0 == " " ? "-" : $0 })
    }

    /// README.md and every .md file under docs/.
    static let pages: [Page] = {
        var paths = ["README.md"]
        let docs = Repository.root.appendingPathComponent("docs")
        let files = FileManager.default.enumerator(atPath: docs.path)?.compactMap { $0 as? String } ?? []
        paths += files.filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }.sorted()
        return paths.map { path in
            Page(path: path, text: (try? String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8)) ?? "")
        }
    }()

    /// The repository path a link on `page` points at (without its anchor), `.` and `..` resolved.
    static func resolve(_ target: String, on page: Page) -> String {
        var parts = page.directory.split(separator: "/").map(String.init)
        for part in target.split(separator: "/").map(String.init) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    @Test func theDocumentationIsThere() {
        #expect(Self.pages.count > 10, "\(Self.pages.map(\.path))")
        #expect(Self.pages.allSatisfy { !$0.text.isEmpty })
    }

    @Test func everyRelativeLinkAndAnchorResolves() {
        var broken: [String] = []
        for page in Self.pages {
            for link in page.links {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let path = parts[0].isEmpty ? page.path : Self.resolve(parts[0], on: page)
                guard FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent(path).path) else {
                    broken.append("\(page.path): \(link): no file \(path)")
                    continue
                }
                guard parts.count == 2 else { continue }
                guard let target = Self.pages.first(where: { $0.path == path }) else {
                    broken.append("\(page.path): \(link): an anchor into a file that is not a page")
                    continue
                }
                if !target.anchors.contains(parts[1]) {
                    broken.append("\(page.path): \(link): \(path) has no heading with that anchor")
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    @Test func everyPageUnderDocsIsLinkedFromAnotherPage() {
        let linked = Set(Self.pages.flatMap { page in
            page.links.map { link in
                let path = String(link.prefix { $0 != "#" })
                return path.isEmpty ? page.path : Self.resolve(path, on: page)
            }.filter { $0 != page.path }
        })
        let orphans = Self.pages.map(\.path).filter { $0 != "README.md" && !linked.contains($0) }
        #expect(orphans.isEmpty, "no page links to \(orphans)")
    }

    /// The README is for people who just got a strap; everything long lives under docs/.
    @Test func readmeStaysShort() throws {
        let readme = try #require(Self.pages.first { $0.path == "README.md" })
        let lines = readme.text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 350, "README.md has \(lines) lines")
    }

    /// A merge whose conflict was committed unresolved leaves its markers in the text; a page or a
    /// source file that holds one says two things at once (docs/development/benchmarks.md did).
    @Test func noFileHoldsAnUnresolvedMergeConflict() {
        let markers = #/^(<<<<<<<|>>>>>>>) /#.anchorsMatchLineEndings()
        var unresolved: [String] = []
        for folder in ["README.md", "docs", "Sources", "Tests", "scripts", "man", "udev", ".ci"] {
            let url = Repository.root.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil).map { $0.compactMap { $0 as? URL } } ?? [url]
            for file in files where !file.path.contains("/Fixtures/") {
                guard let text = try? String(contentsOf: file, encoding: .utf8), text.contains(markers) else { continue }
                unresolved.append(file.path.replacingOccurrences(of: Repository.root.path + "/", with: ""))
            }
        }
        #expect(unresolved.isEmpty, "unresolved merge conflicts in \(unresolved)")
    }

    @Test func anchorsAreGitHubs() {
        #expect(Self.slug("Lab Streaming Layer (`--lsl`)") == "lab-streaming-layer---lsl")
        #expect(Self.slug("JSON Lines (`--format jsonl`) — contract") == "json-lines---format-jsonl--contract")
        #expect(Self.slug("`hrvmon note \"text\"`") == "hrvmon-note-text")
        #expect(Self.slug("The dashboard's keys") == "the-dashboards-keys")
        #expect(Self.slug("Start automatically (udev + systemd user service)") == "start-automatically-udev--systemd-user-service")
    }
}
