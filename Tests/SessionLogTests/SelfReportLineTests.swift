import HRV
import LivePipeline
import Recordings
import SelfReport
import SessionLog
import Testing

/// The `checkin` and `label` lines: written by `SessionRecords`, read back by the reader (in
/// place and parsed alike), and the diary's and `dass21.jsonl`'s lines.
@Suite struct SelfReportLineTests {
    static let checkIn = CheckIn(mood: .low, doing: "exam", company: nil, place: "the library")

    static func file(_ events: [(SessionEvent, Double)], extra: [String] = [], inPlace: Bool = true) throws(RecordingError) -> SessionFile {
        var lines = [SessionLineReadingTests.header]
        for (event, time) in events { lines.append(SessionRecords.object(for: event, at: time)!.serialized) }
        let bytes = Array((lines + extra).joined(separator: "\n").utf8 + [10])
        return try SessionFileReader.read(bytes, source: "test", detail: .full, pieceSize: bytes.count, readingInPlace: inPlace)
    }

    @Test func checkInAndLabelLinesReadBack() throws {
        let episode = StressEpisode(kind: .stress, start: 200, end: 320)
        let line = SessionRecords.object(for: .checkIn(Self.checkIn), at: 1_795_282_800)!.serialized
        #expect(line == #"{"type":"checkin","t":1795282800.0,"mood":2,"mood_words":"low","doing":"exam","where":"the library"}"#)
        for inPlace in [true, false] {
            let file = try Self.file([
                (.live(.episode(episode)), 1_795_283_100),
                (.checkIn(Self.checkIn), 1_795_282_800),
                (.label(EpisodeLabel(episode: 1, start: 200, answer: .no, via: "dashboard")), 1_795_283_200),
                (.label(EpisodeLabel(episode: 1, start: 200, answer: .unsure, via: "command")), 1_795_283_300),
            ], inPlace: inPlace)
            #expect(file.checkIns.map(\.checkIn) == [Self.checkIn])
            #expect(file.checkIns.first?.time == 1_795_282_800)
            #expect(file.labels.map(\.answer) == [.no, .unsure])
            #expect(file.answer(toEpisode: 1) == .unsure, "the newest answer counts")
            #expect(file.answer(toEpisode: 2) == nil)
            #expect(file.unknownLines == 0)
        }
    }

    @Test func damagedLinesNameTheProblem() {
        let cases = [
            (#"{"type":"checkin","t":1,"mood":6}"#, "\"mood\" must be 1 to 5, not 6"),
            (#"{"type":"label","t":1,"episode":1,"start_s":2,"answer":"maybe","via":"command"}"#, "\"answer\" must be yes, no or unsure, not 'maybe'"),
            (#"{"type":"label","t":1,"episode":0,"start_s":2,"answer":"yes","via":"command"}"#, "\"episode\" must be 1 or more"),
        ]
        for (line, reason) in cases {
            #expect(throws: RecordingError.self) { try Self.file([], extra: [line, #"{"type":"gap","t":2}"#]) }
            do {
                _ = try Self.file([], extra: [line, #"{"type":"gap","t":2}"#])
            } catch {
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }

    @Test func diaryAndQuestionnaireLines() throws {
        let diary = SelfReportRecords.checkInLine(Self.checkIn, at: 1_795_282_800)
        #expect(try SelfReportRecords.entry(Array(diary.utf8.dropLast())) == .checkIn(Self.checkIn, time: 1_795_282_800))
        let result = try DASS21.parse(answers: "1,0,2,0,1,1,0,1,0,2,1,1,2,1,0,1,0,1,0,0,1")
        let line = SelfReportRecords.dass21Line(result, at: 1_795_282_900)
        #expect(line == #"{"type":"dass21","t":1795282900.0,"answers":[1,0,2,0,1,1,0,1,0,2,1,1,2,1,0,1,0,1,0,0,1],"depression":18,"anxiety":0,"stress":14}"# + "\n")
        #expect(try SelfReportRecords.entry(Array(line.utf8.dropLast())) == .dass21(result, time: 1_795_282_900))
        #expect(try SelfReportRecords.entry(Array(#"{"type":"mood_v2","t":1}"#.utf8)) == nil, "a newer type is passed over")
        #expect(throws: SelfReportLineError.self) { try SelfReportRecords.entry(Array(#"{"type":"dass21","t":1,"answers":[1,2]}"#.utf8)) }
    }
}
