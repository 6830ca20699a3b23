import HRV
import Platform

/// A recording run through the pipeline and judged per beat, with series rows when asked.
/// `analyze` and `baseline add` share it.
public struct RecordingAnalysis {
    public var judge: BeatJudge
    public var writer: SeriesWriter?

    /// Feeds every interval, releases the look-ahead and closes open episodes.
    public mutating func run(_ intervals: [RRInterval], through pipeline: inout HRVPipeline, output: inout FileStream) {
        writer?.writeHeader(to: &output)
        // Closure literals at each call, not a stored closure: captured variables then stay
        // unboxed and unchecked, which is a third of the per-beat cost otherwise.
        for interval in intervals { pipeline.append(interval) { observe($0, to: &output) } }
        pipeline.finish { observe($0, to: &output) }
        judge.finish()
    }

    private mutating func observe(_ update: HRVUpdate, to output: inout FileStream) {
        let assessment = judge.judge(update)
        writer?.write(update, assessment, to: &output)
    }

    public init(judge: BeatJudge, writer: SeriesWriter? = nil) {
        self.judge = judge
        self.writer = writer
    }
}
