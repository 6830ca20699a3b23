import HRV
import Recordings

/// Any bytes as an RR file, in each unit: read or refused with a located error, never a trap; what
/// reads goes through the whole HRV pipeline.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRRFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for unit in [RRUnit.ms, .s, .ticks] {
        guard let recording = try? RRFileReader.read(bytes, source: "fuzz", unit: unit) else { continue }
        var pipeline = HRVPipeline()
        for interval in recording.intervals { pipeline.append(interval) { _ in } }
        pipeline.finish { _ in }
        precondition(pipeline.recording.rawBeats == recording.intervals.count)
    }
    return 0
}
