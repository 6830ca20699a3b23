#if canImport(Glibc)
import Glibc
#endif

/// Turns the pipeline's windows into a state, a 0–100 level and stress/activity episodes.
///
/// Stress is low vagal activity while the body is not physically active (the Firstbeat/Garmin
/// practice): ln RMSSD at least `onsetMargin` SDs below the resting mean together with heart rate
/// above resting, sustained for `sustain` seconds. The episode then starts where the condition
/// began; it ends once ln RMSSD is back within `releaseMargin` SDs (or HR at rest) for `release`
/// seconds. Heart rate far above resting is `activity`, also for `activityHold` after it falls, so
/// the recovery from exercise is never called stress. Time is the beat timeline, so the same RR
/// give the same episodes live and offline.
public struct StressDetector {
    public struct Configuration: Equatable, Sendable {
        /// Seconds at the start of a session used as the resting baseline when there is no
        /// personal one.
        public var calibration = 180.0
        /// Smallest ln RMSSD spread used: a few minutes at rest understate day-to-day variation
        /// (HRV4Training's normal band is ±0.5–1 SD of weeks of mornings).
        public var minimumSD = 0.15
        /// SDs below the resting ln RMSSD mean that start (onset) and keep (release) an episode.
        public var onsetMargin = 1.5
        public var releaseMargin = 1.0
        /// Heart rate must exceed resting by this much (bpm) for stress.
        public var heartRateMargin = 3.0
        /// Seconds the stress condition must hold before an episode is declared, and the release
        /// condition before it ends.
        public var sustain = 60.0
        public var release = 60.0
        /// A break in the condition shorter than this does not restart the sustain clock.
        public var grace = 10.0
        /// Heart rate (last beats) this far above resting is physical activity, bpm.
        public var activityMargin = 40.0
        /// Activity ends once heart rate is below resting + this, after `activityHold` seconds.
        public var activityExitMargin = 20.0
        public var activityHold = 180.0
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

    /// Beat intervals of the last few beats, for a heart rate that follows exercise quickly.
    private var recent = [Int64](repeating: 0, count: 8)
    private var recentCount = 0
    private var recentSum: Int64 = 0

    private var stressCandidate: (start: Double, lastTrue: Double)?
    private var releaseStart: Double?
    private var openStress: StressEpisode?
    private var openActivity: StressEpisode?
    private var activityCooling: Double?
    private var lastTime = 0.0

    /// - Parameter baseline: a personal baseline; without one the first `calibration` seconds
    ///   of the session are measured.
    public init(configuration: Configuration = .init(), baseline: Baseline? = nil) {
        self.configuration = configuration
        self.baseline = baseline
    }

    /// Judges the state after one beat; `emit` receives every episode that ends.
    public mutating func update(
        _ update: HRVUpdate, sensorContact: Bool = true, emit: (StressEpisode) -> Void
    ) -> StressAssessment {
        let time = update.beat.seconds
        lastTime = time
        if update.beat.isUsable { rememberRecent(update.beat.interval.microticks) }
        let window = update.rmssdWindow
        let usable = sensorContact && window.isFilled && window.correctedShare <= configuration.maximumCorrectedShare
        let rmssd = usable ? window.statistics.rmssd : nil
        let lnRMSSD = rmssd.flatMap { $0 > 0 ? log($0) : nil }
        let heartRate = window.statistics.meanHR

        if sessionBaseline == nil {
            if let lnRMSSD, let heartRate { calibration.add(lnRMSSD: lnRMSSD, heartRate: heartRate, at: time) }
            if time >= configuration.calibration {
                sessionBaseline = calibration.baseline(minimumSD: configuration.minimumSD)
            }
        }
        guard let baseline else {
            baseline = sessionBaseline
            return StressAssessment(state: .unknown, isCalibrating: baseline == nil)
        }

        // Without skin contact the intervals say nothing about the body: neither stress nor activity.
        guard sensorContact else { return StressAssessment(state: .unknown, isCalibrating: false) }
        if trackActivity(time: time, restingHR: baseline.restingHR, emit: emit) {
            closeStress(at: time, emit: emit)
            return StressAssessment(state: .activity, isCalibrating: false)
        }
        guard let lnRMSSD, let heartRate else {
            return StressAssessment(state: .unknown, isCalibrating: false)
        }
        let z = baseline.zScore(lnRMSSD: lnRMSSD)
        let aboveRest = heartRate - baseline.restingHR
        let level = min(100, max(0, 25 + 50 * (baseline.lnRMSSDMean - lnRMSSD) + 0.5 * max(0, aboveRest)))
        let wasOpen = openStress != nil
        let state = trackStress(time: time, z: z, aboveRest: aboveRest, level: level, emit: emit)
        return StressAssessment(
            state: state, level: level, zScore: z, heartRateAboveRest: aboveRest, isCalibrating: false,
            episodeStarted: wasOpen ? nil : openStress)
    }

