import HRV

/// Reads an RR recording in pieces of any size, in constant memory: bytes in, intervals out as
/// their lines complete. `RRFileReader.read` is this reader given the whole file at once, so a
/// file gives the same intervals and the same errors however it is read.
///
/// The unit is judged on the first `RRFileReader.unitSample` intervals (their median must be a
/// heartbeat's), which are held back until then: nothing reaches the caller in a wrong unit.
public struct RRStreamReader {
    public let source: String
    private let chosen: RRColumn?
    private var unit: RRUnit

    private var layout: RRRecording.Layout?
    private var isCSV = false
    private var column = 0
    private var fieldCount = 1
    private var header: (line: Int, names: [String]) = (0, [])
    private var delimiter = UInt8(ascii: ",")

    private var lineNumber = 0
    /// Where the next line starts in the file, in bytes.
    private var offset: Int64 = 0
    private var total: Int64 = 0
    /// The start of a line the previous piece cut off.
    private var carry: [UInt8] = []
    /// Intervals read before the unit was judged.
    private var held: [RRInterval] = []
    private var unitJudged = false
    public private(set) var count = 0
    package var lineLimit = LineLimit.standard

    /// - Parameters:
    ///   - unit: the unit of a list file or of a column whose name states none.
    ///   - column: the RR column, when the header names none the reader recognises, or the file
    ///     has several columns and no header.
    public init(source: String, unit: RRUnit = .ms, column: RRColumn? = nil) {
        self.source = source
        self.unit = unit
        chosen = column
        held.reserveCapacity(RRFileReader.unitSample)
    }

    /// The next piece of the file; `emit` gets every interval its complete lines hold.
    public mutating func consume(_ piece: UnsafeBufferPointer<UInt8>, emit: (RRInterval) -> Void) throws(RecordingError) {
        var lineStart = 0
        while true {
            if carry.isEmpty, unitJudged, layout == .list,
                let (value, newline) = Self.plainLine(in: piece, from: lineStart, scale: unit.microticks),
                total + value.microticks <= RRFileReader.longestRecording
            {
                lineNumber += 1
                offset += Int64(newline + 1 - lineStart)
                total += value.microticks
                count += 1
                emit(value)
                lineStart = newline + 1
                continue
            }
            guard let newline = piece[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            try checkLength(carry.count + newline - lineStart)
            if carry.isEmpty {
                try take(piece[lineStart..<newline], emit: emit)
            } else {
                carry.append(contentsOf: piece[lineStart..<newline])
                let line = carry
                carry.removeAll(keepingCapacity: true)
                try line.withUnsafeBufferPointer { (line) throws(RecordingError) in try take(line[...], emit: emit) }
            }
            lineStart = newline + 1
        }
        try checkLength(carry.count + piece.count - lineStart)
        carry.append(contentsOf: piece[lineStart...])
    }

    private func checkLength(_ length: Int) throws(RecordingError) {
        try lineLimit.check(length, line: lineNumber + 1, source: source, expected: "an RR recording")
    }

    /// The interval of a list file's line written as plain digits with at most one decimal point
    /// (`812`, `781.25`), ending at a newline in `piece`, read in one pass over its bytes: most
    /// lines of a long recording. Nil for any other line, or a value out of range, which the
    /// general path then reads (and reports). Static: as a method it was handed a copy of the
    /// whole reader (152 bytes) for every line; inlined into `consume`'s loop.
    @inline(__always)
    private static func plainLine(
        in piece: UnsafeBufferPointer<UInt8>, from start: Int, scale: Int64
    ) -> (RRInterval, newline: Int)? {
        var mantissa: UInt64 = 0
        var index = start
        // Integer digits, then the fraction's: two tight loops, the counts from the positions,
        // where one loop over both kept three counters and asked at each byte which part it was in.
        readDigits(of: piece, from: &index, into: &mantissa)
        let integerDigits = index - start
        var fractionDigits = 0
        if index < piece.count, piece[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            readDigits(of: piece, from: &index, into: &mantissa)
            fractionDigits = index - fractionStart
        }
        let digits = integerDigits + fractionDigits
        // Up to 18 digits the mantissa is exact, as DecimalParser keeps it.
        guard index < piece.count, piece[index] == UInt8(ascii: "\n"), digits > 0, digits <= 18,
            case .value(let microticks) = DecimalParser.value(
                mantissa: mantissa, exponent: -fractionDigits, negative: false, scale: scale),
            microticks > 0, microticks <= RRFileReader.longestInterval.microticks
        else { return nil }
        return (RRInterval(microticks: microticks), index)
    }

    /// Appends the decimal digits from `index` on to `mantissa` (wrapping: past 18 digits the
    /// caller rejects the line), leaving `index` at the first other byte.
    @inline(__always)
    private static func readDigits(of piece: UnsafeBufferPointer<UInt8>, from index: inout Int, into mantissa: inout UInt64) {
        while index < piece.count, case let digit = piece[index] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            index += 1
        }
    }

