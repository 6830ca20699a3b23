import RealModule

/// Turns the pipeline's windows into a state, a 0–100 level and stress/activity episodes.
///
/// Stress is low vagal activity that nothing else explains (the Firstbeat/Garmin practice):
/// ln RMSSD at least `onsetMargin` SDs below the resting reference together with heart rate
/// above it, sustained for `sustain` seconds — a larger drop (`calmBreathingOnsetMargin`) unless
/// breathing is faster than at rest; the episode is then dated back to where the condition began, and ends where ln RMSSD came back within `releaseMargin` SDs (or heart rate
/// to the reference) for `release` seconds. Mental stress lowers RMSSD modestly and raises heart
/// rate by a few bpm (Castaldo et al. 2015), and so do other things, which are told apart first:
///
/// - exercise (`activity`): heart rate far above the reference;
/// - the `recovery` after it: heart rate above and RMSSD below the reference for 10–60 minutes
///   (Stanley et al. 2013; Michael et al. 2017), until both are back near it;
/// - a change of `posture`: an abrupt heart-rate step (``PostureChange``), after which the
///   reference is measured again in the new posture;
/// - slow paced breathing: one tall low-frequency peak in the RR spectrum (``BreathingEstimate``),
///   with more power than the resting RMSSD² (Mayer waves make a small concentrated peak too);
///   or, while the chest accelerometer reads breathing (``ChestBreathing``), its rate.
///
/// With a chest accelerometer (``observe(_:at:)``) the first two are not guessed from heart rate:
/// moving (``MotionHistory``) is activity whatever the heart rate, and still never is, so a rise
/// at rest is stress unless a change of posture — an abrupt step just after the chest moved —
/// explains it. Without one (or when its seconds stop coming) the detector reads heart rate alone.
///
/// Input at the desk (``isSitting``) stands in for a still chest when there is no accelerometer:
/// a person typing sits, so a rise then is not exercise (docs/science.md, "Evidence of sitting").
///
/// The reference is rolling (``RestingReference``), so a long recording is judged against its
/// own recent rest, not the morning's. Time is the beat timeline, so the same RR give the same
/// states and episodes live and offline.
public struct StressDetector {
    public struct Configuration: Equatable, Sendable {
        /// Seconds at the start of a session used as the resting baseline when there is no
        /// personal one.
        public var calibration = 180.0
        /// Smallest ln RMSSD spread used: a few minutes at rest understate day-to-day variation
        /// (HRV4Training's normal band is ±0.5–1 SD of weeks of mornings).
        public var minimumSD = 0.2
        /// SDs below the reference ln RMSSD that start an episode while breathing is faster than
        /// at rest (mental stress quickens breathing by a few breaths a minute: Wientjes 1992;
        /// Vlemincx et al. 2011)…
        public var onsetMargin = 1.25
        /// …and otherwise (talking, for one, lowers RMSSD a little with irregular, not faster,
        /// breathing).
        public var calmBreathingOnsetMargin = 2.5
        /// Breaths per minute above the reference's rate that count as faster breathing.
        public var fasterBreathing = 3.0
        /// SDs below the reference under which an open episode continues.
        public var releaseMargin = 1.0
        /// Heart rate must exceed the reference by this much (bpm) for stress.
        public var heartRateMargin = 5.0
        /// Seconds the stress condition must hold before an episode is declared, and the release
        /// condition before it ends.
        public var sustain = 15.0
        public var release = 45.0
        /// A break in the condition shorter than this does not restart the sustain clock.
        public var grace = 10.0
        /// Heart rate of the last 8 beats this far above the reference is physical activity, bpm…
        public var activityMargin = 40.0
        /// …and so is a 60 s window this far above it.
        public var activityWindowMargin = 25.0
        /// Activity ends (and recovery begins) once the last beats are below reference + this, or
        /// have fallen `activityDrop` bpm below their peak of the last minute (a normal first
        /// minute of recovery drops 12 bpm or more: Cole et al. 1999).
        public var activityExitMargin = 20.0
        public var activityDrop = 15.0
        /// With motion, a heart-rate step is a change of posture only if the chest moved this many
        /// seconds before it is recognised (the overshoot's fall comes 10–25 s after standing up).
        public var postureMovement = 45.0
        /// With motion, after this many seconds without movement the stress condition needs to
        /// hold only `stillSustain` seconds: nothing but the mind then raises heart rate and
        /// lowers RMSSD together for long.
        public var stillBefore = 60.0
        public var stillSustain = 5.0
        /// Recovery ends once window heart rate is within this of the reference and ln RMSSD
        /// within `releaseMargin` SDs, for `release` seconds…
        public var recoveryMargin = 5.0
        /// …or after this many seconds, whichever is first.
        public var recoveryMaximum = 3600.0
        /// An abrupt heart-rate step of this many bpm is a change of posture…
        public var postureStep = 15.0
        /// …after which the reference is sampled afresh from this many seconds on: the RMSSD
        /// window's length, while it still holds beats of the old posture.
        public var postureSettling = 60.0
        /// A stress episode older than this is a new normal: its windows join the reference, so a
        /// lasting change is taken over within about half the reference's half hour.
        public var referenceAdaptsAfter = 1200.0
        /// Windows with more corrected beats than this are not judged (`unknown`). Higher than the
        /// pipeline's 5 % low-quality mark: in a 60 s window a single ectopic beat already moves
        /// two intervals (3 %), and corrected RMSSD stays usable well beyond that.
        public var maximumCorrectedShare = 0.15

