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
        #expect(text.contains("python3 -m pip install pylsl") && text.contains("https://github.com/sccn/liblsl/releases"), "\(text)")
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
        // then, so they are released only once the inlet has had time to take every sample.
        Thread.sleep(forTimeInterval: 0.5)
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
