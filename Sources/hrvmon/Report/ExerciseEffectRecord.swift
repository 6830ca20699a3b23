import Foundation

/// An `effect` line of a session file: RMSSD and heart rate in the minute before a breathing
/// exercise, during it and in the two minutes after. (SessionFileReader skips these lines, so
/// the report reads them itself, and only them.)
struct ExerciseEffectRecord {
    struct Span {
        var rmssd: Double?
        var heartRate: Double?
    }

    /// RR seconds, as the exercise marks.
    var start: Double
    var before: Span
    var during: Span
    var after: Span

    /// Every effect line of a session file's bytes; a line that does not parse is left out (the
    /// reader has judged the file already: only a torn last line can fail here).
    static func all(in bytes: [UInt8]) -> [ExerciseEffectRecord] {
        // Only the lines mentioning "effect" are parsed: a long session has hundreds of
        // thousands of lines.
        let data = Data(bytes)
        let word = Data(#""effect""#.utf8)
        let newline = UInt8(ascii: "\n")
        var records: [ExerciseEffectRecord] = []
        var searched = data.startIndex..<data.endIndex
        while let found = data.range(of: word, in: searched) {
            let start = data[..<found.lowerBound].lastIndex(of: newline).map { $0 + 1 } ?? data.startIndex
            let end = data[found.upperBound...].firstIndex(of: newline) ?? data.endIndex
            if let record = record(bytes[start..<end]) { records.append(record) }
            searched = end..<data.endIndex
        }
        return records
    }

    private static func record(_ line: ArraySlice<UInt8>) -> ExerciseEffectRecord? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
              object["type"] as? String == "effect", let start = number(object["start_s"])
        else { return nil }
        func span(_ key: String) -> Span {
            let values = object[key] as? [String: Any]
            return Span(rmssd: number(values?["rmssd_ms"]), heartRate: number(values?["hr_bpm"]))
        }
        return ExerciseEffectRecord(start: start, before: span("before"), during: span("during"), after: span("after"))
    }

    private static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        return number.doubleValue
    }
}
