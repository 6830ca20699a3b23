import Foundation
import LabStreamingLayer
import Platform
import TestSupport
import Testing

/// liblsl loaded at run time (the copy in pylsl's wheel), and outlets a pylsl inlet receives.
@Suite(.serialized) struct LSLLibraryTests {
    static func library() throws -> LSLLibrary {
        try LSLLibrary.load(path: LSLInlet.library).get()
    }

    @Test func pylslsLiblslLoads() throws {
        let library = try Self.library()
        #expect(library.name == LSLInlet.library)
        // 1.14 brought lsl_last_error, the newest function hrvmon calls.
        #expect(library.version >= 114, "liblsl \(library.version)")
    }

    /// LSL's timestamps are on CLOCK_MONOTONIC, as the event loop's clock.
    @Test func lslsClockIsTheMonotonicClock() throws {
        let library = try Self.library()
        let (before, lsl, after) = (EventLoop.now(), library.now, EventLoop.now())
        #expect(before <= lsl && lsl <= after, "\(before) \(lsl) \(after)")
    }

    @Test func aMissingLibraryIsExplainedWithWhatToInstall() {
        guard case .failure(let notFound) = LSLLibrary.load(path: "/nonexistent/liblsl.so") else {
            Issue.record("a library that does not exist loaded")
            return
        }
        let text = notFound.description
        #expect(text.contains("HRVMON_LIBLSL=/nonexistent/liblsl.so: /nonexistent/liblsl.so: cannot open shared object file: No such file or directory"), "\(text)")
        #expect(text.contains("python3 -m pip install --user pylsl") && text.contains("https://github.com/sccn/liblsl/releases"), "\(text)")
    }

