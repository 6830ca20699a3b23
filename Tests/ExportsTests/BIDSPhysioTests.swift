import Exports
import Foundation
import SessionLog
import TestSupport
import Testing

/// The BIDS export as gzip, json and pandas read it, against the session's own beats and the
/// specification's naming and sidecar rules.
@Suite struct BIDSPhysioTests {
    nonisolated(unsafe) static let read: Result<[String: Any], Error> = Result {
        let root = try ExportFixture.scratch()
        for file in BIDSPhysio.files(ExportFixture.timeline, subject: "07", task: "rest") {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        return try ReferenceReader.read("bids", root.path)
    }

    var bids: [String: Any] { get throws { try Self.read.get() } }

    /// sub-<label>/ses-<label>/beh/sub-<label>_ses-<label>_task-<label>_<suffix>, labels alphanumeric.
    @Test func namesFollowTheSpecification() throws {
        let stem = "sub-07/ses-20270115093000/beh/sub-07_ses-20270115093000_task-rest"
        #expect(try bids.strings("files") == [
            "sub-07/ses-20270115093000/beh/sub-07_ses-20270115093000_task-rest_events.json",
            stem + "_events.tsv", stem + "_physio.json", stem + "_physio.tsv.gz",
            "sub-07/ses-20270115093000/sub-07_ses-20270115093000_scans.tsv",
        ].sorted())
        #expect(BIDSPhysio.isLabel("rest2") && !BIDSPhysio.isLabel("rest-2") && !BIDSPhysio.isLabel("") && !BIDSPhysio.isLabel("é"))
        #expect(BIDSPhysio.sessionLabel("20261121-174531-2") == "202611211745312")
    }

    /// The sidecar has the three required keys, and every column has a description and units
    /// (or levels); the table has exactly those columns, at that rate, for the whole session.
    @Test func physioSidecarDescribesTheTable() throws {
        let bids = try bids
        let sidecar = bids.object("physio_json")
        #expect(sidecar["SamplingFrequency"] as? Double == 4 && sidecar["StartTime"] as? Double == 0)
        let columns = sidecar.strings("Columns")
        #expect(columns == ["rr_ms", "nn_ms", "nn_class"])
        #expect(sidecar.object("rr_ms")["Units"] as? String == "ms" && sidecar.object("nn_ms")["Units"] as? String == "ms")
        #expect(sidecar.object("nn_class").object("Levels") as? [String: String]
            == ["0": "normal", "1": "ectopic", "2": "missed", "3": "extra", "4": "long_short", "5": "implausible"])
        #expect(sidecar["ManufacturersModelName"] as? String == "Polar H10 A1B2C3D4")
        let physio = bids.object("physio")
        #expect(Set(physio.keys) == Set(columns))
        let samples = Int(ExportFixture.expectedOnsets.last!.rounded(.up)) * 4
        #expect(physio.optionalDoubles("rr_ms").count == samples && physio.optionalDoubles("nn_class").count == samples)
    }

    /// Each physio sample holds the interval (received and corrected) it lies in, read back from
    /// the events' exact beats; n/a before the first beat and in the gap.
    @Test func physioSamplesAreTheHeldIntervals() throws {
        let bids = try bids
        let physio = bids.object("physio")
        let events = bids.object("events")
        let types = events.strings("trial_type")
        let onsets = events.doubles("onset")
        for (column, type, valueColumn) in [("rr_ms", "rr", "rr_ms"), ("nn_ms", "nn", "nn_ms")] {
            let values = events.optionalDoubles(valueColumn)
            let beats = types.indices.filter { types[$0] == type }.map { (onset: onsets[$0], ms: values[$0]!) }
            var next = 0
            var missing = 0
            for (sample, value) in physio.optionalDoubles(column).enumerated() {
                let time = Double(sample) / 4
                while next < beats.count && beats[next].onset <= time { next += 1 }
                let expected = next < beats.count && beats[next].onset - beats[next].ms / 1000 <= time + 1e-6 ? beats[next].ms : nil
                if expected == nil { missing += 1 }
                #expect(value == expected, "\(column) sample \(sample)")
            }
            #expect(missing > 60, "the gap is n/a")
        }
        let classes = physio.optionalDoubles("nn_class")
        #expect(classes.contains(2) && classes.contains(3) && classes.contains(1), "missed, extra and ectopic intervals are coded")
        #expect(zip(classes, physio.optionalDoubles("nn_ms")).allSatisfy { ($0 == nil) == ($1 == nil) })
    }

    /// Every received and every corrected beat is an event: count, order and values as in the
    /// session file; onsets as the time axis defines them; the events sorted by onset.
    @Test func eventsHoldEveryBeatExactly() throws {
        let bids = try bids
        #expect(Array(bids.strings("events_columns").prefix(3)) == ["onset", "duration", "trial_type"])
        let events = bids.object("events")
        let types = events.strings("trial_type")
        let onsets = events.doubles("onset")
        #expect(zip(onsets, onsets.dropFirst()).allSatisfy { $0 <= $1 })
        let file = ExportFixture.file
        let received = types.indices.filter { types[$0] == "rr" }
        #expect(received.map { Int(events.doubles("seq")[$0]) } == file.beats.map(\.sequence))
        #expect(received.map { Int(events.doubles("rr_1024")[$0]) } == file.beats.map { Int($0.ticks) })
        #expect(received.map { events.doubles("rr_ms")[$0] } == file.beats.map { Double($0.ticks) * 1000 / 1024 })
        #expect(zip(received.map { events.doubles("received_unix")[$0] }, file.beats).allSatisfy { abs($0 - $1.time) < 1e-6 })
        #expect(zip(received.map { onsets[$0] }, ExportFixture.expectedOnsets).allSatisfy { abs($0 - $1) < 1.5e-6 })
        #expect(received.map { events.doubles("after_gap")[$0] }.firstIndex(of: 1) == ExportFixture.recorded.firstAfterGap)
        let corrected = types.indices.filter { types[$0] == "nn" }
        #expect(corrected.map { events.optionalStrings("class")[$0] } == file.placed.map(\.kind))
        #expect(corrected.map { events.doubles("nn_ms")[$0] } == file.placed.map(\.milliseconds))
        let texts = events.optionalStrings("text")
        let note = try #require(types.firstIndex(of: "note"))
        #expect(texts[note] == "felt tense <b>", "the tab is a space in a TSV cell")
        #expect(types.filter { $0 == "gap" }.count == 1 && types.filter { $0 == "exercise" }.count == 1)
        let gap = types.firstIndex(of: "gap")!
        #expect(abs(onsets[gap] - ExportFixture.expectedOnsets[ExportFixture.recorded.firstAfterGap - 1]) < 1.5e-6)
        #expect(events.doubles("duration")[gap] > 15)
        let sidecar = bids.object("events_json")
        #expect(Set(sidecar.keys) == Set(bids.strings("events_columns")).subtracting(["onset", "duration"]))
    }

    /// scans.tsv dates the time zero in local time, as EDF's header does.
    @Test func scansDateTheRecording() throws {
        let scans = try bids.object("scans")
        #expect(scans.strings("acq_time") == [ExportFixture.expectedStart])
        #expect(scans.strings("filename") == ["beh/sub-07_ses-20270115093000_task-rest_physio.tsv.gz"])
    }
}
