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
        // Only lines mentioning "effect" are parsed: a long session has hundreds of thousands.
        let word = Array(#""effect""#.utf8)
        return bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard contains(line, word),
                  let object = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any],
                  object["type"] as? String == "effect", let start = number(object["start_s"])
            else { return nil }
            func span(_ key: String) -> Span {
                let values = object[key] as? [String: Any]
                return Span(rmssd: number(values?["rmssd_ms"]), heartRate: number(values?["hr_bpm"]))
            }
            return ExerciseEffectRecord(start: start, before: span("before"), during: span("during"), after: span("after"))
        }
    }

    private static func contains(_ line: ArraySlice<UInt8>, _ word: [UInt8]) -> Bool {
        var index = line.startIndex
        while index + word.count <= line.endIndex {
            if line[index] == word[0], line[index..<index + word.count].elementsEqual(word) { return true }
            index += 1
        }
        return false
    }

    private static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        return number.doubleValue
    }
}
