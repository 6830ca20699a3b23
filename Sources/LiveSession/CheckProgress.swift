import HRV
import LivePipeline
import Platform
import Presentation
import SessionLog
import Settings

/// `hrvmon check` under way: each corrected beat into the measurement, the countdown for the
/// person lying still, the link's changes in words; `onComplete` once the minutes are in. The
/// countdown moves with the beats, so nothing wakes between notifications.
public final class CheckProgress: SessionOutput {
    public private(set) var check: MorningCheck
    /// Where the countdown and the link's news go (nil: nowhere); on a terminal the countdown is
    /// one line redrawn, otherwise a line a phase and every half minute.
    private var output: FileStream?
    private let redraws: Bool
    private var shown: (settling: Bool, step: Int)?
    private var heartRate: Double?
    public var onComplete: () -> Void = {}
    private var completed = false

    public init(_ check: MorningCheck, output: FileStream?, redraws: Bool) {
        self.check = check
        self.output = output
        self.redraws = redraws
    }

    public func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
        switch event {
        case .live(.placed(let beat)):
            check.add(beat)
            if check.isComplete {
                guard !completed else { return }
                completed = true
                if redraws { write("\r\u{1B}[K") }
                onComplete()
            } else {
                countdown()
            }
        case .live(.metrics(let report)):
            heartRate = report.rmssdWindow.metrics?.meanHR ?? heartRate
        case .link, .notice, .sensor(.identity):
            // Once measured, the link's stopping is no news.
            guard !completed, let text = SessionText.line(for: event) else { return }
            write((redraws ? "\r\u{1B}[K" : "") + text + "\n")
            shown = nil
        default:
            break
        }
    }

    public func finish(_ summary: SessionSummary) {}

    private func countdown() {
        let settling = check.isSettling
        let left = (settling ? check.settleSeconds : check.totalSeconds) - check.elapsed
        let what = settling ? "settling, not measured yet" : "measuring"
        let rate = heartRate.map { "  HR \(Formatting.fixed($0, digits: 0)) bpm" } ?? ""
        if redraws {
            write("\r\u{1B}[K\(what): \(Formatting.clock(left)) left\(rate)")
            return
        }
        let step = Int((left / 30).rounded(.up))
        guard shown?.settling != settling || shown?.step != step else { return }
        shown = (settling, step)
        write("\(what): \(Formatting.clock(left)) left\(rate)\n")
    }

    private func write(_ text: String) {
        output?.write(text)
        output?.flush()
    }
}

extension SessionRun {
    /// A morning check: the live pipeline as `monitor` runs it (the same correction and
    /// windows), its events told to `progress` alone.
    public convenience init(checking progress: CheckProgress, settings: Settings, baseline: Baseline?) throws {
        self.init(
            session: SessionPipeline(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: baseline)),
            outputs: [progress])
    }
}
