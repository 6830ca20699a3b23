import ArgumentParser
import Dashboard
import HRV
import LiveSession
import Platform
import Presentation

struct Breathe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "breathe",
        abstract: "Guided breathing in the terminal, no strap needed.",
        discussion: """
            Patterns: resonance (6 breaths a minute, or the rate your `hrvmon resonance` assessment \
            found, inhale:exhale 4:6; --rate changes the rate), \
            box (4-4-4-4), 4-7-8, or your own seconds IN-HOLD-OUT[-HOLD], e.g. 5-0-5 or 4-2-6-2. \
            On a terminal an animated bar paces each breath; otherwise one line per phase is \
            printed as it starts. q or Esc (on a terminal) or Ctrl-C ends the exercise early.
            """)

    @Option(help: "resonance, box, 4-7-8 or IN-HOLD-OUT[-HOLD] seconds (default: breathing.pattern, resonance).")
    var pattern: String?

    @Option(parsing: .unconditional, help: "Breaths per minute for the resonance pattern, 3 to 12 (default: the rate of your `hrvmon resonance` assessment, else breathing.rate, 6).")
    var rate: Double?

    @Option(parsing: .unconditional, help: "Length of the exercise in minutes (default: breathing.minutes, 5).")
    var minutes: Double?

    @Option(help: "Hear the pacer: off, tone (rising on the inhale, falling on the exhale) or speech (default: breathing.sound, off).")
    var sound: AudiblePacer.Voice?

    @OptionGroup var config: ConfigOptions

    @Option(parsing: .unconditional, help: "Run the clock this many times faster (for trying it out).")
    var speed: Double = 1

    func validate() throws {
        if let rate, !(3...12).contains(rate) { throw ValidationError("--rate must be 3–12 breaths per minute") }
        if let minutes, !(minutes > 0 && minutes <= 120) { throw ValidationError("--minutes must be above 0 and at most 120") }
        guard speed > 0, speed <= 1000 else { throw ValidationError("--speed must be above 0 and at most 1000") }
    }

    func run() throws {
        let (configured, storedRate) = try config.load().withStoredResonance()
        let settings = configured.breathing
        let chosen: BreathingPattern
        do {
            chosen = try BreathingPattern(parsing: pattern ?? settings.pattern, resonanceRate: rate ?? settings.rate)
        } catch {
            throw badInput(error)
        }
        let duration = (minutes ?? settings.minutes) * 60
        let animated = Terminal.isTerminal(.output)
        let audible = Self.audiblePacer(sound ?? AudiblePacer.Voice(rawValue: settings.sound) ?? .off, speed: speed)
        audible?.prepare(chosen)
        let breathing = GuidedBreathing(
            pattern: chosen, duration: duration, speed: speed, animated: animated,
            colors: animated && Environment.value("NO_COLOR") == nil, audible: audible)
        // Where the rate comes from, when it is the stored assessment's.
        let source = rate == nil && chosen.name == "resonance" ? storedRate.map { " (\($0); --rate overrides)" } ?? "" : ""
        // Each quantity on one line: `5 min 00 s` is not split when the heading is wrapped.
        let pace = Formatting.unbroken(Formatting.fixed(chosen.breathsPerMinute, digits: 1) + " breaths")
        var heading = ["\(chosen.name): \(pace) a minute for \(Formatting.unbroken(Formatting.duration(duration)))\(source)"]
        if breathing.acceptsKeys { heading.append(GuidedBreathing.keyHint) }
        heading = heading.flatMap { Formatting.wrap(line: $0, width: Terminal.outputColumns, hanging: 2) }
        var output = FileStream.standardOutput
        for line in heading { output.write(line + "\n") }
        output.flush()
        let outcome = breathing.run()
        let ended = outcome.stoppedEarly ? "stopped after" : "done:"
        output.write("\(ended) \(Formatting.count(outcome.breaths, "breath")) in \(Formatting.duration(outcome.seconds))\n")
        output.flush()
    }

    /// The pacer's sound, or nil: off, or (said on stderr) nothing here can play it.
    static func audiblePacer(_ voice: AudiblePacer.Voice, speed: Double) -> AudiblePacer? {
        guard voice != .off else { return nil }
        do {
            return try AudiblePacer(voice: voice, directory: NoteInbox.directory, speed: speed)
        } catch {
            var errors = FileStream.standardError
            errors.write("\(Program.name): the pacer stays silent: \(error)\n")
            errors.flush()
            return nil
        }
    }
}
