import Recordings
import SessionLog

extension FuzzCheck {
    /// How the session reader's fast ways differ from the plain one on `bytes`, if they do: read
    /// in place (hrvmon's own lines) and in pieces of 1 to 61 bytes (chosen by the first byte),
    /// it must give what parsing every line whole gives, value for value or error for error.
    static func sessionReadingDifference(_ bytes: [UInt8]) -> String? {
        let pieceSize = 1 + Int(bytes.first ?? 0) % 61
        for detail in [SessionFileReader.Detail.full, .overview, .metrics] {
            let parsed = read(bytes, detail: detail, inPlace: false, pieceSize: max(bytes.count, 1))
            let fast = read(bytes, detail: detail, inPlace: true, pieceSize: pieceSize)
            if fast != parsed { return "read in place in pieces of \(pieceSize):\n\(fast)\nparsed whole:\n\(parsed)" }
        }
        return nil
    }

    /// The file as text (`dump`), or the error.
    private static func read(_ bytes: [UInt8], detail: SessionFileReader.Detail, inPlace: Bool, pieceSize: Int) -> String {
        do {
            var text = ""
            dump(try SessionFileReader.read(bytes, source: "fuzz", detail: detail, pieceSize: pieceSize, readingInPlace: inPlace), to: &text)
            return text
        } catch {
            return "\(error)"
        }
    }
}
