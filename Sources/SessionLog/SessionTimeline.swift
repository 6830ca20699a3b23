/// Where a session's moments lie on the clock. Episodes, metrics and exercises are dated in
/// seconds of RR from the first beat; the clock time of such a position is the first beat's
/// clock time, plus the RR since, plus the length of every link loss before it (no beats, so no
/// RR, accrue during one). Clock-time records (notes, link changes) are placed on the RR
/// timeline where the last notification before them left it, so a session streamed faster than
/// real time (a replay, a test) still shows each note where it was taken.
public struct SessionTimeline {
    /// A stretch without beats between two beats, after a link loss.
    public struct Gap {
        /// RR seconds at the last beat before it.
        public var position: Double
        /// Clock seconds it lasted.
        public var length: Double
    }

    /// Clock time of RR second 0: the first beat's time less its own interval.
    public let origin: Double
    /// RR seconds of the whole session.
    public let length: Double
    public let gaps: [Gap]
    /// Each notification's arrival and the RR seconds after its beats, in order.
    private let received: [(time: Double, seconds: Double)]

    public init(_ file: SessionFile) {
        var received: [(time: Double, seconds: Double)] = []
        var gaps: [Gap] = []
        var seconds = 0.0
        var beats = 0
        var pendingGap = false
        for step in file.steps {
            switch step {
            case .gap: pendingGap = beats > 0
            case .packet(let measurement, let time):
                // The gap lasted from the last beat before it to the start of the next beat.
                if pendingGap, beats < file.beats.count {
                    let last = file.beats[beats - 1], next = file.beats[beats]
                    gaps.append(Gap(position: seconds, length: max(0, next.time - Double(next.ticks) / 1024 - last.time)))
                }
                pendingGap = false
                seconds = measurement.rrIntervals.reduce(seconds) { $0 + Double($1) / 1024 }
                beats += measurement.rrIntervals.count
                received.append((time, seconds))
            case .malformed, .exercise, .desk, .motion: break
            }
        }
        self.received = received
        self.gaps = gaps
        length = seconds
        origin = file.beats.first.map { $0.time - Double($0.ticks) / 1024 } ?? file.header.start
    }

    /// Clock time of a position on the RR timeline.
    public func clock(_ seconds: Double) -> Double {
        origin + seconds + gaps.reduce(0) { $1.position < seconds ? $0 + $1.length : $0 }
    }

    /// Clock time of the session's last beat.
    public var end: Double { clock(length) }

    /// RR seconds reached by clock time `time`: after the last notification received at or
    /// before it.
    public func seconds(at time: Double) -> Double {
        var low = 0, high = received.count
        while low < high {
            let middle = (low + high) / 2
            if received[middle].time <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : received[low - 1].seconds
    }

    /// The stretches with beats, in clock time: the session less its link losses.
    public var monitored: [(start: Double, end: Double)] {
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
