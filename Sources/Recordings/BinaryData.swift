/// Bytes that text never holds: control characters other than tab, the line ends, vertical tab,
/// form feed and escape. A file with one is binary (a gzip, an EDF, a picture) and is said to be,
/// never echoed back.
public enum BinaryData {
    public static func isBinary(_ byte: UInt8) -> Bool {
        (byte < 0x20 && !(0x09...0x0D).contains(byte) && byte != 0x1B) || byte == 0x7F
    }

    /// Says where the first binary byte is: `line`, and `offset` from the start of the file.
    /// `expected` says what the file should be ("one RR interval per line…").
    public static func error(source: String, line: Int?, offset: Int64, byte: UInt8, expected: String) -> RecordingError {
        let hex = String(byte, radix: 16, uppercase: true)
        return RecordingError(
            source: source, line: line,
            problem: "binary data, not text (byte 0x\(hex.count == 1 ? "0" + hex : hex) at byte offset \(offset))",
            hint: "expected \(expected)")
    }
}
