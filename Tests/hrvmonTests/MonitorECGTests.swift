import Foundation
import SessionLog
import TestSupport
import Testing

/// `monitor --ecg` through the fake bluetoothd's PMD strap (a 1.2 mV spike once a second of its
/// clock, frames of 73 samples at 130 Hz): the session file keeps the ECG, spaced by the strap's
/// clock.
@Suite struct MonitorECGTests {
    @Test func theStrapsECGIsInTheSessionFile() throws {
        let fake = try FakeBluetooth(MeasurementDataTests.config())
        defer { fake.stop() }
        let monitor = try MeasurementDataTests.monitor(fake, ["--ecg"])
        let streaming = try MeasurementDataTests.waitForStrap(fake, timeout: 60) { (($0["frames"] as? [String: Int])?["ecg"] ?? 0) >= 16 }
        #expect(((streaming["frames"] as? [String: Int])?["ecg"] ?? 0) >= 16, "\(streaming)")
        monitor.signal(SIGINT)
        #expect(monitor.waitForExit() == 0)
        #expect(!monitor.allLines.contains { $0.contains(#""type":"ecg""#) }, "no ECG on stdout")
        let path = try #require(SessionFileTests.sessionFiles(monitor).first)
        let file = try SessionFileReader.read(Array(try SessionFileContent.text(path).utf8), source: path)
        let samples = file.ecg.flatMap { run in zip(run.times, run.microvolts) }
        #expect(samples.count >= 16 * 73, "every frame's samples, the last ones at the end: \(samples.count)")
        #expect(file.ecg.allSatisfy { abs($0.rate - 130) < 0.5 })
        // The spikes, a second apart on the strap's clock, a second apart in the file once the
        // anchor has settled: the fake strap sends the frames due on each of its timer's ticks
        // together, so the very first may have come a frame late, and is placed so.
        let settled = try #require(samples.first).0 + 2
        let spikes = samples.filter { $0.1 > 1000 && $0.0 > settled }.map(\.0)
        #expect(spikes.count >= 5, "\(spikes)")
        // A frame that comes sooner than any before (a busy machine that became less busy) moves
        // the anchor once: one interval may be shorter by that.
        let intervals = zip(spikes, spikes.dropFirst()).map { $1 - $0 }
        #expect(intervals.filter { abs($0 - 1) >= 0.02 }.count <= 1, "\(intervals)")
    }
}
