import Exports
import Foundation
import HRV
import SessionLog
import TestSupport
import Testing

/// The EDF+ export as pyedflib (edflib) and MNE read it, against the session's own beats.
@Suite struct EDFPlusTests {
    nonisolated(unsafe) static let read: Result<[String: Any], Error> = Result {
        try ReferenceReader.read("edf", try ExportFixture.write(EDFPlus.encode(ExportFixture.timeline), name: "session.edf"))
    }

    var pyedflib: [String: Any] { get throws { try Self.read.get().object("pyedflib") } }
    var mne: [String: Any] { get throws { try Self.read.get().object("mne") } }

    /// The annotations (onset, duration, text) a reader returned.
    func annotations(_ view: [String: Any]) -> [(onset: Double, duration: Double, text: String)] {
        (view["annotations"] as? [[Any]] ?? []).map { (($0[0] as! NSNumber).doubleValue, ($0[1] as! NSNumber).doubleValue, $0[2] as! String) }
    }

    @Test func headerAsTheReadersSeeIt() throws {
        let view = try pyedflib
        #expect(view.strings("labels") == ["RR", "NN"])
        #expect(view.doubles("sample_rates") == [4, 4])
        #expect(view.strings("dimensions") == ["ms", "ms"])
        #expect(view["start"] as? String == ExportFixture.expectedStart)
        let seconds = (ExportFixture.expectedOnsets.last!).rounded(.up)
        #expect(view["duration_s"] as? Double == seconds && view["records"] as? Int == Int(seconds))
        #expect(view["admincode"] as? String == "20270115-093000" && view["equipment"] as? String == "Polar H10 A1B2C3D4", "edflib gives the subfield's spaces back")
        let mne = try mne
        #expect(mne["sfreq"] as? Double == 4 && mne.strings("channels") == ["RR", "NN"])
        #expect((mne["meas_date"] as? String)?.hasPrefix(ExportFixture.expectedStart) == true)
        #expect(mne["samples"] as? Int == Int(seconds) * 4)
    }

    /// Every received beat is an `RR` annotation: same count, order and value as the session's
    /// `rr` lines, at the onset the time axis defines (the gap keeps its wall-clock length).
    @Test func everyReceivedBeatIsAnAnnotation() throws {
        let beats = annotations(try pyedflib).filter { $0.text.hasPrefix("RR ") }
        let file = ExportFixture.file
        #expect(beats.count == file.beats.count && beats.count == ExportFixture.recorded.received.count)
        for (index, (annotation, beat)) in zip(beats, file.beats).enumerated() {
            let value = Double(annotation.text.split(separator: " ")[1])!
            #expect(value == Double(beat.ticks) * 1000 / 1024, "beat \(index)")
            #expect(abs(annotation.onset - ExportFixture.expectedOnsets[index]) < 1.5e-6, "beat \(index)")
            #expect(annotation.text.hasSuffix("after_gap") == (index == ExportFixture.recorded.firstAfterGap))
        }
        let gapStart = ExportFixture.recorded.firstAfterGap
        #expect(beats[gapStart].onset - beats[gapStart - 1].onset > 15, "the link loss is on the axis")
    }

