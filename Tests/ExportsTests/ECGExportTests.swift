import Exports
import Foundation
import SessionLog
import TestSupport
import Testing

/// A `demo --ecg` session's ECG in the research exports, as readers hrvmon did not write read it:
/// pyedflib an EDF+ "ECG" signal in µV at 130 Hz, pandas the BIDS recording `ecg`, bids-validator
/// the dataset; every sample the strap sent is there, unchanged, at its time.
@Suite struct ECGExportTests {
    static let recorded: RecordedECG = {
        let directory = try! ExportFixture.scratch().path
        return try! RecordedECG.record(in: directory)
    }()
    static let timeline = try! ExportTimeline(try! SessionFileReader.read(Array(recorded.text.utf8), source: recorded.path))

    /// The samples the strap sent within half a grid step of each point of the 130 Hz grid from
    /// the export's time zero (two at most: the demo starts a quarter second after it, so its
    /// samples lie halfway between points), worked out here from the sent times.
    static let sentNearPoints: [Int: [Int32]] = {
        var near: [Int: [Int32]] = [:]
        for sample in recorded.sent {
            let position = (sample.time - timeline.zero) * 130
            for point in [position.rounded(.down), position.rounded(.up)] where abs(position - point) <= 0.5 + 1e-4 {
                near[Int(point), default: []].append(sample.microvolts)
            }
        }
        return near
    }()

    nonisolated(unsafe) static let edf: Result<[String: Any], Error> = Result {
        try ReferenceReader.read("edf", try ExportFixture.write(EDFPlus.encode(timeline), name: "ecg.edf")).object("pyedflib")
    }

    /// The ECG signal beside RR and NN, in µV at 130 Hz, from the same start; each sample sent is
    /// the signal's value at its time to within the digital resolution (1 µV), and the link's gap
    /// is 0.
    @Test func edfHasTheECGSignal() throws {
        let view = try Self.edf.get()
        #expect(view.strings("labels") == ["RR", "NN", "ECG"])
        #expect(view.doubles("sample_rates") == [4, 4, 130])
        #expect(view.strings("dimensions") == ["ms", "ms", "uV"])
        let zero = Self.timeline.zero
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = TimeZone(secondsFromGMT: 3600)
        local.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        #expect(view["start"] as? String == local.string(from: Date(timeIntervalSince1970: zero)))
        let signal = (view["signals"] as? [[Double]] ?? [])[2]
        #expect(signal.count == (view["records"] as? Int ?? 0) * 130)
        let points = Self.sentNearPoints.filter { $0.key < signal.count }
        #expect(points.count > 100 * 130)
        #expect(points.allSatisfy { point, near in near.contains { abs(signal[point] - Double($0)) <= 1 } })
        #expect(Set(points.keys.map { signal[$0] }).count > 500 && signal.max()! > 700, "R waves")
        let unshown = Self.recorded.sent.filter { sample in
            let below = Int(((sample.time - zero) * 130).rounded(.down))
            return below + 1 < signal.count && signal[below] != Double(sample.microvolts) && signal[below + 1] != Double(sample.microvolts)
        }
        #expect(unshown.isEmpty, "every sample within the records is at a point beside its time")
        let first = Int(((Self.recorded.sent[0].time - zero) * 130).rounded(.down))
        #expect(Self.recorded.sent[0].time - zero > 0.2, "the ECG starts a quarter second after time zero")
        #expect(signal[..<first].allSatisfy { $0 == 0 })
        let gap = Int((RecordedECG.start + 61 - zero) * 130)..<Int((RecordedECG.start + 69 - zero) * 130)
        #expect(signal[gap].allSatisfy { $0 == 0 })
    }

    /// Without an ECG the file is as before: two signals (EDFPlusTests read it whole).
    @Test func edfWithoutECGIsUnchanged() throws {
        let bytes = EDFPlus.encode(ExportFixture.timeline)
        #expect(String(decoding: bytes[252..<256], as: UTF8.self) == "3   ")
        #expect(String(decoding: EDFPlus.encode(Self.timeline)[252..<256], as: UTF8.self) == "4   ")
    }

    /// The ECG as a BIDS recording of its own: SamplingFrequency 130, StartTime its first row's
    /// time after time zero, one column `cardiac` in µV; every sample sent in its row.
    @Test func bidsHasTheECGRecording() throws {
        let root = try ExportFixture.scratch().path
        for file in BIDSPhysio.files(Self.timeline, subject: "07", task: "rest") + [BIDSPhysio.datasetDescription(version: "test")] {
            let url = URL(fileURLWithPath: root + "/" + file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        let bids = try ReferenceReader.read("bids", root)
        let stem = "sub-07/ses-20270115093000/beh/sub-07_ses-20270115093000_task-rest_recording-ecg_physio"
        #expect(bids.strings("files").contains(stem + ".tsv.gz") && bids.strings("files").contains(stem + ".json"))
        let sidecar = bids.object("ecg").object("json")
        #expect(sidecar["SamplingFrequency"] as? Double == 130)
        #expect(sidecar.strings("Columns") == ["cardiac"] && sidecar.object("cardiac")["Units"] as? String == "uV")
        let startTime = try #require(sidecar["StartTime"] as? Double)
        #expect(abs(startTime - (Self.recorded.sent[0].time - Self.timeline.zero)) < 0.5 / 130)
        let rows = bids.object("ecg").object("columns").optionalDoubles("cardiac")
        let firstRow = Int((startTime * 130).rounded())
        let points = Self.sentNearPoints.filter { $0.key - firstRow < rows.count }
        #expect(points.count > 100 * 130)
        #expect(points.allSatisfy { point, near in near.contains { rows[point - firstRow] == Double($0) } })
        let gap = Int((RecordedECG.start + 61 - Self.timeline.zero) * 130) - firstRow
        #expect(rows[gap..<gap + 130].allSatisfy { $0 == nil }, "n/a in the gap")
        let checked = try ReferenceReader.read("bids-validator", root)
        #expect((checked["paths"] as? [String] ?? []).contains("/" + stem + ".tsv.gz"))
        #expect(checked["not_bids"] as? [String] == [] && checked["unmatched"] as? [String] == [], "\(checked)")
    }
}