    /// pylsl's own order (pylsl 1.18.6's find_liblsl_libraries) after $HRVMON_LIBLSL: $PYLSL_LIB,
    /// each pip-installed pylsl's lib directory (the active venv's, the user's, the system's), the
    /// dynamic linker, the venv's lib directory. $HRVMON_LIBLSL, when set, is the only place.
    @Test func theSearchFollowsPylslsOrder() {
        let environment = ["HOME": "/home/u", "VIRTUAL_ENV": "/venv", "PYLSL_LIB": "/opt/lsl/liblsl.so"]
        let present: Set = [
            "/opt/lsl/liblsl.so", "/venv/lib/python3.11/site-packages/pylsl/lib/liblsl.so",
            "/home/u/.local/lib/python3.12/site-packages/pylsl/lib/lsl.so", "/home/u/.local/lib/python3.12/site-packages/pylsl/lib/liblsl.so",
            "/usr/lib/python3/dist-packages/pylsl/lib/liblsl.so", "/venv/lib/liblsl.so",
        ]
        // A wildcard stands for one python3.N directory here, as glob(3) would expand it.
        let matching = { (pattern: String) in
            present.filter { path in
                let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
                guard parts.count == 2 else { return path == pattern }
                return path.hasPrefix(parts[0]) && path.hasSuffix(parts[1]) && !path.dropFirst(parts[0].count).dropLast(parts[1].count).contains("/")
            }.sorted()
        }
        let search = LSLSearch(environment: { environment[$0] }, matching: matching, isFile: present.contains)
        #expect(search.candidates.map(\.name) == [
            "/opt/lsl/liblsl.so", "/venv/lib/python3.11/site-packages/pylsl/lib/liblsl.so",
            "/home/u/.local/lib/python3.12/site-packages/pylsl/lib/lsl.so", "/home/u/.local/lib/python3.12/site-packages/pylsl/lib/liblsl.so",
            "/usr/lib/python3/dist-packages/pylsl/lib/liblsl.so", "liblsl.so.2", "liblsl.so", "/venv/lib/liblsl.so",
        ])
        #expect(search.candidates.first?.label == "PYLSL_LIB=/opt/lsl/liblsl.so")
        #expect(search.emptyPlaces.contains("/usr/local/lib/python3*/dist-packages/pylsl/lib/liblsl.so"), "\(search.emptyPlaces)")

        let configured = LSLSearch(
            environment: { ($0 == "HRVMON_LIBLSL" ? ["HRVMON_LIBLSL": "/x/liblsl.so"] : environment)[$0] }, matching: matching, isFile: present.contains)
        #expect(configured.candidates.map(\.label) == ["HRVMON_LIBLSL=/x/liblsl.so"] && configured.candidates.map(\.name) == ["/x/liblsl.so"])
    }

    /// pylsl installed with `pip install --user`: its liblsl found under ~/.local by the real file
    /// system's wildcards, with no variable set; a PYLSL_LIB that names no file is passed over.
    @Test func aUsersPylslIsFoundUnderTheHomeDirectory() throws {
        let (home, userLibrary) = try LSLInlet.homeWithUserPylsl("pylsl")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["HOME": home, "PYLSL_LIB": home + "/missing.so"]
        let library = try LSLLibrary.load(LSLSearch(environment: { environment[$0] })).get()
        #expect(library.name == userLibrary)
        #expect(library.version >= 114)

        // Without it, the failure names the places looked in and what to do.
        try FileManager.default.removeItem(atPath: userLibrary)
        let search = LSLSearch(environment: { environment[$0] })
        guard search.candidates.allSatisfy({ !$0.name.hasPrefix("/") }), case .failure(let notFound) = LSLLibrary.load(search) else {
            return  // this machine has a liblsl of its own (a system pylsl or the .deb): nothing to say then
        }
        let text = notFound.description
        #expect(text.contains("PYLSL_LIB=\(home)/missing.so (no such file)"), "\(text)")
        #expect(text.contains(home + "/.local/lib/python3*/site-packages/pylsl/lib/liblsl.so"), "\(text)")
        #expect(text.contains("/usr/lib/python3/dist-packages/pylsl/lib/liblsl.so") && text.contains("liblsl.so.2: "), "\(text)")
        #expect(text.contains("python3 -m pip install --user pylsl"), "\(text)")
    }

    /// pylsl takes $PYLSL_LIB as it is (`os.path.isfile`), never as a wildcard pattern: a file
    /// whose name has `[` is taken; a `*` that would match a file, or a directory, names none.
    @Test func pylslLibIsAPathNotAPattern() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-pylsl-lib-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["liblsl[1].so", "liblsl.so"] { #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data())) }
        func search(_ path: String) -> LSLSearch { LSLSearch(environment: { $0 == "PYLSL_LIB" ? path : nil }) }
        let bracketed = directory + "/liblsl[1].so"
        #expect(search(bracketed).candidates.first.map { [$0.name, $0.label] } == [bracketed, "PYLSL_LIB=\(bracketed)"])
        for nothing in [directory + "/*.so", directory] {
            let found = search(nothing)
            #expect(!found.candidates.contains { $0.label.hasPrefix("PYLSL_LIB") }, "\(found.candidates)")
            #expect(found.emptyPlaces.contains("PYLSL_LIB=\(nothing) (no such file)"), "\(found.emptyPlaces)")
        }
    }

    /// A library that is not liblsl (or one older than 1.14) lacks its functions: refused, with
    /// the dynamic linker's words.
    @Test func aLibraryWithoutLiblslsFunctionsIsRefused() {
        guard case .failure(let notFound) = LSLLibrary.load(path: "libc.so.6") else {
            Issue.record("the C library passed for liblsl")
            return
        }
        #expect(notFound.description.contains("undefined symbol: lsl_library_version"), "\(notFound)")
    }

    /// Two outlets as hrvmon makes them, received by pylsl: the stream info with its desc tree,
    /// every float sample exactly, every string (UTF-8) and each timestamp as pushed.
    @Test func pylslReceivesTheOutletsInfoSamplesAndTimestamps() throws {
        let inlet = try LSLInlet(timeout: 60)
        let library = try Self.library()
        // The inlet's configuration; liblsl reads it once per process: these are the only outlets.
        library.configure(try String(contentsOfFile: try #require(inlet.environment["LSLAPICFG"]), encoding: .utf8))
        let channel = StreamDescription.Element.element("channel", [.value("label", "rr_ms"), .value("unit", "ms"), .value("type", "RR")])
        var rr: StreamOutlet? = try StreamOutlet(
            StreamDescription(
                name: "test RR", type: "RR", channelCount: 1, nominalRate: 0, format: .float32, sourceID: "hrvmon-rr-test",
                desc: [.element("channels", [channel]), .element("sensor", [.value("name", "Strap ü"), .value("address", "00:00:5E:00:53:02")])]),
            library: library)
        var markers: StreamOutlet? = try StreamOutlet(
            StreamDescription(name: "test Markers", type: "Markers", channelCount: 1, nominalRate: 0, format: .string, sourceID: "hrvmon-markers-test", desc: []),
            library: library)
        try inlet.waitUntilReady()

        let start = library.now
        let values: [Float] = [812.5, 1000, 0.9765625, 63999.0234375]
        for (index, value) in values.enumerated() { #expect(rr?.push(value, at: start + Double(index) * 0.5) == nil) }
        for (index, text) in ["stress_on", "note: café ☕"].enumerated() { #expect(markers?.push(text, at: start + Double(index)) == nil) }
        // Released, the outlets vanish and the inlet ends; liblsl drops what it has not sent by
        // then, so they are released only once the inlet has taken every sample (on a busy
        // machine that can take longer than any fixed pause).
        try inlet.waitForSamples(beats: values.count, markers: 2)
        (rr, markers) = (nil, nil)
        try inlet.waitForEnd()

        #expect(inlet.beats.map(\.milliseconds) == values.map(Double.init))
        #expect(inlet.beats.map(\.timestamp) == values.indices.map { start + Double($0) * 0.5 })
        #expect(inlet.markers.map(\.text) == ["stress_on", "note: café ☕"])
        #expect(inlet.markers.map(\.timestamp) == [start, start + 1])
        let info = try #require(inlet.infos["rr"])
        #expect(info["name"] as? String == "test RR" && info["type"] as? String == "RR" && info["source_id"] as? String == "hrvmon-rr-test")
        #expect(info["nominal_srate"] as? Double == 0 && info["channel_count"] as? Int == 1)
        // pylsl's cf_float32 and cf_string.
        #expect(info["channel_format"] as? Int == 1 && inlet.infos["markers"]?["channel_format"] as? Int == 3)
        #expect(info["channels"] as? [[String: String]] == [["label": "rr_ms", "unit": "ms", "type": "RR"]])
        #expect(info["sensor"] as? [String: String] == ["name": "Strap ü", "address": "00:00:5E:00:53:02"])
    }
}
