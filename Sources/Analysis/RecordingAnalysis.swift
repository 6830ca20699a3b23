import HRV
import Platform
import Recordings

/// A recording run through the pipeline and judged per beat, with series rows when asked, and
/// the whole recording's frequency domain, DFA, SampEn and stress index. `analyze` and `baseline
/// add` share it.
public struct RecordingAnalysis {
    public var judge: BeatJudge
    public var writer: SeriesWriter?
    /// Known once the recording is finished. Taken here, beside the pipeline rather than in it,
    /// so live monitoring, which never shows them, does not pay for them per beat.
    public private(set) var variability: VariabilityMetrics?
    private let measures = BatchWorker(RecordingVariability()) { $0.add($1) }
    /// The verdicts, on a thread of their own while a run writes no series rows (nothing reads
    /// them before the end then); nil when they are judged inline, and outside a run.
    private var judging: BatchWorker<VerdictInput, BeatJudge>?
    /// A resonance-frequency assessment taken during the recording (`analyze --resonance-steps`):
    /// it sees every corrected beat; read its result once the recording is finished.
    public var resonance: ResonanceAssessment?

    public init(judge: BeatJudge, writer: SeriesWriter? = nil) {
        self.judge = judge
        self.writer = writer
    }

    /// Feeds every interval, releases the look-ahead and closes open episodes.
    public mutating func run(_ intervals: [RRInterval], through pipeline: inout HRVPipeline, output: inout FileStream) {
        writer?.writeHeader(to: &output)
        if writer == nil { judging = BatchWorker(judge) { _ = $0.judge($1) } }
        // Closure literals at each call, not a stored closure: captured variables then stay
        // unboxed and unchecked, which is a third of the per-beat cost otherwise.
        for interval in intervals { pipeline.append(interval) { observe($0, to: &output) } }
        finish(through: &pipeline, output: &output)
    }

    /// Reads `input` piece by piece through `reader` and feeds each interval as its line
    /// completes, in memory that does not grow with the file; `progress` is told the bytes read
    /// after each piece. Returns how the file was laid out.
    public mutating func run(
        reading input: InputFile, with reader: inout RRStreamReader, through pipeline: inout HRVPipeline,
        output: inout FileStream, progress: (Int) -> Void = { _ in }
    ) throws(RecordingError) -> (layout: RRRecording.Layout, unit: RRUnit) {
        writer?.writeHeader(to: &output)
        if writer == nil { judging = BatchWorker(judge) { _ = $0.judge($1) } }
        // 64 KiB stays in the cache the parser reads it from; a 1 MiB piece took a millisecond
        // more on a day's file (page faults and misses) for no fewer reads that matter.
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count: Int
            do { count = try input.read(into: &piece) } catch {
                throw RecordingError(source: input.path, line: nil, problem: "cannot read: \(error.reason)", hint: "check the file")
            }
            guard count > 0 else { break }
            try piece.withUnsafeBufferPointer { (bytes) throws(RecordingError) in
                try reader.consume(UnsafeBufferPointer(rebasing: bytes[..<count])) { interval in
                    pipeline.append(interval) { observe($0, to: &output) }
                }
            }
            progress(input.position)
        }
        let format = try reader.finish { interval in pipeline.append(interval) { observe($0, to: &output) } }
        finish(through: &pipeline, output: &output)
        return format
    }

    private mutating func finish(through pipeline: inout HRVPipeline, output: inout FileStream) {
        pipeline.finish { observe($0, to: &output) }
        if let judging {
            judge = judging.finish()
            self.judging = nil
        }
        judge.finish()
        var measured = measures.finish()
        variability = measured.finish()
    }

    private mutating func observe(_ update: HRVUpdate, to output: inout FileStream) {
        measures.add(update.beat)
        resonance?.add(update.beat)
        if let judging { return judging.add(VerdictInput(update)) }
        let assessment = judge.judge(update)
        writer?.write(update, assessment, to: &output)
    }
}
