import HRV
import LivePipeline

/// Seconds of the strap's accelerometer kept in one `motion_seconds` line of the session file
/// (docs/reference/session-files.md) instead of a `motion` line each: 7.4 MB a day, a third of a
/// recording session's file. Each second keeps what its `motion` line said (level, mg, spm,
/// posture), its time to the millisecond (`MotionTime`, what the live pipeline placed it by) and
/// its place among the file's steps (the lines the live pipeline was given: `packet`, `error`,
/// `gap`, `exercise`), so that a replay gives the detector every second where the live session did.
struct MotionSecondsLine {
    /// The seconds a line holds, and so what a kill -9 loses of them at most: 20 keeps a day's
    /// 86,400 seconds in 1.4 MB (10 would take 1.8 MB, the lines' keys twice as often);
    /// docs/development/benchmarks.md has the sizes measured.
    static let capacity = 20
    static let type = "motion_seconds"

    struct Second {
        var motion: MotionSecond
        var time: MotionTime
        /// Step lines before it in the file.
        var stepsBefore: Int
    }

    /// A second's level and posture as one letter each.
    private static let levels: [(MotionSecond.Level, Character)] = [(.still, "s"), (.moving, "m"), (.walking, "w")]
    private static let postures: [(MotionSecond.Posture?, Character)] = [(.upright, "u"), (.lying, "l"), (nil, "-")]

    /// The line of `seconds` (none empty), written after `stepsWritten` step lines.
    static func text(_ seconds: [Second], stepsWritten: Int) -> String {
        let first = seconds[0].time.milliseconds
        var object = JSONObject()
        object.add("type", type)
        object.add("t", seconds[0].time.seconds)
        object.addIntegers("offset_ms", seconds.enumerated().map { Int($0.element.time.milliseconds - first) - 1000 * $0.offset })
        object.add("level", String(seconds.map { second in levels.first { $0.0 == second.motion.level }!.1 }))
        object.addRaw("mg", "[" + seconds.map { tenths(($0.motion.intensity * 10).rounded()) }.joined(separator: ",") + "]")
        let cadences = seconds.filter { $0.motion.level == .walking }.map { Int(($0.motion.cadence ?? 0).rounded()) }
        if !cadences.isEmpty { object.addIntegers("spm", cadences) }
        object.add("posture", String(seconds.map { second in postures.first { $0.0 == second.motion.posture }!.1 }))
        object.addIntegers("steps_since", seconds.map { stepsWritten - $0.stepsBefore })
        let breaths = seconds.compactMap(\.motion.breathing)
        if !breaths.isEmpty {
            object.add("breath_phase", String(seconds.map { $0.motion.breathing.map { $0.phase == .inhaling ? "i" : "e" } ?? "-" }))
            object.addRaw("breath_per_min", "[" + breaths.map { "\($0.rate)" }.joined(separator: ",") + "]")
            object.addRaw("breath_began_s", "[" + breaths.map { "\($0.breathBegan)" }.joined(separator: ",") + "]")
            object.addRaw("breath_quality", "[" + breaths.map { "\($0.quality)" }.joined(separator: ",") + "]")
        }
        return object.serialized + "\n"
    }

