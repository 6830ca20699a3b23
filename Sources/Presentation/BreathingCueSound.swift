import HRV
import RealModule

/// What the breathing pacer sounds like, for breathing with eyes closed: each inhale a tone that
/// glides up a fifth over the whole inhale, each exhale one that glides back down over the whole
/// exhale, a soft short tick when a hold begins. A phase's sound lasts exactly the phase, so the
/// pitch tracks the breath as the bar does. Or the words, for a speech service. Pure: bytes of a
/// WAV file (RIFF, PCM 16-bit mono).
public enum BreathingCueSound {
    public static let sampleRate = 16_000
    /// Pitch at empty and full lungs, Hz: A3 up to E4.
    static let low = 220.0
    static let high = 330.0
    /// Peak amplitude as a share of full scale: a cue, not an alarm.
    static let loudness = 0.25
    /// Raised-cosine fade in and out, seconds: no click at either end.
    static let fade = 0.06
    /// A hold's tick: seconds, pitch between the two, and softer.
    static let tickSeconds = 0.15
    static let tickLoudness = 0.12

    /// What a speech service says at the start of a phase.
    public static func words(_ phase: BreathingPattern.Phase) -> String {
        switch phase {
        case .inhale: "breathe in"
        case .exhale: "breathe out"
        case .holdIn, .holdOut: "hold"
        }
    }

    /// The WAV file of the sound for `phase` lasting `seconds`.
    public static func wave(_ phase: BreathingPattern.Phase, seconds: Double) -> [UInt8] {
        let samples: [Int16]
        switch phase {
        case .inhale: samples = glide(from: low, to: high, seconds: seconds, loudness: loudness)
        case .exhale: samples = glide(from: high, to: low, seconds: seconds, loudness: loudness)
        case .holdIn, .holdOut:
            let middle = (low * high).squareRoot()
            samples = glide(from: middle, to: middle, seconds: min(seconds, tickSeconds), loudness: tickLoudness)
        }
        return riff(samples)
    }

    /// A sine whose frequency moves geometrically from `start` to `end` over `seconds`, its phase
    /// accumulated sample by sample so the glide has no jumps.
    static func glide(from start: Double, to end: Double, seconds: Double, loudness: Double) -> [Int16] {
        let count = max(0, Int((seconds * Double(sampleRate)).rounded()))
        let fadeSamples = max(1, min(count / 2, Int(fade * Double(sampleRate))))
        var samples = [Int16](repeating: 0, count: count)
        var phase = 0.0
        for index in 0..<count {
            let progress = count > 1 ? Double(index) / Double(count - 1) : 0
            let frequency = start * Double.pow(end / start, progress)
            let edge = min(index, count - 1 - index)
            let envelope = edge >= fadeSamples ? 1 : 0.5 - 0.5 * Double.cos(Double.pi * Double(edge) / Double(fadeSamples))
            samples[index] = Int16((loudness * envelope * Double.sin(phase) * Double(Int16.max)).rounded())
            phase += 2 * Double.pi * frequency / Double(sampleRate)
            if phase > 2 * Double.pi { phase -= 2 * Double.pi }
        }
        return samples
    }

    /// A canonical WAV file: the RIFF header, a 16-byte `fmt ` chunk (PCM, mono, 16 bits) and
    /// the `data` chunk, little-endian throughout.
    static func riff(_ samples: [Int16]) -> [UInt8] {
        let dataBytes = UInt32(samples.count * 2)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(44 + samples.count * 2)
        func append(_ text: String) { bytes += Array(text.utf8) }
        func append32(_ value: UInt32) { bytes += (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        func append16(_ value: UInt16) { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        append("RIFF")
        append32(36 + dataBytes)
        append("WAVE")
        append("fmt ")
        append32(16)
        append16(1)  // PCM
        append16(1)  // mono
        append32(UInt32(sampleRate))
        append32(UInt32(sampleRate * 2))  // bytes per second
        append16(2)  // bytes per frame
        append16(16)  // bits per sample
        append("data")
        append32(dataBytes)
        for sample in samples { append16(UInt16(bitPattern: sample)) }
        return bytes
    }
}
