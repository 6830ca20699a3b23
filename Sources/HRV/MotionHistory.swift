/// The last seconds of a chest accelerometer, as the stress detector reads them: whether the
/// wearer is moving now, and whether they moved a little while ago (a change of posture moves the
/// chest; a stress response does not).
struct MotionHistory {
    /// A second older than this says nothing about now (the strap's streams stopped, or it has none).
    static let fresh = 5.0
    /// Moving is `movingSeconds` of the last `window` seconds not still: standing up or reaching
    /// for a cup moves the chest for two or three, a walk or a workout for all of them.
    static let window = 10.0
    static let movingSeconds = 5

    /// The times of the last `window` seconds and whether each moved, oldest first.
    private var seconds = RingDeque<(time: Double, moved: Bool)>()
    private var movedCount = 0
    private var lastMovement = -Double.infinity
    private var posture: MotionSecond.Posture?
    private(set) var latest: MotionSecond.Level?

    mutating func add(_ second: MotionSecond, at time: Double) {
        let moved = second.level != .still
        latest = second.level
        seconds.append((time, moved))
        if moved { movedCount += 1 }
        while let oldest = seconds.first, oldest.time <= time - Self.window {
            if seconds.removeFirst().moved { movedCount -= 1 }
        }
        // Lying down or getting up turns gravity, however gently it is done.
        if moved || (second.posture != nil && posture != nil && second.posture != posture) { lastMovement = time }
        if let now = second.posture { posture = now }
    }

    /// Whether the accelerometer speaks for `time`.
    func isKnown(at time: Double) -> Bool {
        seconds.last.map { time - $0.time <= Self.fresh } == true
    }

    func isMoving(at time: Double) -> Bool {
        isKnown(at: time) && movedCount >= Self.movingSeconds
    }

    /// Whether the chest moved (or turned) within `seconds` before `time`.
    func moved(within seconds: Double, before time: Double) -> Bool {
        time - lastMovement <= seconds
    }
}
