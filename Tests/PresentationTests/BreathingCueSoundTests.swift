import HRV
import Presentation
import Testing

/// The pacer's sounds: a canonical WAV file (RIFF header, `fmt ` and `data` chunks as the format
/// lays them out), exactly as long as the phase, the pitch gliding the right way, no click.
@Suite struct BreathingCueSoundTests {
    static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    static func samples(_ wave: [UInt8]) -> [Int16] {
        stride(from: 44, to: wave.count, by: 2).map { Int16(bitPattern: uint16(wave, $0)) }
    }

    /// Frequency by zero crossings (upward) over `samples`, Hz.
    static func frequency(_ samples: ArraySlice<Int16>) -> Double {
        let crossings = zip(samples, samples.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        return Double(crossings) * Double(BreathingCueSound.sampleRate) / Double(samples.count)
    }

    @Test func theHeaderIsCanonicalPCM() {
        let wave = BreathingCueSound.wave(.inhale, seconds: 4)
        #expect(Array(wave[0..<4]) == Array("RIFF".utf8))
        #expect(Self.uint32(wave, 4) == UInt32(wave.count - 8))
        #expect(Array(wave[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(Self.uint32(wave, 16) == 16, "PCM's fmt chunk is 16 bytes")
        #expect(Self.uint16(wave, 20) == 1, "format 1: PCM")
        #expect(Self.uint16(wave, 22) == 1, "mono")
        #expect(Self.uint32(wave, 24) == 16_000)
        #expect(Self.uint32(wave, 28) == 32_000, "bytes per second")
        #expect(Self.uint16(wave, 32) == 2, "bytes per frame")
        #expect(Self.uint16(wave, 34) == 16, "bits per sample")
        #expect(Array(wave[36..<40]) == Array("data".utf8))
        #expect(Self.uint32(wave, 40) == UInt32(wave.count - 44))
        #expect(wave.count == 44 + 2 * 4 * 16_000, "as long as the phase")
    }

    @Test func theInhaleRisesAndTheExhaleFalls() {
        let inhale = Self.samples(BreathingCueSound.wave(.inhale, seconds: 4))
        let exhale = Self.samples(BreathingCueSound.wave(.exhale, seconds: 6))
        let window = 3_200  // 0.2 s, past the fades
        let rising = (Self.frequency(inhale[1_000..<(1_000 + window)]), Self.frequency(inhale[(inhale.count - 1_000 - window)..<(inhale.count - 1_000)]))
        let falling = (Self.frequency(exhale[1_000..<(1_000 + window)]), Self.frequency(exhale[(exhale.count - 1_000 - window)..<(exhale.count - 1_000)]))
        #expect(abs(rising.0 - 220) < 10 && abs(rising.1 - 330) < 10, "\(rising)")
        #expect(abs(falling.0 - 330) < 10 && abs(falling.1 - 220) < 10, "\(falling)")
        // Faded in and out: no click at either end, full loudness in the middle.
        for samples in [inhale, exhale] {
            #expect(abs(Int(samples.first!)) < 50 && abs(Int(samples.last!)) < 400)
            #expect(samples.map { abs(Int($0)) }.max()! > 8_000)
        }
    }

    @Test func aHoldIsAShortSoftTick() {
        let hold = Self.samples(BreathingCueSound.wave(.holdIn, seconds: 4))
        #expect(hold.count == 2_400, "0.15 s, not the whole hold")
        let peak = hold.map { abs(Int($0)) }.max()!
        #expect(peak > 2_000 && peak < 4_500)
        #expect(BreathingCueSound.wave(.holdOut, seconds: 0.1).count == 44 + 2 * 1_600, "never longer than the hold")
    }

    @Test func theWordsOfEachPhase() {
        #expect(BreathingCueSound.words(.inhale) == "breathe in")
        #expect(BreathingCueSound.words(.exhale) == "breathe out")
        #expect(BreathingCueSound.words(.holdIn) == "hold" && BreathingCueSound.words(.holdOut) == "hold")
    }
}