    /// Closes the open episodes at the end of a recording.
    public mutating func finish(emit: (StressEpisode) -> Void) {
        closeStress(at: lastTime, emit: emit)
        if var activity = openActivity {
            activity.end = lastTime
            emit(activity)
            openActivity = nil
        }
    }

    // MARK: activity

    private mutating func rememberRecent(_ microticks: Int64) {
        let slot = recentCount & (recent.count - 1)  // the count is a power of two
        if recentCount >= recent.count { recentSum -= recent[slot] }
        recent[slot] = microticks
        recentSum += microticks
        recentCount += 1
    }

    private var recentHeartRate: Double? {
        guard recentCount >= recent.count else { return nil }
        return 60 * Double(RRInterval.microticksPerSecond) * Double(recent.count) / Double(recentSum)
    }

    /// Whether the body is active (or recovering from it) now; opens and closes activity episodes.
    private mutating func trackActivity(time: Double, restingHR: Double, emit: (StressEpisode) -> Void) -> Bool {
        if let heartRate = recentHeartRate {
            if heartRate >= restingHR + configuration.activityMargin {
                activityCooling = nil
                if openActivity == nil { openActivity = StressEpisode(kind: .activity, start: time, end: time) }
            } else if openActivity != nil {
                // Cooling down counts only while heart rate stays below the exit margin.
                activityCooling = heartRate < restingHR + configuration.activityExitMargin ? activityCooling ?? time : nil
            }
        }
        guard var activity = openActivity else { return false }
        activity.end = time
        if let cooling = activityCooling, time - cooling >= configuration.activityHold {
            emit(activity)
            openActivity = nil
            activityCooling = nil
            return false
        }
        openActivity = activity
        return true
    }

    // MARK: stress

    private mutating func trackStress(time: Double, z: Double, aboveRest: Double, level: Double, emit: (StressEpisode) -> Void) -> StressState {
        let c = configuration
        if var episode = openStress {
            episode.end = time
            episode.peakLevel = max(episode.peakLevel ?? 0, level)
            openStress = episode
            if z >= -c.releaseMargin || aboveRest < 0 {
                let start = releaseStart ?? time
                releaseStart = start
                if time - start >= c.release {
                    closeStress(at: start, emit: emit)
                    return z <= -1 ? .elevated : .rest
                }
            } else {
                releaseStart = nil
            }
            return .stress
        }
        if z <= -c.onsetMargin && aboveRest >= c.heartRateMargin {
            var candidate = stressCandidate ?? (start: time, lastTrue: time)
            candidate.lastTrue = time
            stressCandidate = candidate
            if time - candidate.start >= c.sustain {
                openStress = StressEpisode(kind: .stress, start: candidate.start, end: time, peakLevel: level)
                stressCandidate = nil
                releaseStart = nil
                return .stress
            }
            return .elevated
        }
        if let candidate = stressCandidate, time - candidate.lastTrue > c.grace { stressCandidate = nil }
        return z <= -1 ? .elevated : .rest
    }

    private mutating func closeStress(at time: Double, emit: (StressEpisode) -> Void) {
        stressCandidate = nil
        releaseStart = nil
        guard var episode = openStress else { return }
        episode.end = max(episode.start, time)
        emit(episode)
        openStress = nil
    }
}

/// ln RMSSD and HR of filled, good-quality windows during session calibration.
struct CalibrationSamples {
    private var lnRMSSD: [Double] = []
    private var heartRate: [Double] = []
    private var nextSample = 0.0
    /// Seconds between samples: consecutive 60 s windows overlap almost entirely.
    static let spacing = 5.0

    mutating func add(lnRMSSD ln: Double, heartRate rate: Double, at time: Double) {
        guard time >= nextSample else { return }
        nextSample = time + Self.spacing
        lnRMSSD.append(ln)
        heartRate.append(rate)
    }

    /// Nil until at least six samples (half a minute of filled windows) exist.
    func baseline(minimumSD: Double) -> Baseline? {
        guard lnRMSSD.count >= 6 else { return nil }
        return Baseline(source: .session, lnRMSSD: lnRMSSD, restingHR: heartRate, minimumSD: minimumSD)
    }
}
