import HRV

/// Reads RR recordings: one value per line (Kubios / Elite HRV export style, blank lines and `#`
/// comments ignored), or CSV/TSV with a header naming an RR column.
public enum RRFileReader {
    /// Header names accepted for the RR column, matched case-insensitively, with the unit each implies.
    static let columnUnits: [(name: String, unit: RRUnit)] = [
        ("rr", .ms), ("rr_ms", .ms), ("rri", .ms), ("rr_s", .s), ("rr_1024", .ticks),
    ]

    /// Median intervals outside this range mean the numbers are not in the assumed unit.
    static let plausibleMedian = RRInterval(milliseconds: 200)...RRInterval(milliseconds: 3000)

    /// Bounds that keep every later sum far from overflow: no single interval above an hour, no
    /// recording above a year.
    static let longestInterval = RRInterval(milliseconds: 3_600_000)
    static let longestRecording: Int64 = 366 * 86_400 * RRInterval.microticksPerSecond

    /// - Parameters:
    ///   - unit: the unit of a list file or of a plain `rr` column; a column named with its unit
    ///     (`rr_1024`, `rr_s`) overrides it.
    public static func read(_ bytes: [UInt8], source: String, unit: RRUnit = .ms) throws(RecordingError) -> RRRecording {
        // Unsafe bytes keep bounds checks and reference counting out of the per-line loop.
        try bytes.withUnsafeBufferPointer { (buffer) throws(RecordingError) in
            try read(buffer[...], source: source, unit: unit)
        }
    }

    private typealias Bytes = Slice<UnsafeBufferPointer<UInt8>>

    private static func read(_ bytes: Bytes, source: String, unit: RRUnit) throws(RecordingError) -> RRRecording {
        var intervals: [RRInterval] = []
        intervals.reserveCapacity(bytes.count / 4)
        var layout: RRRecording.Layout?
        var isCSV = false
        var column = 0
        var fieldCount = 1
        var header: (line: Int, names: [String]) = (0, [])
        var delimiter = UInt8(ascii: ",")
        var effectiveUnit = unit

        var total: Int64 = 0
        var lineNumber = 0
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            lineNumber += 1
            var lineEnd = lineStart
            while lineEnd < bytes.endIndex, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            var line = bytes[lineStart..<lineEnd]
            if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }  // UTF-8 BOM
            line = trimmed(line)
            if line.isEmpty || line.first == UInt8(ascii: "#") { continue }

            if layout == nil {
                if let found = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")].first(where: line.contains) {
                    delimiter = found
                }
                if line.contains(where: isLetter) && !looksNumeric(line) {
                    let names = split(line, on: delimiter).map { String(decoding: unquoted($0), as: UTF8.self) }
                    guard let match = names.enumerated().lazy.compactMap({ index, name in
                        columnUnits.first { $0.name == name.lowercased() }.map { (index, name, $0.unit) }
                    }).first else {
                        throw RecordingError(
                            source: source, line: lineNumber,
                            problem: "no RR column in the header (found: \(names.joined(separator: ", ")))",
                            hint: "name the column rr or rr_ms (milliseconds), rr_s (seconds) or rr_1024 (1/1024 s)")
                    }
                    column = match.0
                    fieldCount = names.count
                    header = (lineNumber, names)
                    if match.2 != .ms { effectiveUnit = match.2 }
                    layout = .csv(column: match.1)
                    isCSV = true
                    continue
                }
                layout = .list
                fieldCount = 1
            }

            let token: Bytes
            if isCSV {
                let fields = split(line, on: delimiter)
                guard fields.count == fieldCount else {
                    let found = fields.map { String(decoding: unquoted($0), as: UTF8.self) }
                    let separator = delimiter == UInt8(ascii: "\t") ? "tabs" : "'\(Character(Unicode.Scalar(delimiter)))'"
                    throw RecordingError(
                        source: source, line: lineNumber,
                        problem: "\(found.count) \(found.count == 1 ? "field" : "fields") (\(found.joined(separator: ", "))) "
                            + "where the header on line \(header.line) has \(fieldCount) (\(header.names.joined(separator: ", ")))",
                        hint: "every row needs one value per header column, separated by \(separator)")
                }
                token = unquoted(fields[column])
            } else {
                token = line
            }
            let value = try interval(token, unit: effectiveUnit, source: source, line: lineNumber)
            total += value.microticks
            guard total <= longestRecording else {
                throw RecordingError(source: source, line: lineNumber, problem: "the recording is longer than a year",
                                     hint: "split it into shorter files")
            }
            intervals.append(value)
        }

        guard !intervals.isEmpty else {
            throw RecordingError(source: source, line: nil, problem: "no RR intervals found",
                                 hint: "expected one RR interval in milliseconds per line, or CSV with an rr column")
        }
        try checkUnit(intervals, unit: effectiveUnit, source: source)
        return RRRecording(intervals: intervals, layout: layout ?? .list, unit: effectiveUnit)
    }

    private static func interval(_ token: Bytes, unit: RRUnit, source: String, line: Int) throws(RecordingError) -> RRInterval {
        let outcome = DecimalParser.parse(token, scale: unit.microticks)
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

    private static func checkUnit(_ intervals: [RRInterval], unit: RRUnit, source: String) throws(RecordingError) {
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

    private static func formatted(_ value: Double) -> String {
        value < 10 ? String(Double(Int((value * 1000).rounded())) / 1000) : String(Int(value.rounded()))
    }

    // MARK: byte helpers

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    /// A number written with an exponent (`8.12e+02`) has a letter but is no header.
    private static func looksNumeric(_ line: Bytes) -> Bool {
        if case .value = DecimalParser.parse(line, scale: 1) { return true }
        return false
    }

    private static func trimmed(_ bytes: Bytes) -> Bytes {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    private static func unquoted(_ field: Bytes) -> Bytes {
        let field = trimmed(field)
        if field.count >= 2, field.first == UInt8(ascii: "\""), field.last == UInt8(ascii: "\"") {
            return trimmed(field.dropFirst().dropLast())
        }
        return field
    }

    private static func split(_ line: Bytes, on delimiter: UInt8) -> [Bytes] {
        line.split(separator: delimiter, omittingEmptySubsequences: false)
    }
}
