import HRV
import Platform
import Presentation

/// The breathing pacer's cues made audible through the desktop's sound or speech service:
/// `tone` plays ``BreathingCueSound``'s phase sounds with the PulseAudio client (`paplay`, which
/// PipeWire's pulse server answers too) or PipeWire's own `pw-play`; `speech` says the phase with
/// speech-dispatcher's `spd-say`. Each cue starts a player that runs beside hrvmon; the event loop
/// never waits for it. Where no service runs there is no pacer to make, and the caller says so
/// once and goes on silently.
public final class AudiblePacer {
    public enum Voice: String, CaseIterable, Sendable {
        case off, tone, speech
    }

    /// Why there is no sound, in words for the user.
    public struct Unavailable: Error, Equatable, CustomStringConvertible {
        public var description: String
    }

    private enum Player {
        /// A program playing a WAV file given as its last argument.
        case wave(path: String, arguments: [String])
        case speech(path: String)
    }

    private let player: Player
    private let directory: String
    /// The session clock's speed: a phase of s seconds lasts s / speed on the wall.
    private let speed: Double
    /// WAV files already written, by phase and length.
    private var files: [String: String] = [:]
    private var playing: Int32?
    /// Players asked to end and not reaped yet.
    private var ending: [Int32] = []

    /// A pacer for `voice`, writing its sound files into `directory` (private, created when
    /// missing); `Unavailable` when the voice is off or nothing could play it.
    public init(voice: Voice, directory: String, speed: Double = 1) throws(Unavailable) {
        player = try Self.player(for: voice)
        self.directory = directory
        self.speed = speed
    }

    deinit { stop() }

    /// Writes the sound files of `pattern`'s phases now, so the first cue of an exercise does not
    /// wait for them.
    public func prepare(_ pattern: BreathingPattern) {
        guard case .wave = player else { return }
        for phase in pattern.phases { _ = file(for: phase.phase, lasting: phase.seconds) }
    }

    /// Plays the sound of the phase `cue` starts; a sound still playing stops first.
    public func play(_ cue: BreathingPacer.Cue) {
        stop()
        switch player {
        case .wave(let path, let arguments):
            guard let file = file(for: cue.phase, lasting: cue.seconds) else { return }
            playing = ChildProcess.start(path, arguments + [file])
        case .speech(let path):
            playing = ChildProcess.start(path, [BreathingCueSound.words(cue.phase)])
        }
    }

    /// Stops the sound playing, if any (the exercise ended, hrvmon quits), without waiting for
    /// it on the event loop: players asked to end are reaped at the next cue.
    public func stop() {
        ending.removeAll { ChildProcess.hasExited($0) }
        guard let pid = playing else { return }
        playing = nil
        ChildProcess.askToEnd(pid)
        ending.append(pid)
    }

    /// The sound file of `phase` lasting `seconds` of the session (on the wall: / speed), written
    /// on first use.
    private func file(for phase: BreathingPattern.Phase, lasting sessionSeconds: Double) -> String? {
        let seconds = sessionSeconds / speed
        let key = "\(phase.rawValue)-\(Int((seconds * 1000).rounded()))ms"
        if let path = files[key] { return path }
        if !FileSystem.exists(directory) { _ = FileSystem.makeDirectory(directory, permissions: 0o700) }
        let path = directory + "/pacer-" + key + ".wav"
        guard AtomicFile.write(BreathingCueSound.wave(phase, seconds: seconds), to: path) == nil else { return nil }
        files[key] = path
        return path
    }

    /// Which program plays `voice` here: a sound server for this user and its client installed.
    private static func player(for voice: Voice) throws(Unavailable) -> Player {
        switch voice {
        case .off:
            throw Unavailable(description: "sound is off")
        case .speech:
            guard let path = ChildProcess.executable(named: "spd-say") else {
                throw Unavailable(description: "no speech service: spd-say is not installed (Debian: apt install speech-dispatcher)")
            }
            return .speech(path: path)
        case .tone:
            let runtime = XDGDirectory.runtime
            func socket(_ name: String) -> Bool { runtime.map { FileSystem.exists($0 + "/" + name) } ?? false }
            let pulse = Environment.value("PULSE_SERVER") != nil || socket("pulse/native")
            let pipewire = socket(Environment.value("PIPEWIRE_REMOTE") ?? "pipewire-0")
            if pulse, let path = ChildProcess.executable(named: "paplay") {
                return .wave(path: path, arguments: ["--client-name=hrvmon", "--stream-name=breathing pacer"])
            }
            if pipewire, let path = ChildProcess.executable(named: "pw-play") { return .wave(path: path, arguments: []) }
            guard pulse || pipewire else {
                throw Unavailable(description:
                    "no sound server runs for this user (no PulseAudio or PipeWire socket in $XDG_RUNTIME_DIR)")
            }
            throw Unavailable(description:
                "no sound player: install paplay (Debian: apt install pulseaudio-utils) or pw-play (pipewire-bin)")
        }
    }
}
