/// The one path every RR interval takes, live or from a file: artifact correction, the beat
/// timeline, rolling windows and whole-recording totals. Deterministic: the same intervals give
/// the same updates, whatever the source.
public struct HRVPipeline {
    public struct Configuration: Equatable, Sendable {
        /// Window for RMSSD (and the short-term HR), seconds. 60 s: Esco & Flatt 2014.
        public var rmssdWindow: Double = 60
        /// Window for SDNN, seconds. 300 s: the standard short-term recording length.
        public var sdnnWindow: Double = 300
        /// Nil analyses the intervals as given.
        public var correction: ArtifactCorrector.Configuration? = .init()
        /// A window whose corrected share exceeds this is marked low quality (Kubios advises caution
        /// above 5 % corrected beats).
        public var lowQualityCorrectedShare: Double = 0.05

        public init() {}
    }

    public let configuration: Configuration
    private var corrector: ArtifactCorrector?
    private var ring: BeatRing
    private var rmssdWindow: RollingWindow
    private var sdnnWindow: RollingWindow
    /// Timeline position: end of the newest beat, in microticks.
    private var now: Int64 = 0
    private var gapPending = false
    public private(set) var recording = RecordingTotals()

    /// Artifacts detected so far, one count per detection (an ectopic beat changes two intervals
    /// but counts once).
    public var detections: ArtifactCounts { corrector?.detections ?? ArtifactCounts() }

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        corrector = configuration.correction.map(ArtifactCorrector.init(configuration:))
        let longest = max(configuration.rmssdWindow, configuration.sdnnWindow)
        // Room for the longest window at 300 bpm; a faster run just shortens the window.
        ring = BeatRing(minimumCapacity: Int(longest * 5) + 16)
        rmssdWindow = RollingWindow(length: Self.microticks(seconds: configuration.rmssdWindow))
        sdnnWindow = RollingWindow(length: Self.microticks(seconds: configuration.sdnnWindow))
    }

    /// Feeds one measured interval. Updates come out after the corrector's look-ahead, in order.
    public mutating func append(_ interval: RRInterval, emit: (HRVUpdate) -> Void) {
        recording.rawBeats += 1
        guard var corrector = takeCorrector() else {
            place(CorrectedInterval(interval: interval, artifact: nil), emit: emit)
            return
        }
        corrector.push(interval) { place($0, emit: emit) }
        self.corrector = corrector
    }

    /// The next interval does not follow the previous one (a recording gap or a reconnect): no
    /// successive difference spans the break, and the corrector starts afresh.
    public mutating func breakContinuity(emit: (HRVUpdate) -> Void) {
        finish(emit: emit)
        gapPending = true
    }

    /// Releases the beats held for look-ahead, at the end of a recording.
    public mutating func finish(emit: (HRVUpdate) -> Void) {
        guard var corrector = takeCorrector() else { return }
        corrector.flush { place($0, emit: emit) }
        self.corrector = corrector
    }

    /// Moves the corrector out of `self` so its output can be placed while it runs, without
    /// copying its buffers.
    private mutating func takeCorrector() -> ArtifactCorrector? {
        var taken: ArtifactCorrector?
        swap(&taken, &corrector)
        return taken
    }

    private mutating func place(_ corrected: CorrectedInterval, emit: (HRVUpdate) -> Void) {
        now += corrected.interval.microticks
        let beat = Beat(interval: corrected.interval, time: now, artifact: corrected.artifact, followsGap: gapPending)
        gapPending = false
        if ring.isFull {
            let overwritten = ring.oldestSequence
            if rmssdWindow.beatCount > 0, rmssdWindow.oldest == overwritten { rmssdWindow.evictOldest(from: ring) }
            if sdnnWindow.beatCount > 0, sdnnWindow.oldest == overwritten { sdnnWindow.evictOldest(from: ring) }
        }
        let previous = ring.nextSequence > 0 ? ring[ring.nextSequence - 1] : nil
        let sequence = ring.nextSequence
        ring.append(beat)
        rmssdWindow.admit(sequence, from: ring)
        sdnnWindow.admit(sequence, from: ring)
        recording.add(beat, after: previous)
        emit(HRVUpdate(
            beat: beat, sequence: sequence,
            rmssdWindow: snapshot(rmssdWindow), sdnnWindow: snapshot(sdnnWindow)))
    }

    private func snapshot(_ window: RollingWindow) -> WindowMetrics {
        WindowMetrics(
            statistics: window.statistics,
            correctedBeats: window.correctedBeats,
            lowQualityLimit: configuration.lowQualityCorrectedShare,
            isFilled: now >= window.length)
    }

    static func microticks(seconds: Double) -> Int64 {
        Int64((seconds * Double(RRInterval.microticksPerSecond)).rounded())
    }
}

/// What the pipeline reports after each placed beat.
public struct HRVUpdate: Equatable, Sendable {
    public var beat: Beat
    /// Position of the beat in the corrected sequence, from 0.
    public var sequence: Int
    public var rmssdWindow: WindowMetrics
    public var sdnnWindow: WindowMetrics
}