    /// Every corrected beat is an `NN` annotation with its class; the corrected intervals adjoin
    /// (each onset is the previous one plus its interval) and end each stretch on a received beat.
    @Test func everyCorrectedBeatIsAnAnnotationWithItsClass() throws {
        let all = annotations(try pyedflib)
        let corrected = all.filter { $0.text.hasPrefix("NN ") }
        let received = all.filter { $0.text.hasPrefix("RR ") }
        let placed = ExportFixture.file.placed
        #expect(corrected.count == placed.count)
        #expect(corrected.map { String($0.text.split(separator: " ")[2]) } == placed.map(\.kind))
        #expect(corrected.map { Double($0.text.split(separator: " ")[1])! } == placed.map(\.milliseconds))
        #expect(Set(placed.map(\.kind)).isSuperset(of: ["normal", "missed", "extra", "ectopic"]), "the recording exercises the corrector")
        for index in corrected.indices.dropFirst() where !placed[index].followsGap {
            #expect(abs(corrected[index].onset - corrected[index - 1].onset - placed[index].milliseconds / 1000) < 2e-6, "nn \(index)")
        }
        let receivedOnsets = received.map(\.onset)
        for index in corrected.indices where index + 1 == corrected.count || placed[index + 1].followsGap {
            #expect(receivedOnsets.contains { abs($0 - corrected[index].onset) < 2e-6 }, "stretch end \(index)")
        }
        // A normal beat sits on a received one.
        let normal = corrected.indices.filter { placed[$0].kind == "normal" }
        #expect(normal.count > 600)
        #expect(normal.allSatisfy { index in receivedOnsets.contains { abs($0 - corrected[index].onset) < 2e-6 } })
    }

    /// The gap, the note and the exercise: where and how long, as the session recorded them.
    @Test func eventsWithTheirSpans() throws {
        let all = annotations(try pyedflib)
        let onsets = ExportFixture.expectedOnsets
        let recorded = ExportFixture.recorded
        let gap = try #require(all.first { $0.text == "gap" })
        #expect(abs(gap.onset - onsets[recorded.firstAfterGap - 1]) < 1.5e-6)
        let resumed = onsets[recorded.firstAfterGap] - Double(ExportFixture.file.beats[recorded.firstAfterGap].ticks) / 1024
        #expect(abs(gap.onset + gap.duration - resumed) < 2e-6)
        let note = try #require(all.first { $0.text.hasPrefix("note: ") })
        #expect(note.text == "note: felt tense <b>", "the tab is a space in a TAL")
        let zero = (ExportFixture.file.beats[0].time - Double(ExportFixture.file.beats[0].ticks) / 1024).rounded(.down)
        #expect(abs(note.onset - (recorded.noteTime - zero)) < 1e-6 && note.duration == -1)
        let exercise = try #require(all.first { $0.text == "exercise: resonance" })
        #expect(abs(exercise.onset - onsets[recorded.exerciseBeats.start]) < 2e-6)
        #expect(abs(exercise.onset + exercise.duration - onsets[recorded.exerciseBeats.stop]) < 2e-6)
    }

    /// The signals hold each interval from the beat that starts it to the beat that ends it, read
    /// back from the annotations; 0 where no interval is (before the first beat, in the gap).
    @Test func signalsAreTheHeldIntervals() throws {
        let view = try pyedflib
        let signals = view["signals"] as? [[Double]] ?? []
        let all = annotations(view)
        for (signal, prefix) in zip(signals, ["RR ", "NN "]) {
            let annotated = all.filter { $0.text.hasPrefix(prefix) }.map { (onset: $0.onset, ms: Double($0.text.split(separator: " ")[1])!) }
            #expect(signal.count == Int(annotated.last!.onset.rounded(.up)) * 4)
            var next = 0
            var empty = 0
            for (sample, value) in signal.enumerated() {
                let time = Double(sample) / 4
                while next < annotated.count && annotated[next].onset <= time { next += 1 }
                let expected = next < annotated.count && annotated[next].onset - annotated[next].ms / 1000 <= time + 1e-6 ? annotated[next].ms : 0
                if expected == 0 { empty += 1 }
                #expect(abs(value - expected) <= 0.062, "\(prefix)sample \(sample)")
            }
            // Empty: before the first interval, and between the last beat before the gap and the
            // start of the first interval after it.
            let onsets = ExportFixture.expectedOnsets
            let beats = ExportFixture.file.beats
            let after = ExportFixture.recorded.firstAfterGap
            let first = onsets[0] - Double(beats[0].ticks) / 1024
            let resumed = onsets[after] - Double(beats[after].ticks) / 1024
            let expectedEmpty = signal.indices.filter { Double($0) / 4 < first || (Double($0) / 4 >= onsets[after - 1] && Double($0) / 4 < resumed) }
            #expect(empty == expectedEmpty.count && empty > 60, "\(prefix): \(empty) empty samples")
        }
    }

