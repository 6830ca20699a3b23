import Exports
import Foundation
import TestSupport
import Testing

/// The Kubios text as a plain numeric table (numpy.loadtxt): two columns, beat time in seconds
/// and RR in milliseconds, the session's beats in order, the gap kept in the time column.
@Suite struct KubiosTextTests {
    func read(corrected: Bool) throws -> [String: Any] {
        let text = KubiosText.encode(ExportFixture.timeline, corrected: corrected)
        return try ReferenceReader.read("kubios", try ExportFixture.write(Array(text.utf8), name: "session.txt"))
    }

    @Test func receivedBeatsWithTheirTimes() throws {
        let table = try read(corrected: false)
        let beats = ExportFixture.file.beats
        #expect(table["shape"] as? [Int] == [beats.count, 2])
        #expect(table.doubles("rr_ms") == beats.map { Double($0.ticks) * 1000 / 1024 })
        let times = table.doubles("time_s")
        #expect(zip(times, ExportFixture.expectedOnsets).allSatisfy { abs($0 - $1) < 1.5e-6 })
        // Kubios derives RR from the time column where it has one: within a stretch they agree,
        // across the link loss the time column jumps by the gap.
        let after = ExportFixture.recorded.firstAfterGap
        for index in times.indices.dropFirst() where index != after {
            #expect(abs(times[index] - times[index - 1] - table.doubles("rr_ms")[index] / 1000) < 2e-6, "beat \(index)")
        }
        #expect(times[after] - times[after - 1] > 15)
    }

    /// --corrected: the corrected timeline without the implausible intervals, as `--format rr --corrected`.
    @Test func correctedBeats() throws {
        let table = try read(corrected: true)
        let placed = ExportFixture.file.placed.filter { $0.kind != "implausible" }
        #expect(table.doubles("rr_ms") == placed.map(\.milliseconds))
        #expect(table["shape"] as? [Int] == [placed.count, 2])
    }
}