        public init() {}
    }

    public let configuration: Configuration
    public private(set) var baseline: Baseline?
    /// What the session's first `calibration` seconds measured, also when a personal baseline is
    /// judged against: the day's resting values for the personal history.
    public private(set) var sessionBaseline: Baseline?
    private var calibration = CalibrationSamples()
    private var reference = RestingReference()
    private var recent = RecentBeats()
    var spectrum = BreathingSpectrum()
    private var posture: PostureChange
    /// Breaths per minute of the last minute, and whether that is slow paced breathing.
    var breathingRate: Double?
    var pacedBreathing = false
    /// The last three breathing rates (half a minute), and their median once there are three:
    /// speech makes single ones jump. Taken when a rate comes, not on every beat.
    var breathingRates: [Double] = {
        var rates: [Double] = []
        rates.reserveCapacity(3)
        return rates
    }()
    var medianBreathingRate: Double?

    private var stressCandidate: (start: Double, lastTrue: Double)?
    private var releaseStart: Double?
    private var openStress: StressEpisode?
    private var openActivity: StressEpisode?
    /// Peak heart rate of the last minute of activity.
    private var activityPeak = SlidingExtremum(.maximum)
    private var recovery: (start: Double, lowest: Double, settled: Double?)?
    private var postureSettling = false
    private var lastTime = 0.0
    /// Evidence from outside the strap that the wearer sits: keyboard or pointer input at the
    /// desk within the last minute. While true, no heart-rate rise is activity (an open activity
    /// ends and its recovery begins); false says nothing, and the detector reads heart rate alone.
    /// A strap's motion, when it comes, decides instead.
    public var isSitting = false
    private var motion = MotionHistory()
    /// The chest's newest breathing and when it came: read instead of the RR spectrum while fresh.
    var chestBreathing: (breathing: ChestBreathing, time: Double)?
    /// Where `breathingRate` was read.
    var breathingSource: BreathingSource?

    /// - Parameter baseline: a personal baseline; without one the first `calibration` seconds
    ///   of the session are measured.
    public init(configuration: Configuration = .init(), baseline: Baseline? = nil) {
        self.configuration = configuration
        self.baseline = baseline
        posture = PostureChange(step: configuration.postureStep)
    }

    /// The reference ln RMSSD and heart rate judged against now: the rolling reference once it
    /// has a minute of samples, the baseline before.
    public var referenceLevel: ReferenceLevel? {
        if reference.isReady, let level = reference.level {
            return ReferenceLevel(lnRMSSD: level.lnRMSSD, heartRate: level.heartRate, isRolling: true)
        }
        return baseline.map { ReferenceLevel(lnRMSSD: $0.lnRMSSDMean, heartRate: $0.restingHR, isRolling: false) }
    }

    /// A second of the chest accelerometer, ending at `time` on the beat timeline.
    public mutating func observe(_ second: MotionSecond, at time: Double) {
        motion.add(second, at: time)
        chestBreathing = second.breathing.map { ($0, time) }
    }

