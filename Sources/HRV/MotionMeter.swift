/// One second of a chest accelerometer, summarised: how much the wearer moves, their step
/// cadence when the movement is rhythmic, and their posture.
public struct MotionSecond: Equatable, Sendable {
    public enum Level: String, Sendable, CaseIterable {
        /// Breathing and fidgeting at most: a heart-rate rise here is not from the legs.
        case still
        /// Movement without a step rhythm (standing up, reaching, turning).
        case moving
        /// Steps: a rhythm of 50-200 a minute.
        case walking
    }

    public enum Posture: String, Sendable, CaseIterable {
        case upright, lying
    }

    public var level: Level
    /// The RMS of the acceleration beside gravity over the second, in mG.
    public var intensity: Double
    /// Steps a minute, when the movement has a step rhythm.
    public var cadence: Double?
    /// nil until the gravity direction says.
    public var posture: Posture?
    /// The breathing the chest's tilting shows (``ChestBreathingMeter``): only while still.
    public var breathing: ChestBreathing?

    public init(level: Level, intensity: Double, cadence: Double? = nil, posture: Posture? = nil, breathing: ChestBreathing? = nil) {
        self.level = level
        self.intensity = intensity
        self.cadence = cadence
        self.posture = posture
        self.breathing = breathing
    }
}

/// Turns accelerometer samples (mG, any axis orientation) into a `MotionSecond` per second of
/// samples. Gravity is each second's mean vector; intensity is what is left around it. Cadence is
/// the strongest autocorrelation of the last four seconds' movement along gravity at a step
/// period of 0.3-1.2 s. Posture compares gravity with the direction it had while walking (one
/// walks upright), learned during the session; until then, with the strap's face: upright, gravity
/// lies in the plane of a chest strap whichever way it is turned or flipped; lying on the back or
/// front, gravity goes through its face. Lying on one's side looks upright until walking has shown
/// which direction is up.
public struct MotionMeter: Sendable {
    public static let stillBelow = 40.0
    public static let walkingAbove = 80.0
    /// The smallest autocorrelation called a rhythm.
    static let rhythm = 0.5

    public let sampleRate: Double
    private let perSecond: Int
    private var second: [SIMD3<Double>] = []
    /// Movement along gravity, the last four seconds.
    private var vertical: [Double] = []
    private var upright: SIMD3<Double>?
    private var breathing: ChestBreathingMeter

    public init(sampleRate: Double) {
        self.sampleRate = sampleRate
        perSecond = max(1, Int(sampleRate.rounded()))
        breathing = ChestBreathingMeter(sampleRate: sampleRate)
    }

    /// Adds one sample in mG, x, y, z with z through the strap's face; returns the second it completes.
    public mutating func append(x: Double, y: Double, z: Double) -> MotionSecond? {
        second.append(SIMD3(x, y, z))
        breathing.append(SIMD3(x, y, z))
        guard second.count == perSecond else { return nil }
        defer { second.removeAll(keepingCapacity: true) }
        return summarise()
    }

    private mutating func summarise() -> MotionSecond {
        let gravity = second.reduce(SIMD3<Double>(), +) / Double(second.count)
        let g = length(gravity)
        let down = g > 0 ? gravity / g : SIMD3(0, 0, 0)
        var squares = 0.0
        for sample in second {
            let dynamic = sample - gravity
            squares += (dynamic * dynamic).sum()
            vertical.append((dynamic * down).sum())
        }
        if vertical.count > 4 * perSecond { vertical.removeFirst(vertical.count - 4 * perSecond) }
        let intensity = (squares / Double(second.count)).squareRoot()
        let cadence = intensity >= Self.walkingAbove ? stepCadence() : nil
        let level: MotionSecond.Level = cadence != nil ? .walking : intensity < Self.stillBelow ? .still : .moving
        if level == .walking, g > 0 {
            // Learned slowly: a stride's lean does not move "up".
            upright = upright.map { normalised($0 * 0.9 + down * 0.1) } ?? down
        }
        if level != .still { breathing.restart() }
        return MotionSecond(
            level: level, intensity: intensity, cadence: cadence, posture: posture(down, g),
            breathing: level == .still ? breathing.estimate() : nil)
    }

    private func posture(_ down: SIMD3<Double>, _ g: Double) -> MotionSecond.Posture? {
        // Far from 1 G the wearer is accelerating: gravity is not what the mean shows.
        guard g > 700, g < 1300 else { return nil }
        if let upright {
            let cosine = (upright * down).sum()
            return cosine > 0.77 ? .upright : cosine < 0.5 ? .lying : nil
        }
        let throughFace = abs(down.z)
        return throughFace < 0.5 ? .upright : throughFace > 0.8 ? .lying : nil
    }

    /// Steps a minute at the rhythm of 50-200 a minute, if there is one.
    private func stepCadence() -> Double? {
        let n = vertical.count
        let shortest = max(1, Int((0.3 * sampleRate).rounded()))
        let longest = Int((1.2 * sampleRate).rounded())
        guard n >= 2 * longest else { return nil }
        let mean = vertical.reduce(0, +) / Double(n)
        let centred = vertical.map { $0 - mean }
        let energy = centred.reduce(0) { $0 + $1 * $1 }
        guard energy > 0 else { return nil }
        let correlations = (shortest...longest + 1).map { lag in
            var sum = 0.0
            for index in lag..<n { sum += centred[index] * centred[index - lag] }
            return sum / energy * Double(n) / Double(n - lag)
        }
        guard let strongest = correlations.dropLast().max(), strongest >= Self.rhythm else { return nil }
        // The first peak near the strongest: one step, not a stride of two (they correlate alike).
        let peak = correlations.indices.dropLast().first { index in
            correlations[index] >= 0.85 * strongest && (index == 0 || correlations[index - 1] <= correlations[index])
                && correlations[index + 1] <= correlations[index]
        }
        return peak.map { 60 * sampleRate / Double(shortest + $0) }
    }
}

private func length(_ vector: SIMD3<Double>) -> Double { (vector * vector).sum().squareRoot() }
func normalised(_ vector: SIMD3<Double>) -> SIMD3<Double> {
    let size = length(vector)
    return size > 0 ? vector / size : vector
}
