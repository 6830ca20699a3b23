/// Causal artifact detection and correction after Lipponen & Tarvainen 2019 (the Kubios method;
/// NeuroKit2 `signal_fixpeaks(method="kubios")`), for a live stream.
///
/// The reference classifies beat i with windows centred on it. Here each beat is classified once
/// `lookahead` (3) later beats have arrived — the rules need the next two successive differences,
/// and a long/short beat may pull in its successor — so output lags input by exactly 3 beats.
/// The windows are trailing instead of centred: the 91-value quartile-deviation windows end at the
/// newest arrival, and the 11-beat median spans beats i−7…i+3. Thresholds and rules see the
/// measured values (as the reference's first pass does), so a doubtful correction does not
/// cascade into its neighbours; a beat already reshaped by its predecessor's correction is not
/// classified again.
///
/// Every correction keeps the timeline: an ectopic or long/short beat is moved to the midpoint of
/// its neighbours (two intervals become their mean), a missed beat splits an interval in two, an
/// extra beat merges two intervals. The sum of the intervals out equals the sum in.
public struct ArtifactCorrector {
    public struct Configuration: Equatable, Sendable {
        /// Threshold multiplier on the quartile deviation (paper: 5.2).
        public var alpha = 5.2
        /// Ectopic decision boundary slope and offset (paper: 0.13, 0.17).
        public var c1 = 0.13
        public var c2 = 0.17
        /// Beats in the quartile-deviation windows (paper: 91).
        public var thresholdWindow = 91
        /// Beats in the median filter (paper: 11).
        public var medianWindow = 11
        /// Floor for both thresholds, in ms: in a steady rhythm (exercise, pacing) the quartile
        /// deviation tends to zero, and ordinary ±20 ms beat-to-beat changes would be flagged.
        public var minimumThresholdMilliseconds = 20.0
        /// Intervals outside this range (15–600 bpm) cannot be one heartbeat: they are passed on as
        /// `implausible` and break the sequence instead of being corrected.
        public var plausibleRange = RRInterval(milliseconds: 100)...RRInterval(milliseconds: 4000)

        public init() {}
    }

    /// Beats a classification waits for.
    public static let lookahead = 3

    private struct Pending {
        /// Current value, corrected when a neighbour's correction moved its beat.
        var value: Int64
        /// As measured (merged or split only by extra/missed corrections): what classification sees.
        var raw: Int64
        var artifact: ArtifactClass?
        /// Pulled in by its predecessor's long/short test: only the long/short rules apply to it.
        var longShortCandidate = false
    }

