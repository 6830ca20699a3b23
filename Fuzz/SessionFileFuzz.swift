import SessionLog

/// Any bytes as a session file, read in full and as an overview: read or refused with a located error, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Listings read with .overview, which skips per-beat lines: it must be as safe.
    _ = try? SessionFileReader.read(bytes, source: "fuzz", detail: .overview)
    if let file = try? SessionFileReader.read(bytes, source: "fuzz") {
        precondition(file.beats.count == file.steps.reduce(0) { count, step in
            if case .packet(let measurement, _) = step { return count + measurement.rrIntervals.count }
            return count
        })
    }
    return 0
}
