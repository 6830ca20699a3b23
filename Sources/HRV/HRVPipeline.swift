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
    /// Apart from the corrector, so the corrector's output is placed while it runs.
    private var timeline: BeatTimeline
    public var recording: RecordingTotals { timeline.recording }

    /// Artifacts detected so far, one count per detection (an ectopic beat changes two intervals
    /// but counts once).
    public var detections: ArtifactCounts { corrector?.detections ?? ArtifactCounts() }

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        corrector = configuration.correction.map(ArtifactCorrector.init(configuration:))
        timeline = BeatTimeline(configuration: configuration)
    }

    /// Feeds one measured interval. Updates come out after the corrector's look-ahead, in order.
    public mutating func append(_ interval: RRInterval, emit: (HRVUpdate) -> Void) {
        timeline.recording.rawBeats += 1
        // Optional chaining tells whether there is a corrector without `corrector == nil`, which
        // copied the whole corrector (retaining its buffers) on every beat.
        if corrector?.push(interval, emit: { timeline.place($0, emit: emit) }) == nil {
            timeline.place(CorrectedInterval(interval: interval, artifact: nil), emit: emit)
        }
    }

    /// The next interval does not follow the previous one (a recording gap or a reconnect): no
    /// successive difference spans the break, and the corrector starts afresh.
    public mutating func breakContinuity(emit: (HRVUpdate) -> Void) {
        finish(emit: emit)
        timeline.gapPending = true
    }

    /// Releases the beats held for look-ahead, at the end of a recording.
    public mutating func finish(emit: (HRVUpdate) -> Void) {
        corrector?.flush { timeline.place($0, emit: emit) }
    }

    static func microticks(seconds: Double) -> Int64 {
        Int64((seconds * Double(RRInterval.microticksPerSecond)).rounded())
    }
}

/// The beat timeline after correction: the ring of recent beats, the rolling windows over it and
/// the whole-recording totals.
private struct BeatTimeline {
    let lowQualityCorrectedShare: Double
    var ring: BeatRing
    var rmssdWindow: RollingWindow
    var sdnnWindow: RollingWindow
    /// The newest beat placed.
    var newest: Beat?
    /// Timeline position: end of the newest beat, in microticks.
    var now: Int64 = 0
    var gapPending = false
    var recording = RecordingTotals()

    init(configuration: HRVPipeline.Configuration) {
        lowQualityCorrectedShare = configuration.lowQualityCorrectedShare
        let longest = max(configuration.rmssdWindow, configuration.sdnnWindow)
        // Room for the longest window at 300 bpm; a faster run just shortens the window.
        ring = BeatRing(minimumCapacity: Int(longest * 5) + 16)
        rmssdWindow = RollingWindow(length: HRVPipeline.microticks(seconds: configuration.rmssdWindow))
        sdnnWindow = RollingWindow(length: HRVPipeline.microticks(seconds: configuration.sdnnWindow))
    }

    mutating func place(_ corrected: CorrectedInterval, emit: (HRVUpdate) -> Void) {
        now += corrected.interval.microticks
        let beat = Beat(interval: corrected.interval, time: now, artifact: corrected.artifact, followsGap: gapPending)
        gapPending = false
        var difference: Int64?
        if let newest, beat.formsDifference(after: newest) { difference = beat.interval.microticks - newest.interval.microticks }
        newest = beat
        let sequence = ring.nextSequence
        ring.append(recording.add(beat, difference: difference))
        rmssdWindow.advance(to: beat, in: ring)
        sdnnWindow.advance(to: beat, in: ring)
        emit(HRVUpdate(
            beat: beat, sequence: sequence,
            rmssdWindow: snapshot(rmssdWindow), sdnnWindow: snapshot(sdnnWindow)))
    }

    /// Inlined: as a call it was handed a copy of the whole timeline (256 bytes) each time.
    @inline(__always)
    private func snapshot(_ window: RollingWindow) -> WindowMetrics {
        let (statistics, correctedBeats) = window.contents(of: ring, totals: recording)
        return WindowMetrics(
            statistics: statistics,
            correctedBeats: correctedBeats,
            lowQualityLimit: lowQualityCorrectedShare,
            isFilled: now >= window.length)
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
