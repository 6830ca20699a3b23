import ArgumentParser
import Recordings

/// How an RR file is read: the unit of its numbers and the column that holds them.
struct RecordingOptions: ParsableArguments {
    @Option(help: "Unit of the values where the file does not name one: ms, s or ticks (1/1024 s).")
    var unit: RRUnit = .ms

    @Option(help: ArgumentHelp(
        "The RR column of a delimited file, by header name or by position from 1 (default: the column the header names rr, RR (ms), RR-interval [ms], IBI and the like).",
        valueName: "name|n"))
    var column: RRColumn?

    func read(_ bytes: [UInt8], source: String) throws(RecordingError) -> RRRecording {
        try RRFileReader.read(bytes, source: source, unit: unit, column: column)
    }
}

extension RRUnit: ExpressibleByArgument {}
extension RRColumn: ExpressibleByArgument {}