    /// Judges the state after one beat, from the part of its update a verdict reads; `emit`
    /// receives every episode that ends.
    public mutating func update(
        _ update: VerdictInput, sensorContact: Bool = true, emit: (StressEpisode) -> Void
    ) -> StressAssessment {
        let time = update.beat.seconds
        lastTime = time
        if update.beat.followsGap {
            recent.removeAll()
            spectrum.removeAll()
            posture.reset()
        }
        var breathingMoved = false
        if update.beat.isUsable {
            let milliseconds = update.beat.interval.milliseconds
            recent.append(milliseconds: milliseconds)
            breathingMoved = spectrum.append(time: time, milliseconds: milliseconds)
        }
        let window = update.rmssdWindow
        let usable = sensorContact && window.isFilled && window.correctedShare <= configuration.maximumCorrectedShare
        let lnRMSSD = usable ? window.statistics.rmssd.flatMap { $0 > 0 ? Double.log($0) : nil } : nil
        let heartRate = usable ? window.statistics.meanHR : nil
        if breathingMoved { readBreathing(restingLnRMSSD: referenceLevel?.lnRMSSD ?? lnRMSSD, at: time) }

        if sessionBaseline == nil {
            if let lnRMSSD, let heartRate {
                calibration.add(lnRMSSD: lnRMSSD, heartRate: heartRate, at: time)
                reference.add(lnRMSSD: lnRMSSD, heartRate: heartRate, breathingRate: breathingRate, at: time)
            }
            if time >= configuration.calibration {
                sessionBaseline = calibration.baseline(minimumSD: configuration.minimumSD)
            }
        }
        guard let baseline else {
            baseline = sessionBaseline
            return StressAssessment(
                state: .unknown, isCalibrating: baseline == nil, breathingRate: breathingRate, breathingSource: breathingSource)
        }
        // Without skin contact the intervals say nothing about the body.
        guard sensorContact, let judgedAgainst = referenceLevel else {
            return StressAssessment(state: .unknown, isCalibrating: false)
        }
        let (referenceLn, referenceHR) = (judgedAgainst.lnRMSSD, judgedAgainst.heartRate)
        let z = lnRMSSD.map { ($0 - referenceLn) / baseline.lnRMSSDSD }
        let aboveRest = heartRate.map { $0 - referenceHR }
        var judged = StressAssessment(
            state: .unknown, zScore: z, heartRateAboveRest: aboveRest, isCalibrating: false, breathingRate: breathingRate,
            breathingSource: breathingSource)

        let recentHeartRate = recent.heartRate
        let moving: Bool? = motion.isKnown(at: time) ? motion.isMoving(at: time) : nil
        judged.motion = moving.map { $0 ? (motion.latest == .walking ? .walking : .moving) : .still }
        if trackActivity(time: time, heartRate: recentHeartRate, moving: moving, windowAboveRest: aboveRest, referenceHR: referenceHR, emit: emit)
            || trackRecovery(time: time, z: z, aboveRest: aboveRest)
        {
            closeStress(at: time, emit: emit)
            posture.reset()
            judged.state = openActivity != nil ? .activity : .recovery
            return judged
        }
        // While the reference is measured afresh, a further step restarts nothing.
        if postureSettling {
            posture.reset()
        } else if let recentHeartRate, let change = posture.observe(heartRate: recentHeartRate, at: time),
            moving == nil || motion.moved(within: configuration.postureMovement, before: time)
        {
            closeStress(at: change, emit: emit)
            // The 60 s window holds beats of the old posture for a minute after the change.
            reference.restart(notBefore: change + configuration.postureSettling)
            postureSettling = true
        }
        if postureSettling {
            if let lnRMSSD, let heartRate { reference.add(lnRMSSD: lnRMSSD, heartRate: heartRate, breathingRate: breathingRate, at: time) }
            postureSettling = !reference.isReady
            judged.state = .posture
            return judged
        }
        if pacedBreathing {
            closeStress(at: time, emit: emit)
            judged.state = .pacedBreathing
            return judged
        }
        guard let lnRMSSD, let heartRate, let z, let aboveRest else { return judged }
        let level = min(100, max(0, 25 + 50 * (referenceLn - lnRMSSD) + 0.5 * max(0, aboveRest)))
        let wasOpen = openStress != nil
        let breathesFaster = if let rate = medianBreathingRate, let resting = reference.breathingRate {
            rate - resting >= configuration.fasterBreathing
        } else {
            false
        }
        let still = moving == false && !motion.moved(within: configuration.stillBefore, before: time)
        judged.state = trackStress(
            time: time, lnRMSSD: lnRMSSD, referenceLn: referenceLn, z: z, aboveRest: aboveRest, still: still,
            breathesFaster: breathesFaster, level: level, emit: emit)
        judged.level = level
        judged.episodeStarted = wasOpen ? nil : openStress
        // An acute episode (and the build-up to one) stays out of the reference it is judged by.
        let recentEpisode = if let openStress { time - openStress.start < configuration.referenceAdaptsAfter } else { false }
        let acute = stressCandidate != nil || recentEpisode
        if !acute { reference.add(lnRMSSD: lnRMSSD, heartRate: heartRate, breathingRate: breathingRate, at: time) }
        return judged
    }

    /// Closes the open episodes at the end of a recording.
    public mutating func finish(emit: (StressEpisode) -> Void) {
        closeStress(at: lastTime, emit: emit)
        closeActivity(at: lastTime, emit: emit)
    }

    // MARK: activity and recovery