    public let configuration: Configuration
    public private(set) var detections = ArtifactCounts()
    /// The beats held for look-ahead, oldest first: at most `lookahead` + 1.
    private var pending = RingDeque<Pending>()
    /// Measured values of the last two emitted intervals, newest first.
    private var previous: Int64?
    private var beforePrevious: Int64?
    /// Last raw arrival, for the raw successive differences behind threshold 1.
    private var lastArrival: Int64?
    private var differenceSpread: SlidingQuantiles
    private var deviationSpread: SlidingQuantiles
    private var recentIntervals: SlidingQuantiles

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        differenceSpread = SlidingQuantiles(capacity: configuration.thresholdWindow)
        deviationSpread = SlidingQuantiles(capacity: configuration.thresholdWindow)
        recentIntervals = SlidingQuantiles(capacity: configuration.medianWindow)
    }

    public mutating func push(_ interval: RRInterval, emit: (CorrectedInterval) -> Void) {
        guard configuration.plausibleRange.contains(interval) else {
            flush(emit: emit)
            detections.implausible += 1
            emit(CorrectedInterval(interval: interval, artifact: .implausible))
            return
        }
        let value = interval.microticks
        if let lastArrival {
            let difference = Self.milliseconds(abs(value - lastArrival))
            differenceSpread.push(difference)
        }
        lastArrival = value
        recentIntervals.push(Self.milliseconds(value))
        pending.append(Pending(value: value, raw: value))
        while pending.count > Self.lookahead { classifyAndEmitHead(emit: emit) }
    }

    /// Releases the held beats at the end of a recording or before a break in the sequence; the
    /// last two cannot be classified (no successors), as in the reference.
    public mutating func flush(emit: (CorrectedInterval) -> Void) {
        while !pending.isEmpty {
            if pending.count >= 3 { classifyAndEmitHead(emit: emit) } else { emitHead(emit: emit) }
        }
        previous = nil
        beforePrevious = nil
        lastArrival = nil
    }

    private mutating func classifyAndEmitHead(emit: (CorrectedInterval) -> Void) {
        if let artifact = classifyHead() {
            detections[artifact] += 1
            correctHead(artifact, emit: emit)
        } else {
            emitHead(emit: emit)
        }
    }

    /// Figure 1 of Lipponen & Tarvainen 2019, on the head of `pending`.
    private mutating func classifyHead() -> ArtifactClass? {
        let c = configuration
        let rr0 = Self.milliseconds(pending[0].raw)
        // Deviation from the local median; longer-than-median counts half (as the reference).
        let median = recentIntervals.median ?? rr0
        var deviation = rr0 - median
        if deviation < 0 { deviation *= 2 }
        deviationSpread.push(abs(deviation))
        // A beat whose interval was just reshaped by its predecessor's correction is settled: its
        // measured difference still shows the artifact that was fixed.
        guard let previous, pending.count >= 3, pending[0].artifact == nil else { return nil }

        let floor = c.minimumThresholdMilliseconds
        let threshold1 = max(c.alpha * differenceSpread.quartileDeviation, floor)
        let threshold2 = max(c.alpha * deviationSpread.quartileDeviation, floor)
        let rr1 = Self.milliseconds(pending[1].raw)
        let rr2 = Self.milliseconds(pending[2].raw)
        let before = Self.milliseconds(previous)
        // Successive differences around the head, normalised by threshold 1.
        let d0 = (rr0 - before) / threshold1
        let d1 = (rr1 - rr0) / threshold1
        let d2 = (rr2 - rr1) / threshold1
        let dBefore = beforePrevious.map { (before - Self.milliseconds($0)) / threshold1 } ?? 0
        let m0 = deviation / threshold2

        let candidate = pending[0].longShortCandidate
        if !candidate {
            // The reference's ectopic test fires on the interval after a premature (or late)
            // beat: short-then-long around the beat between them. The misplaced beat is this
            // one, so the test is applied one beat ahead and the beat is moved here.
            // The jump into this beat must be at least half the jump after the next one, or the
            // pattern is the next beat's own (a premature beat one later, whose compensatory
            // pause makes d2 the large one) and is left to its turn.
            let s12Next = d1 > 0 ? max(d0, d2) : min(d0, d2)
            if (d1 > 1 && s12Next < -c.c1 * d1 - c.c2) || (d1 < -1 && s12Next > -c.c1 * d1 + c.c2),
               abs(d0) >= abs(d2) / 2 {
                return .ectopic
            }
            guard abs(d0) > 1 else { return nil }
            let s12 = d0 > 0 ? max(dBefore, d1) : min(dBefore, d1)
            if (d0 > 1 && s12 < -c.c1 * d0 - c.c2) || (d0 < -1 && s12 > -c.c1 * d0 + c.c2) {
                return .ectopic
            }
            if abs(d1) < abs(d2) { pending[1].longShortCandidate = true }
        }
        let s22 = d0 >= 0 ? min(d1, d2) : max(d1, d2)
        let long = d0 > 1 && s22 < -1
        let short = d0 < -1 && s22 > 1
        guard long || short || abs(m0) > 3 else { return nil }
        // Beyond the reference: a merge or split must bring the interval nearer the local median,
        // or a wide threshold in a very variable rhythm turns sinus beats into invented or
        // deleted ones.
        let distance = abs(rr0 - median)
        let merged = abs(rr0 + rr1 - median)
        if short && merged < threshold2 && merged < distance { return .extra }
        let split = abs(rr0 / 2 - median)
        if long && split < threshold2 && split < distance { return .missed }
        return .longShort
    }

    private mutating func correctHead(_ artifact: ArtifactClass, emit: (CorrectedInterval) -> Void) {
        switch artifact {
        case .ectopic, .longShort:
            // Move the beat to the midpoint between its neighbours.
            let pair = pending[0].value + pending[1].value
            pending[0].value = pair / 2
            pending[1].value = pair - pair / 2
            pending[0].artifact = artifact
            pending[1].artifact = pending[1].artifact ?? artifact
            emitHead(emit: emit)
        case .missed:
            let whole = pending[0].value
            pending[0].value = whole / 2
            pending[0].raw = whole / 2
            pending[0].artifact = .missed
            emitHead(emit: emit)
            pending.prepend(Pending(value: whole - whole / 2, raw: whole - whole / 2, artifact: .missed))
            emitHead(emit: emit)
        case .extra:
            // The head absorbs its successor and takes its place.
            var merged = pending.removeFirst()
            merged.value += pending[0].value
            merged.raw += pending[0].raw
            merged.artifact = .extra
            pending[0] = merged
            emitHead(emit: emit)
        case .implausible:
            preconditionFailure("implausible intervals never reach classification")
        }
    }

    private mutating func emitHead(emit: (CorrectedInterval) -> Void) {
        let head = pending.removeFirst()
        beforePrevious = previous
        // After a confident correction (an ectopic beat put back in line) the next beat is judged
        // against the corrected interval; after the others, against the measured one, so a
        // doubtful correction cannot cascade.
        previous = head.artifact == .ectopic ? head.value : head.raw
        emit(CorrectedInterval(interval: RRInterval(microticks: head.value), artifact: head.artifact))
    }

    private static func milliseconds(_ microticks: Int64) -> Double {
        Double(microticks) / Double(RRInterval.microticksPerMillisecond)
    }
}

/// An interval leaving the corrector: as measured, or changed by the named correction.
public struct CorrectedInterval: Equatable, Sendable {
    public var interval: RRInterval
    public var artifact: ArtifactClass?
}
