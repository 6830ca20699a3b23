import HRV

extension SettingDefinition {
    /// Every key, in the order `hrvmon config` and README list them.
    public static let all: [SettingDefinition] = [
        number("window.rmssd_seconds", 5...3600, \.pipeline.rmssdWindow,
               "Rolling window for RMSSD, HR and stress, seconds. 60 s: ultra-short RMSSD agrees with 5-min values (Esco & Flatt 2014)."),
        number("window.sdnn_seconds", 5...3600, \.pipeline.sdnnWindow,
               "Rolling window for SDNN, seconds. 300 s: the standard short-term recording."),
        number("quality.low_corrected_share", 0...1, \.pipeline.lowQualityCorrectedShare,
               "Share of corrected beats above which a window is marked low quality. 0.05: Kubios advises caution above 5 %."),
        number("stress.calibration_seconds", 60...1800, \.stress.calibration,
               "Seconds at the start of a session measured as the resting baseline when there is no personal one."),
        number("stress.minimum_sd", 0.01...2, \.stress.minimumSD,
               "Smallest ln RMSSD spread used for the baseline; minutes at rest understate day-to-day variation (HRV4Training bands are ±0.5–1 SD of weeks)."),
        number("stress.onset_margin_sd", 0.1...10, \.stress.onsetMargin,
               "SDs of ln RMSSD below the resting mean that start a stress episode."),
        number("stress.release_margin_sd", 0...10, \.stress.releaseMargin,
               "SDs below the resting mean under which an episode continues (hysteresis; at most the onset margin)."),
        number("stress.heart_rate_margin_bpm", 0...60, \.stress.heartRateMargin,
               "Heart rate above resting needed for stress, bpm: low HRV with HR at rest is not stress (Firstbeat)."),
        number("stress.sustain_seconds", 0...600, \.stress.sustain,
               "Seconds the stress condition must hold before an episode is declared."),
        number("stress.release_seconds", 0...600, \.stress.release,
               "Seconds the release condition must hold before an episode ends."),
        number("stress.grace_seconds", 0...120, \.stress.grace,
               "A break in the stress condition shorter than this does not restart the sustain clock."),
        number("stress.max_corrected_share", 0...1, \.stress.maximumCorrectedShare,
               "Windows with more corrected beats than this are not judged (state unknown)."),
        number("activity.margin_bpm", 10...150, \.stress.activityMargin,
               "Heart rate above resting (last 8 beats) that counts as physical activity, never stress."),
        number("activity.exit_margin_bpm", 0...150, \.stress.activityExitMargin,
               "Activity ends once heart rate is below resting + this (at most activity.margin_bpm)…"),
        number("activity.hold_seconds", 0...3600, \.stress.activityHold,
               "…and has stayed there this long, so the recovery from exercise is not stress."),
        number("baseline.days", 2...90, \.baseline.days,
               "Calendar days in the rolling personal baseline (HRV4Training and Plews use 7)."),
        number("baseline.minimum_days", 2...90, \.baseline.minimumDays,
               "Days of resting data before the personal baseline replaces the session calibration (Elite HRV shows a baseline after about 2–3 days)."),
        SettingDefinition(
            key: "breathing.pattern",
            kind: .text(allowed: "resonance, box, 4-7-8 or IN-HOLD-OUT[-HOLD] seconds such as 5-0-5",
                        check: { (try? BreathingPattern(parsing: $0)) != nil }, \.breathing.pattern),
            help: "Exercise suggested on stress and run by `hrvmon breathe`. Resonance breathing: Lehrer & Gevirtz 2014."),
        number("breathing.rate", 3...12, \.breathing.rate,
               "Breaths per minute of the resonance pattern (about 6 for most adults)."),
        number("breathing.minutes", 0.5...120, \.breathing.minutes,
               "Length of a suggested exercise."),
        number("breathing.cooldown_seconds", 0...86400, \.breathing.cooldown,
               "At most one suggestion per this many seconds."),
        SettingDefinition(key: "breathing.bell", kind: .flag(\.breathing.bell),
                          help: "Ring the terminal bell with a suggestion."),
        number("link.reconnect_initial_seconds", 0.1...60, \.link.reconnectInitial,
               "First delay before reconnecting after the link drops or a connection fails; doubles after each failure."),
        number("link.reconnect_max_seconds", 1...600, \.link.reconnectMaximum,
               "Longest delay between reconnection attempts."),
        number("link.watchdog_seconds", 2...300, \.link.watchdog,
               "Seconds without a notification while connected before re-subscribing (straps notify about once a second)."),
        number("link.resolve_timeout_seconds", 5...300, \.link.resolveTimeout,
               "Seconds to wait for the sensor's services after connecting before disconnecting and retrying."),
        number("log.sync_seconds", 0.5...60, \.log.syncSeconds,
               "Seconds of session log kept only in the page cache at most: after writing, the file is synced to the disk within this time (and always at exit)."),
        SettingDefinition(
            key: "log.on_error",
            kind: .text(allowed: "warn or stop", check: { $0 == "warn" || $0 == "stop" }, \.log.onError),
            help: "When the session file cannot be written (disk full, unwritable path): warn and keep monitoring without it, or stop."),
        SettingDefinition(key: "tip", kind: .list(\.breathing.tips),
                          help: "A stress-relief tip of your own, shown with suggestions besides the built-in ones."),
    ]

    private static func number(
        _ key: String, _ range: ClosedRange<Double>, _ path: WritableKeyPath<Settings, Double> & Sendable, _ help: String
    ) -> SettingDefinition {
        SettingDefinition(key: key, kind: .number(range, path), help: help)
    }
}
