import Platform

/// Secrets and pseudonyms from the kernel's random source.
enum Randomness {
    static func hex(bytes count: Int) throws(StudyFailure) -> String {
        let bytes: [UInt8]
        do {
            let source = try InputFile(opening: "/dev/urandom")
            var buffer = [UInt8](repeating: 0, count: count)
            guard try source.read(into: &buffer) == count else { throw FileOpenError(path: "/dev/urandom", reason: "short read") }
            bytes = buffer
        } catch {
            throw .file("cannot read random bytes: \(error)")
        }
        return hexadecimal(bytes)
    }
}
