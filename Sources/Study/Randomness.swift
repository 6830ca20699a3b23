import Platform

/// Secrets, pseudonyms and time shifts from the kernel's random source.
enum Randomness {
    static func hex(bytes count: Int) throws(StudyFailure) -> String {
        hexadecimal(try bytes(count))
    }

    /// A number in `range`, uniform (to one part in 2⁶⁴ of the range's width).
    static func integer(in range: ClosedRange<Int>) throws(StudyFailure) -> Int {
        let value = try bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return range.lowerBound + Int(value % UInt64(range.count))
    }

    private static func bytes(_ count: Int) throws(StudyFailure) -> [UInt8] {
        do {
            let source = try InputFile(opening: "/dev/urandom")
            var buffer = [UInt8](repeating: 0, count: count)
            guard try source.read(into: &buffer) == count else { throw FileOpenError(path: "/dev/urandom", reason: "short read") }
            return buffer
        } catch {
            throw .file("cannot read random bytes: \(error)")
        }
    }
}
