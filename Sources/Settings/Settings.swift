import HRV

/// Everything a user can tune, with the defaults documented in docs/reference/configuration.md. Read from
/// `$XDG_CONFIG_HOME/hrvmon/config` (`SettingsFile`).
public struct Settings: Equatable, Sendable {
    public var pipeline = HRVPipeline.Configuration()
    public var stress = StressDetector.Configuration()
    public var breathing = Breathing()
    public var baseline = PersonalBaseline()
    public var notify = Notify()
    public var desk = Desk()
    public var link = Link()
    public var log = Log()

    /// Desktop notifications (org.freedesktop.Notifications on the session bus).
    public struct Notify: Equatable, Sendable {
        /// Send one with each breathing suggestion.
        public var desktop = true
        /// Seconds of session time between two notifications at least.
        public var minimumInterval = 300.0

        public init() {}
    }

    /// Reading the desktop session's idle time (`monitor`).
    public struct Desk: Equatable, Sendable {
        /// Take keyboard and pointer input within the last minute as evidence of sitting.
        public var input = true

        public init() {}
    }

    /// How `monitor` keeps the session file.
    public struct Log: Equatable, Sendable {
        public var syncSeconds = 2.0
        /// warn or stop.
        public var onError = "warn"

        public var stopsOnError: Bool { onError == "stop" }

        public init() {}
    }

    /// How `monitor` keeps the sensor connected.
    public struct Link: Equatable, Sendable {
        /// First reconnection delay; doubles after each failure.
        public var reconnectInitial = 1.0
        public var reconnectMaximum = 30.0
        /// Seconds without a notification before re-subscribing.
        public var watchdog = 10.0
        /// Seconds to wait for GATT services after connecting.
        public var resolveTimeout = 30.0

        public init() {}
    }

    public struct PersonalBaseline: Equatable, Sendable {
        /// Calendar days in the rolling personal baseline.
        public var days = 7.0
        /// Days of data needed before the personal baseline is used.
        public var minimumDays = 3.0

        public init() {}
    }

    public struct Breathing: Equatable, Sendable {
        /// resonance, box, 4-7-8 or IN-HOLD-OUT[-HOLD].
        public var pattern = "resonance"
        public var rate = 6.0
        public var minutes = 5.0
        /// Seconds between two suggestions of an exercise.
        public var cooldown = 1200.0
        /// Ring the terminal bell with a suggestion.
        public var bell = true
        /// Audible pacing: off, tone or speech.
        public var sound = "off"
        /// Extra stress-relief tips, added to the built-in ones.
        public var tips: [String] = []

        public init() {}
    }

    public init() {}
}