    /// `value` tenths as a decimal number, without a trailing `.0` (a non-finite one, which no
    /// accelerometer's samples give, as 0).
    private static func tenths(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "0" }
        let whole = Int(value)
        return whole % 10 == 0 ? String(whole / 10) : "\(whole / 10).\(whole % 10)"
    }

    /// A line's seconds, each with the number of step lines after it and before the line.
    static func seconds<Fields: LineFields>(_ fields: Fields) throws(SessionFileReader.LineError) -> [(SessionFile.Motion, stepsSince: Int)] {
        let start = try fields.double("t")
        guard abs(start) < 1e12 else { throw SessionFileReader.LineError(reason: "t \(start) is not a time hrvmon writes") }
        let first = MotionTime(start).milliseconds
        let offsets = try fields.integers("offset_ms")
        let levels = Array(try fields.string("level"))
        let intensities = try fields.numbers("mg")
        let cadences = fields.value("spm") != nil ? try fields.integers("spm") : []
        let postures = Array(try fields.string("posture"))
        let stepsSince = try fields.integers("steps_since")
        let count = offsets.count
        // Chest breathing, when a second has it: a phase letter per second, numbers per breathing second.
        let breathes = fields.value("breath_phase") != nil
        let phases = breathes ? Array(try fields.string("breath_phase")) : Array(repeating: Character("-"), count: count)
        let rates = breathes ? try fields.numbers("breath_per_min") : []
        let began = breathes ? try fields.numbers("breath_began_s") : []
        let qualities = breathes ? try fields.numbers("breath_quality") : []
        guard began.count == rates.count, qualities.count == rates.count, rates.count == phases.count(where: { $0 != "-" }) else {
            throw SessionFileReader.LineError(reason: "breath_per_min, breath_began_s and breath_quality must hold a number for each breathing second")
        }
        var breath = 0
        guard count > 0, [levels.count, intensities.count, postures.count, stepsSince.count].allSatisfy({ $0 == count }) else {
            throw SessionFileReader.LineError(reason: "offset_ms, level, mg, posture and steps_since must hold one entry for each second, at least one")
        }
        guard phases.count == count else { throw SessionFileReader.LineError(reason: "breath_phase must hold a letter for each second") }
        var walking = cadences.makeIterator()
        var seconds: [(SessionFile.Motion, stepsSince: Int)] = []
        for index in 0..<count {
            guard let level = Self.levels.first(where: { $0.1 == levels[index] })?.0 else {
                throw SessionFileReader.LineError(reason: "level must be letters s (still), m (moving), w (walking), not '\(levels[index])'")
            }
            guard let posture = Self.postures.first(where: { $0.1 == postures[index] }) else {
                throw SessionFileReader.LineError(reason: "posture must be letters u (upright), l (lying), - (not known), not '\(postures[index])'")
            }
            var cadence: Double?
            if level == .walking {
                guard let steps = walking.next() else { throw SessionFileReader.LineError(reason: "spm must hold a number for each walking second") }
                cadence = steps == 0 ? nil : Double(steps)
            }
            let time = MotionTime(milliseconds: first + Int64(1000 * index + offsets[index]))
            var breathing: ChestBreathing?
            if phases.count == count, phases[index] != "-" {
                let phase = phases[index] == "i" ? "inhaling" : phases[index] == "e" ? "exhaling" : String(phases[index])
                breathing = try Self.breathing(rate: rates[breath], phase: phase, began: began[breath], quality: qualities[breath])
                breath += 1
            }
            let motion = MotionSecond(level: level, intensity: intensities[index], cadence: cadence, posture: posture.0, breathing: breathing)
            seconds.append((SessionFile.Motion(time: time.seconds, second: motion), stepsSince[index]))
        }
        guard walking.next() == nil else { throw SessionFileReader.LineError(reason: "spm must hold a number for each walking second, no more") }
        return seconds
    }

    /// A second's chest breathing from its numbers and phase (`inhaling`, `exhaling`).
    static func breathing(rate: Double, phase: String, began: Double, quality: Double) throws(SessionFileReader.LineError) -> ChestBreathing {
        guard let phase = ChestBreathing.Phase(rawValue: phase) else {
            throw SessionFileReader.LineError(reason: "breath_phase must be inhaling or exhaling (i or e in motion_seconds), not '\(phase)'")
        }
        guard rate > 0, rate < 100, began >= 0, began < 1000, (0...1).contains(quality) else {
            throw SessionFileReader.LineError(reason: "breathing \(rate)/min, began \(began) s ago, quality \(quality) is not what hrvmon writes")
        }
        return ChestBreathing(rate: rate, phase: phase, breathBegan: began, quality: quality)
    }
}