    /// Whether the body is exercising now; opens and closes activity episodes. With motion
    /// (`moving` not nil) that is whether it moves. Without, the last beats' heart rate follows
    /// the start and the end of exercise within seconds; heart rate stays high for minutes after
    /// exercise, so its end is read from the fall, not the level.
    @inline(__always)  // once per beat: a call spilled its six arguments
    private mutating func trackActivity(
        time: Double, heartRate: Double?, moving: Bool?, windowAboveRest: Double?, referenceHR: Double,
        emit: (StressEpisode) -> Void
    ) -> Bool {
        guard let heartRate else { return openActivity != nil }
        let c = configuration
        if openActivity != nil {
            activityPeak.removeValues(before: time - 60)
            activityPeak.append(heartRate, at: time)
            let peak = activityPeak.value ?? heartRate
            if moving ?? (!isSitting && heartRate >= referenceHR + c.activityExitMargin && heartRate > peak - c.activityDrop) {
                openActivity?.end = time
                return true
            }
            closeActivity(at: time, emit: emit)
            recovery = (start: time, lowest: heartRate, settled: nil)
            return false
        }
        let starts: Bool
        if let moving {
            starts = moving
            if var current = recovery {
                current.lowest = min(current.lowest, heartRate)
                recovery = current
            }
        } else if var current = recovery {
            current.lowest = min(current.lowest, heartRate)
            recovery = current
            starts = heartRate >= current.lowest + c.activityDrop && heartRate >= referenceHR + c.activityMargin
        } else {
            starts = heartRate >= referenceHR + c.activityMargin
                || ((windowAboveRest ?? 0) >= c.activityWindowMargin && heartRate >= referenceHR + c.activityExitMargin)
        }
        // Input at the desk rules out exercise only where the strap cannot tell.
        guard starts, moving != nil || !isSitting else { return false }
        openActivity = StressEpisode(kind: .activity, start: time, end: time)
        activityPeak.removeAll()
        activityPeak.append(heartRate, at: time)
        recovery = nil
        return true
    }

    /// Whether the body is still recovering from exercise: until window heart rate and ln RMSSD
    /// have been back near the reference for `release` seconds, at most `recoveryMaximum`.
    @inline(__always)
    private mutating func trackRecovery(time: Double, z: Double?, aboveRest: Double?) -> Bool {
        guard var current = recovery else { return false }
        let c = configuration
        if let z, let aboveRest, aboveRest <= c.recoveryMargin, z >= -c.releaseMargin {
            current.settled = current.settled ?? time
        } else {
            current.settled = nil
        }
        if time - current.start >= c.recoveryMaximum || current.settled.map({ time - $0 >= c.release }) == true {
            recovery = nil
            return false
        }
        recovery = current
        return true
    }

    private mutating func closeActivity(at time: Double, emit: (StressEpisode) -> Void) {
        guard var activity = openActivity else { return }
        activity.end = time
        emit(activity)
        openActivity = nil
    }

    // MARK: stress

    private mutating func trackStress(
        time: Double, lnRMSSD: Double, referenceLn: Double, z: Double, aboveRest: Double,
        still: Bool, breathesFaster: Bool, level: Double, emit: (StressEpisode) -> Void
    ) -> StressState {
        let c = configuration
        let resting: StressState = z <= -1 ? .elevated : .rest
        if var episode = openStress {
            // The state is stress only while the condition holds; a release that does not last
            // `release` seconds leaves the episode open.
            if z >= -c.releaseMargin || aboveRest < 0 {
                let start = releaseStart ?? time
                releaseStart = start
                if time - start >= c.release { closeStress(at: start, emit: emit) }
                return resting
            }
            releaseStart = nil
            episode.end = time
            episode.peakLevel = max(episode.peakLevel ?? 0, level)
            openStress = episode
            return .stress
        }
        let onsetMargin = breathesFaster ? c.onsetMargin : max(c.onsetMargin, c.calmBreathingOnsetMargin)
        guard z <= -onsetMargin && aboveRest >= c.heartRateMargin else {
            if let candidate = stressCandidate, time - candidate.lastTrue > c.grace { stressCandidate = nil }
            return resting
        }
        var candidate = stressCandidate ?? (start: time, lastTrue: time)
        candidate.lastTrue = time
        stressCandidate = candidate
        guard time - candidate.start >= (still ? c.stillSustain : c.sustain) else { return .elevated }
        let reason = StressReason(
            rmssdChange: Double.exp(lnRMSSD - referenceLn) - 1, rmssd: Double.exp(lnRMSSD), referenceRMSSD: Double.exp(referenceLn),
            heartRateAboveRest: aboveRest, breathingRate: breathingRate)
        openStress = StressEpisode(kind: .stress, start: candidate.start, end: time, peakLevel: level, reason: reason)
        stressCandidate = nil
        releaseStart = nil
        return .stress
    }

    private mutating func closeStress(at time: Double, emit: (StressEpisode) -> Void) {
        stressCandidate = nil
        releaseStart = nil
        guard var episode = openStress else { return }
        episode.end = max(episode.start, min(episode.end, time))
        emit(episode)
        openStress = nil
    }
}