    /// MNE reads the same file: the same annotations (durations 0 where pyedflib says -1 for
    /// none) and the same samples. The file lists annotations in time order, as MNE sorts them.
    @Test func mneReadsTheSame() throws {
        let fromMNE = annotations(try mne)
        let fromEdflib = annotations(try pyedflib)
        #expect(zip(fromEdflib, fromEdflib.dropFirst()).allSatisfy { $0.onset <= $1.onset })
        #expect(fromMNE.count == fromEdflib.count)
        #expect(fromMNE.map(\.text) == fromEdflib.map(\.text))
        #expect(zip(fromMNE, fromEdflib).allSatisfy { abs($0.onset - $1.onset) < 1e-9 && $0.duration == max(0, $1.duration) })
        let data = try mne["data"] as? [[Double]] ?? []
        let signals = try pyedflib["signals"] as? [[Double]] ?? []
        #expect(data.count == 2)
        // MNE keeps a unit it does not know (ms) as the file's physical values.
        #expect(zip(data, signals).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) < 1e-9 } })
    }

    /// The header's fixed fields: ASCII, the sizes the specification gives, EDF+C.
    @Test func headerBytes() {
        let bytes = EDFPlus.encode(ExportFixture.timeline)
        #expect(bytes.prefix(1024).allSatisfy { (0x20...0x7E).contains($0) })
        #expect(String(decoding: bytes[184..<192], as: UTF8.self) == "1024    ")
        #expect(String(decoding: bytes[192..<197], as: UTF8.self) == "EDF+C")
        #expect(String(decoding: bytes[252..<256], as: UTF8.self) == "3   ")
        #expect(String(decoding: bytes[8..<16], as: UTF8.self) == "X X X X ")
        #expect(String(decoding: bytes[88..<168], as: UTF8.self).hasPrefix("Startdate 15-JAN-2027 20270115-093000 X "))
    }
}

/// Annotation texts a TAL cannot hold as they are: control characters (TAL separators among
/// them) become spaces, and a long note is cut at a character boundary, read back by pyedflib.
@Suite struct EDFAnnotationTextTests {
    @Test func aLongNoteWithSeparatorsIsCutCleanly() throws {
        let note = "é\u{14}\u{15}\u{0}" + String(repeating: "Ünïcödé ", count: 30)
        let header = #"{"type":"session","t":1000,"format":"hrvmon-session","version":1,"program":"hrvmon","id":"n","start_local":"-","source":"live"}"#
        let lines = [
            header, #"{"type":"rr","t":1001.5,"recv":1001.5,"pkt":1,"seq":1,"rr_1024":1024,"rr_ms":1000,"hr_bpm":60,"contact":"detected"}"#,
            #"{"type":"note","t":1001.25,"text":"\#(note.unicodeScalars.map { $0.value < 0x20 ? "\\u00" + ($0.value < 0x10 ? "0" : "") + String($0.value, radix: 16) : String($0) }.joined())"}"#,
        ]
        let file = try SessionFileReader.read(Array(lines.joined(separator: "\n").utf8) + [0x0A], source: "note")
        #expect(file.notes.first?.text == note)
        let read = try ReferenceReader.read("edf", try ExportFixture.write(EDFPlus.encode(try ExportTimeline(file)), name: "note.edf"))
        let texts = (read.object("pyedflib")["annotations"] as? [[Any]] ?? []).map { $0[2] as! String }
        let written = try #require(texts.first { $0.hasPrefix("note: ") })
        #expect(written.utf8.count <= 160 && written.utf8.count > 150)
        #expect(written.hasPrefix("note: é   Ünïcödé Ünïcödé"))
        #expect(("note: é   " + String(repeating: "Ünïcödé ", count: 30)).hasPrefix(written))
    }
}
