import SessionLog

/// Where a session's moments lie on the clock. Episodes, metrics and exercises are dated in
/// seconds of RR from the first beat; the clock time of such a position is the first beat's
/// clock time, plus the RR since, plus the length of every link loss before it (no beats, so no
/// RR, accrue during one). Clock-time records (notes, link changes) are placed on the RR
/// timeline at the last beat received before them, so a session streamed faster than real time
/// (a replay, a test) still shows each note where it was taken.
struct SessionTimeline {
    /// A stretch without beats between two beats, after a link loss.
    struct Gap {
        /// RR seconds at the last beat before it.
        var position: Double
        /// Clock seconds it lasted.
        var length: Double
    }

    /// Clock time of RR second 0: the first beat's time less its own interval.
    let origin: Double
    /// RR seconds of the whole session.
    let length: Double
    let gaps: [Gap]
    /// Each beat's clock time and RR seconds at its end, in order.
    private let beats: [(time: Double, seconds: Double)]

    init(_ file: SessionFile) {
        var beats: [(time: Double, seconds: Double)] = []
        beats.reserveCapacity(file.beats.count)
        var seconds = 0.0
        for beat in file.beats {
            seconds += Double(beat.ticks) / 1024
            beats.append((beat.time, seconds))
        }
        self.beats = beats
        length = seconds
        origin = file.beats.first.map { $0.time - Double($0.ticks) / 1024 } ?? file.header.start

        // Gaps sit between the beats of the packets around them.
        var gaps: [Gap] = []
        var beatsBefore = 0
        var pendingGap = false
        for step in file.steps {
            switch step {
            case .gap: pendingGap = beatsBefore > 0
            case .packet(let measurement, _):
                if pendingGap, beatsBefore < beats.count {
                    let last = beats[beatsBefore - 1], next = beats[beatsBefore]
                    let rr = next.seconds - last.seconds
                    gaps.append(Gap(position: last.seconds, length: max(0, next.time - rr - last.time)))
                }
                pendingGap = false
                beatsBefore += measurement.rrIntervals.count
            case .malformed, .exercise: break
            }
        }
        self.gaps = gaps
    }

    /// Clock time of a position on the RR timeline.
    func clock(_ seconds: Double) -> Double {
        origin + seconds + gaps.reduce(0) { $1.position < seconds ? $0 + $1.length : $0 }
    }

    /// Clock time of the session's last beat.
    var end: Double { clock(length) }

    /// RR seconds reached by clock time `time`: at the last beat received at or before it.
    func seconds(at time: Double) -> Double {
        var low = 0, high = beats.count
        while low < high {
            let middle = (low + high) / 2
            if beats[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : beats[low - 1].seconds
    }

    /// The stretches with beats, in clock time: the session less its link losses.
    var monitored: [(start: Double, end: Double)] {
        var spans: [(start: Double, end: Double)] = []
        var start = origin
        for gap in gaps {
            let gapStart = clock(gap.position)
            spans.append((start, gapStart))
            start = gapStart + gap.length
        }
        spans.append((start, end))
        return spans.filter { $0.end > $0.start }
    }
}