    /// The end of the file: its last line, the unit judged if it was not yet, and what was read.
    public mutating func finish(emit: (RRInterval) -> Void) throws(RecordingError) -> (layout: RRRecording.Layout, unit: RRUnit) {
        if !carry.isEmpty {
            let line = carry
            carry = []
            try line.withUnsafeBufferPointer { (line) throws(RecordingError) in try take(line[...], emit: emit) }
        }
        guard count > 0 else {
            throw RecordingError(source: source, line: nil, problem: "no RR intervals found",
                                 hint: "expected one RR interval in milliseconds per line, or CSV with an rr column")
        }
        if !unitJudged { try release(emit: emit) }
        return (layout ?? .list, unit)
    }

    private mutating func take(_ text: RRFileReader.Bytes, emit: (RRInterval) -> Void) throws(RecordingError) {
        defer { offset += Int64(text.count + 1) }
        guard let value = try interval(on: text) else { return }
        count += 1
        if unitJudged {
            emit(value)
        } else {
            held.append(value)
            if held.count == RRFileReader.unitSample { try release(emit: emit) }
        }
    }

    private mutating func release(emit: (RRInterval) -> Void) throws(RecordingError) {
        try RRFileReader.checkUnit(held, unit: unit, source: source)
        unitJudged = true
        held.forEach(emit)
        held = []
    }

    /// The interval on one line; nil for blank lines, comments and the header.
    private mutating func interval(on text: RRFileReader.Bytes) throws(RecordingError) -> RRInterval? {
        lineNumber += 1
        if let binary = text.firstIndex(where: BinaryData.isBinary) {
            throw BinaryData.error(
                source: source, line: lineNumber, offset: offset + Int64(binary - text.startIndex), byte: text[binary],
                expected: "text: one RR interval per line, or delimited text (CSV) with an RR column")
        }
        var line = text
        if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }  // UTF-8 BOM
        line = RRFileReader.trimmed(line)
        if line.isEmpty || line.first == UInt8(ascii: "#") { return nil }
        if layout == nil, try readLayout(line) { return nil }

        let token: RRFileReader.Bytes
        if isCSV {
            let fields = RRFileReader.split(line, on: delimiter)
            guard fields.count == fieldCount else { throw fieldCountError(fields) }
            token = RRFileReader.unquoted(fields[column])
        } else {
            token = line
        }
        let value = try RRFileReader.interval(
            token, unit: unit, decimalComma: isCSV && delimiter != UInt8(ascii: ","), source: source, line: lineNumber)
        total += value.microticks
        guard total <= RRFileReader.longestRecording else {
            throw RecordingError(source: source, line: lineNumber, problem: "the recording is longer than a year",
                                 hint: "split it into shorter files")
        }
        return value
    }

    /// Learns the layout from the first line that is not blank or a comment; true when that line
    /// is a header.
    private mutating func readLayout(_ line: RRFileReader.Bytes) throws(RecordingError) -> Bool {
        if let found = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")].first(where: line.contains) {
            delimiter = found
        }
        // A header has a name in some field: letters that are not a number's (`8.12e+02`, `1e400`).
        let fields = RRFileReader.split(line, on: delimiter).map(RRFileReader.unquoted)
        if fields.contains(where: { $0.contains(where: RRFileReader.isLetter) && !RRFileReader.looksNumeric($0) }) {
            let names = fields.map { String(decoding: $0, as: UTF8.self) }
            let (index, namedUnit) = try RRFileReader.headerColumn(names, chosen: chosen, source: source, line: lineNumber)
            column = index
            fieldCount = names.count
            header = (lineNumber, names)
            if let namedUnit { unit = namedUnit }
            layout = .csv(column: names[index])
            isCSV = true
            return true
        }
        switch chosen {
        case .named(let name)?:
            throw RecordingError(
                source: source, line: lineNumber, problem: "--column \(name): the file has no header line to find it in",
                hint: "choose the column by its position instead, e.g. --column 2")
        case .position(let position)? where position > 1 || line.contains(delimiter):
            fieldCount = RRFileReader.split(line, on: delimiter).count
            guard position <= fieldCount else {
                throw RecordingError(
                    source: source, line: lineNumber,
                    problem: "--column \(position): the first line has \(fieldCount) \(fieldCount == 1 ? "field" : "fields")",
                    hint: "choose a column from 1 to \(fieldCount)")
            }
            column = position - 1
            layout = .csv(column: "\(position)")
            isCSV = true
        case .position?, nil:
            layout = .list
            fieldCount = 1
        }
        return false
    }

    private func fieldCountError(_ fields: [RRFileReader.Bytes]) -> RecordingError {
        let found = fields.map { String(decoding: RRFileReader.unquoted($0), as: UTF8.self) }
        let separator = delimiter == UInt8(ascii: "\t") ? "tabs" : "'\(Character(Unicode.Scalar(delimiter)))'"
        let expected = header.line > 0
            ? "where the header on line \(header.line) has \(fieldCount) (\(header.names.joined(separator: ", ")))"
            : "where the first line has \(fieldCount)"
        return RecordingError(
            source: source, line: lineNumber,
            problem: "\(found.count) \(found.count == 1 ? "field" : "fields") (\(found.joined(separator: ", "))) " + expected,
            hint: "every row needs one value per column, separated by \(separator)")
    }
}
