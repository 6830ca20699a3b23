import Foundation
import SessionLog
import TestSupport
import Testing

/// `hrvmon demo --ecg --log PATH`, killed with SIGKILL while it records: the ECG is on disk up to
/// the line under way (two seconds), every line whole, and none of it was on stdout.
@Suite struct DemoECGCommandTests {
    @Test func killNineLosesAtMostTheECGLineUnderWay() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-demo-ecg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/ecg.jsonl"
        let demo = try LiveProcess(["demo", "--ecg", "--speed", "10", "--log", path, "--format", "jsonl"], environment: [:])
        #expect(demo.waitForBeats(40, timeout: 120))
        demo.signal(SIGKILL)
        #expect(demo.waitForExit() == SIGKILL)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        let file = try SessionFileReader.read(Array(text.utf8), source: path)
        #expect(file.summary == nil && file.ecg.count >= 3)
        // Session time, on which the demo stamps beats and frames alike: the ECG written reaches
        // to within the line under way (at most 2.25 s of frames) of the last notification written.
        let lastPacket = try #require(file.steps.compactMap { step -> Double? in
            if case .packet(_, let time) = step { time } else { nil }
        }.last)
        let last = try #require(file.ecg.last)
        let ecgEnd = last.time(ofSample: last.microvolts.count - 1)
        #expect(lastPacket - ecgEnd < 2.25 + 1, "\(lastPacket - ecgEnd) s of ECG lost")
        for (earlier, later) in zip(file.ecg, file.ecg.dropFirst()) {
            #expect(abs(later.start - earlier.time(ofSample: earlier.microvolts.count)) < 0.001, "the lines follow on")
        }
        #expect(!demo.allLines.contains { $0.contains(#""type":"ecg""#) }, "no ECG on stdout")
    }
}
