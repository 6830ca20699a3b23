import HRV

/// Reads RR recordings: one value per line (Kubios / Elite HRV export style, blank lines and `#`
/// comments ignored), or delimited text (comma, semicolon or tab) with a header naming an RR column
/// (HRV Logger's `rr`, Polar Sensor Logger's `RR-interval [ms]`, `RR (ms)`, `rr_interval`, `IBI`…)
/// or a column chosen by name or position. In semicolon and tab files a decimal comma (`812,5`)
/// is read as a decimal point, as European spreadsheets write it.
public enum RRFileReader {
    /// Median intervals outside this range mean the numbers are not in the assumed unit.
    static let plausibleMedian = RRInterval(milliseconds: 200)...RRInterval(milliseconds: 3000)

    /// Bounds that keep every later sum far from overflow: no single interval above an hour, no
    /// recording above a year.
    static let longestInterval = RRInterval(milliseconds: 3_600_000)
    static let longestRecording: Int64 = 366 * 86_400 * RRInterval.microticksPerSecond

    /// - Parameters:
    ///   - unit: the unit of a list file or of a column whose name states none; a column named with
    ///     its unit (`rr_1024`, `RR [s]`) overrides it.
    ///   - column: the RR column, when the header does not name one the reader recognises, or the
    ///     file has several columns and no header.
    public static func read(
        _ bytes: [UInt8], source: String, unit: RRUnit = .ms, column: RRColumn? = nil
    ) throws(RecordingError) -> RRRecording {
        var reader = RRStreamReader(source: source, unit: unit, column: column)
        var intervals: [RRInterval] = []
        intervals.reserveCapacity(bytes.count / 4)
        try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) in
            try reader.consume(buffer) { intervals.append($0) }
        }
        let format = try reader.finish { intervals.append($0) }
        return RRRecording(intervals: intervals, layout: format.layout, unit: format.unit)
    }

    typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    /// How many intervals the unit is judged on before any is handed on: enough for a stable
    /// median, few enough to hold while streaming.
    public static let unitSample = 1_000

    /// The column the header names (or the one chosen), and the unit its name states.
    static func headerColumn(
        _ names: [String], chosen: RRColumn?, source: String, line: Int
    ) throws(RecordingError) -> (index: Int, unit: RRUnit?) {
        let found = "found: " + names.map { "'\($0)'" }.joined(separator: ", ")
        switch chosen {
        case .named(let wanted)?:
            guard let index = names.firstIndex(where: { $0.lowercased() == wanted.lowercased() }) else {
                throw RecordingError(
                    source: source, line: line, problem: "--column \(wanted): no such column in the header (\(found))",
                    hint: "give one of the header's names, or the column's position (1–\(names.count))")
            }
            return (index, RRHeaderName.unit(of: names[index]) ?? nil)
        case .position(let position)?:
            guard position <= names.count else {
                throw RecordingError(
                    source: source, line: line, problem: "--column \(position): the header has \(names.count) columns (\(found))",
                    hint: "choose a column from 1 to \(names.count)")
            }
            return (position - 1, RRHeaderName.unit(of: names[position - 1]) ?? nil)
        case nil:
            for (index, name) in names.enumerated() {
                if let unit = RRHeaderName.unit(of: name) { return (index, unit) }
            }
            throw RecordingError(
                source: source, line: line, problem: "no RR column in the header (\(found))",
                hint: "name the column rr, rr_ms, \"RR (ms)\", rr_s or rr_1024, or choose it with --column NAME or --column N")
        }
    }

    static func interval(
        _ token: Bytes, unit: RRUnit, decimalComma: Bool, source: String, line: Int
    ) throws(RecordingError) -> RRInterval {
        let outcome: DecimalParser.Outcome
        if decimalComma, let comma = token.firstIndex(of: UInt8(ascii: ",")) {
            var pointed = Array(token)
            pointed[comma - token.startIndex] = UInt8(ascii: ".")
            outcome = pointed.withUnsafeBufferPointer { DecimalParser.parse($0[...], scale: unit.microticks) }
        } else {
            outcome = DecimalParser.parse(token, scale: unit.microticks)
        }
        if case .value(let microticks) = outcome, microticks > 0, microticks <= longestInterval.microticks {
            return RRInterval(microticks: microticks)
        }
        let text = String(decoding: token, as: UTF8.self)
        switch outcome {
        case .notANumber:
            throw RecordingError(source: source, line: line, problem: "'\(text)' is not a number",
                                 hint: "each line must hold one RR interval in \(unit.rawValue)")
        case .tooLarge:
            throw RecordingError(source: source, line: line, problem: "'\(text)' is too large for an RR interval",
                                 hint: "no interval between two beats lasts longer than an hour")
        case .value(let microticks) where microticks > 0:
            throw RecordingError(source: source, line: line, problem: "'\(text)' is too large for an RR interval",
                                 hint: "no interval between two beats lasts longer than an hour")
        case .value:
            throw RecordingError(source: source, line: line,
                                 problem: "RR interval '\(text)' is not positive",
                                 hint: "RR intervals are durations between beats and must be above zero")
        }
    }

    static func checkUnit(_ intervals: [RRInterval], unit: RRUnit, source: String) throws(RecordingError) {
        // The median is outside the range exactly when more than half the values are on one side.
        let below = intervals.count { $0 < plausibleMedian.lowerBound }
        let above = intervals.count { $0 > plausibleMedian.upperBound }
        guard below * 2 > intervals.count || above * 2 > intervals.count else { return }
        let median = intervals.sorted()[intervals.count / 2]
        let asMs = median.milliseconds
        let hint = unit != .s && asMs < 3
            ? "values around \(formatted(asMs)) look like seconds: pass --unit s"
            : "check that the file holds RR intervals and pass --unit ms, s or ticks to match it"
        throw RecordingError(
            source: source, line: nil,
            problem: "the median RR interval would be \(formatted(asMs)) ms, outside 200–3000 ms (20–300 bpm), so the values are not in \(unit.rawValue)",
            hint: hint)
    }

    static func formatted(_ value: Double) -> String {
        value < 10 ? String(Double(Int((value * 1000).rounded())) / 1000) : String(Int(value.rounded()))
    }

    // MARK: byte helpers

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// A number written with an exponent (`8.12e+02`) has a letter but is no header, nor is one
    /// too large for any interval (`1e400`): that is a value out of range, said as on later lines.
    static func looksNumeric(_ line: Bytes) -> Bool {
        switch DecimalParser.parse(line, scale: 1) {
        case .value, .tooLarge: true
        case .notANumber: false
        }
    }

    static func trimmed(_ bytes: Bytes) -> Bytes {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    static func unquoted(_ field: Bytes) -> Bytes {
        let field = trimmed(field)
        if field.count >= 2, field.first == UInt8(ascii: "\""), field.last == UInt8(ascii: "\"") {
            return trimmed(field.dropFirst().dropLast())
        }
        return field
    }

    static func split(_ line: Bytes, on delimiter: UInt8) -> [Bytes] {
        line.split(separator: delimiter, omittingEmptySubsequences: false)
    }
}
