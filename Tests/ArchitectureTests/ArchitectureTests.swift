import Foundation
import TestSupport
import Testing

/// The architecture stays what docs/ARCHITECTURE.md says: its module table, Package.swift and
/// every source file's imports name the same graph; only Platform and the C libraries' wrappers
/// touch the C library; nothing imports Foundation; no source file is over 400 lines; every
/// library has its tests.
@Suite struct ArchitectureTests {
    /// A target of Package.swift and the package modules it depends on (products left out).
    struct Target {
        var kind: String
        var dependencies: Set<String>
        var path: String?
    }

    /// The targets, read from Package.swift's text: `.target(name: "X", dependencies: [...], path: "...")`.
    static let targets: [String: Target] = {
        let text = (try? String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
        var targets: [String: Target] = [:]
        let declaration = /\.(target|testTarget|executableTarget|systemLibrary)\(\s*name: "(\w+)"/
        let starts = text.matches(of: declaration)
        for (index, match) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].range.lowerBound : text.endIndex
            let body = text[match.range.upperBound..<end]
            var dependencies: Set<String> = []
            if let list = body.firstMatch(of: /dependencies: \[([^\]]*)\]/) {
                dependencies = Set(list.1.matches(of: /"(\w+)"/).map { String($0.1) })
            }
            let path = body.firstMatch(of: /path: "([^"]+)"/).map { String($0.1) }
            targets[String(match.2)] = Target(kind: String(match.1), dependencies: dependencies, path: path)
        }
        return targets
    }()

    /// Rows of the module table in docs/ARCHITECTURE.md: `| `Module` | layer | `A`, `B` | … |`.
    static let documented: [String: Set<String>] = {
        let text = (try? String(contentsOf: Repository.root.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)) ?? ""
        var rows: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") {
            guard let row = line.firstMatch(of: /^\| `(\w+)` \| [^|]+ \| ([^|]*) \|/) else { continue }
            rows[String(row.1)] = Set(row.2.matches(of: /`(\w+)`/).map { String($0.1) })
        }
        return rows
    }()

    static func directory(of name: String, _ target: Target) -> URL {
        Repository.root.appendingPathComponent(target.path ?? (target.kind == "testTarget" ? "Tests/" : "Sources/") + name)
    }

    static func swiftFiles(in directory: URL) -> [URL] {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }
    }

    static func imports(of file: URL) -> [String] {
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.firstMatch(of: /^(?:@testable )?import (\w+)/).map { String($0.1) }
        }
    }

    @Test func packageSwiftWasRead() {
        #expect(Self.targets.count > 40)
        #expect(Self.targets["BlueZ"]?.dependencies == ["Platform", "PolarMeasurementData", "LivePipeline", "DBus"])
    }

    /// Every module of the package has its row, and the row's imports are Package.swift's.
    @Test func theDocumentedGraphIsPackageSwifts() {
        let modules = Self.targets.filter { $0.value.kind != "testTarget" }
        #expect(Set(Self.documented.keys) == Set(modules.keys), "docs/ARCHITECTURE.md's table and Package.swift name different modules")
        for (name, target) in modules {
            #expect(Self.documented[name] == target.dependencies, "\(name): documented \(Self.documented[name] ?? []), declared \(target.dependencies)")
        }
    }

    /// A module imports exactly what it declares: nothing reached through another module's
    /// dependencies, nothing declared and unused. A test target may name the executable only to
    /// have it built.
    @Test func importsAreTheDeclaredDependencies() {
        let packageModules = Set(Self.targets.keys)
        for (name, target) in Self.targets where target.kind != "systemLibrary" {
            let imported = Set(Self.swiftFiles(in: Self.directory(of: name, target)).flatMap(Self.imports).filter(packageModules.contains))
                .subtracting([name])
            let declared = target.kind == "testTarget" ? target.dependencies.subtracting(["hrvmon"]) : target.dependencies
            #expect(imported == declared, "\(name) imports \(imported.sorted()), declares \(declared.sorted())")
        }
    }

    /// The pure domain never reaches the operating system's edge.
    @Test func theDomainIsPure() {
        let domain = ["HeartRateProtocol", "PolarMeasurementData", "HRV", "Simulation", "Recordings", "Settings", "SelfReport", "LivePipeline", "SessionLog", "Exports"]
        let edge: Set = [
            "Platform", "CZlib", "CDBus", "DBus", "BlueZ", "CBluetooth", "BluetoothHCI", "LabStreamingLayer", "CPostgres", "StudyDatabase", "Glibc", "Musl", "Darwin",
        ]
        for name in domain {
            #expect(Self.targets[name]?.dependencies.isDisjoint(with: edge) == true, "\(name) depends on the edge")
        }
    }

    /// Only Platform and the C libraries' wrappers import the C library.
    @Test func onlyPlatformAndTheCWrappersImportTheCLibrary() {
        let allowed: Set = ["Platform", "DBus", "BluetoothHCI"]
        for (name, target) in Self.targets where target.kind == "target" || target.kind == "executableTarget" {
            guard !allowed.contains(name), target.path == nil else { continue }
            for file in Self.swiftFiles(in: Self.directory(of: name, target)) {
                let system = Self.imports(of: file).filter { ["Glibc", "Musl", "Darwin"].contains($0) }
                #expect(system.isEmpty, "\(file.lastPathComponent) in \(name) imports \(system)")
            }
        }
    }

    /// No module imports Foundation: it would load FoundationInternationalization and ICU at
    /// every start of hrvmon. FoundationEssentials, which ArgumentParser links anyway, is fine.
    @Test func noModuleImportsFoundation() {
        for (name, target) in Self.targets where target.kind == "target" || target.kind == "executableTarget" {
            guard target.path == nil else { continue }
            for file in Self.swiftFiles(in: Self.directory(of: name, target)) {
                #expect(!Self.imports(of: file).contains("Foundation"), "\(file.lastPathComponent) in \(name) imports Foundation")
            }
        }
    }

    @Test func noSourceFileIsOver400Lines() throws {
        for file in Self.swiftFiles(in: Repository.root.appendingPathComponent("Sources")) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count
            #expect(lines <= 400, "\(file.path): \(lines) lines")
        }
    }

    /// scripts/fuzz.sh builds FuzzChecks with swiftc, not SwiftPM, from its own list of modules:
    /// that list holds every module FuzzChecks depends on, each after its own dependencies.
    @Test func theFuzzBuildListsFuzzChecksDependenciesInOrder() throws {
        let script = try String(contentsOf: Repository.root.appendingPathComponent("scripts/fuzz.sh"), encoding: .utf8)
        let list = try #require(script.firstMatch(of: /\nmodules=\(([^)]*)\)/), "scripts/fuzz.sh has no modules=(...) line")
        let modules = list.1.split(separator: " ").map(String.init)
        var needed: Set<String> = []
        var next = ["FuzzChecks"]
        while let name = next.popLast() {
            guard needed.insert(name).inserted else { continue }
            next += Self.targets[name]?.dependencies ?? []
        }
        #expect(needed.subtracting(modules).isEmpty, "scripts/fuzz.sh does not build \(needed.subtracting(modules).sorted())")
        for (position, name) in modules.enumerated() {
            let later = Set(modules[(position + 1)...])
            let early = (Self.targets[name]?.dependencies ?? []).intersection(later)
            #expect(early.isEmpty, "scripts/fuzz.sh builds \(name) before its dependencies \(early.sorted())")
        }
    }

    /// Every library module has its `<Module>Tests` target (FuzzChecks is exercised by
    /// FuzzCorpusTests; the C libraries have no Swift of their own).
    @Test func everyLibraryHasItsTests() {
        for (name, target) in Self.targets where target.kind == "target" && target.path == nil && name != "FuzzChecks" {
            #expect(Self.targets[name + "Tests"]?.kind == "testTarget", "\(name) has no \(name)Tests")
        }
    }
}
