/// The strap's ECG in the session file (`--ecg`; docs/reference/session-files.md): one `ecg` line
/// per two seconds or so, each a run of evenly spaced samples — the first sample's time on the
/// session's clock to the microsecond (`t`), the spacing in nanoseconds (`period_ns`) and the
/// samples in µV, the first whole and each other as its difference from the one before (`uv`),
/// about 4 bytes a sample. A line is written as soon as it holds `seconds` of samples, so a kill
/// -9 loses at most the samples of the line under way.
enum ECGLine {
    static let type = "ecg"
    /// Seconds of samples a line holds before it is written: 1,040 bytes of samples at 130 Hz
    /// against the line's 60 of keys and time.
    static let seconds = 2.0
    /// The spacings a line may have: 10 Hz to 1 kHz (the H10 samples at 130 Hz).
    static let periods: ClosedRange<Int64> = 1_000_000...100_000_000

    static func text(_ run: ECGSamples) -> String {
        var object = JSONObject()
        object.add("type", type)
        object.addRaw("t", microseconds(run.startMicroseconds))
        object.add("period_ns", Int(run.periodNanoseconds))
        var previous: Int32 = 0
        object.addIntegers("uv", run.microvolts.map { sample in
            defer { previous = sample }
            return Int(sample) - Int(previous)
        })
        return object.serialized + "\n"
    }

    /// Unix microseconds as seconds with six decimals.
    private static func microseconds(_ value: Int64) -> String {
        let magnitude = value.magnitude
        let fraction = String(magnitude % 1_000_000)
        return (value < 0 ? "-" : "") + "\(magnitude / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    static func samples<Fields: LineFields>(_ fields: Fields) throws(SessionFileReader.LineError) -> ECGSamples {
        let start = try fields.double("t")
        guard abs(start) < 1e12 else { throw SessionFileReader.LineError(reason: "t \(start) is not a time hrvmon writes") }
        let period = try fields.int("period_ns")
        guard periods.contains(Int64(period)) else {
            throw SessionFileReader.LineError(reason: "period_ns \(period) is not a sample spacing hrvmon writes (1 to 100 ms)")
        }
        let deltas = try fields.integers("uv")
        guard !deltas.isEmpty else { throw SessionFileReader.LineError(reason: "uv is empty: an ecg line has its samples") }
        var value = 0
        var samples: [Int32] = []
        samples.reserveCapacity(deltas.count)
        for (index, delta) in deltas.enumerated() {
            value += delta
            guard let sample = Int32(exactly: value) else {
                throw SessionFileReader.LineError(reason: "uv's sample \(index + 1) is \(value) µV, beyond a 32-bit sample")
            }
            samples.append(sample)
        }
        return ECGSamples(startMicroseconds: Int64((start * 1e6).rounded()), periodNanoseconds: Int64(period), microvolts: samples)
    }
}

/// The ECG samples waiting for their line. Samples that follow on from those waiting (their first
/// within half a spacing of where the next was due) join them, and the line's spacing is the mean
/// over all of them; a run that does not (a stream started again, the strap's clock jumped) ends
/// the line before it.
struct ECGLineBuffer {
    private var startMicroseconds: Int64 = 0
    /// Nanoseconds from the first sample to the last.
    private var span: Int64 = 0
    /// Nanoseconds from the last sample to the next due.
    private var period: Int64 = 0
    private var samples: [Int32] = []

    /// The lines due with `run` ("" for none).
    mutating func add(_ run: ECGSamples) -> String {
        guard !run.microvolts.isEmpty else { return "" }
        var due = ""
        if !samples.isEmpty, abs(offset(run) - span - period) > run.periodNanoseconds / 2 { due = take() }
        if samples.isEmpty { startMicroseconds = run.startMicroseconds }
        span = offset(run) + Int64(run.microvolts.count - 1) * run.periodNanoseconds
        period = run.periodNanoseconds
        samples += run.microvolts
        if span + period >= Int64(ECGLine.seconds * 1e9) { due += take() }
        return due
    }

    private func offset(_ run: ECGSamples) -> Int64 { (run.startMicroseconds - startMicroseconds) * 1000 }

    /// The samples waiting, as a line ("" for none).
    mutating func take() -> String {
        guard !samples.isEmpty else { return "" }
        defer { samples.removeAll(keepingCapacity: true) }
        let mean = samples.count > 1 ? (Double(span) / Double(samples.count - 1)).rounded() : Double(period)
        return ECGLine.text(ECGSamples(startMicroseconds: startMicroseconds, periodNanoseconds: Int64(mean), microvolts: samples))
    }
}
