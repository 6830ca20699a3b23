/// A session as an EDF+C file (edfplus.info): the received and the corrected intervals as two
/// signals sampled by `Tachogram` at 4 Hz, and an "EDF Annotations" signal with every beat
/// exactly — `RR <ms>` for each received beat, `NN <ms> <class>` for each corrected one — and
/// the gaps, notes, stress and activity episodes, exercises and suggestions, with durations;
/// with an ECG recorded (`--ecg`), an "ECG" signal of it in µV at 130 Hz (`ECGGrid`) beside them.
public enum EDFPlus {
    /// Seconds per data record.
    static let recordSeconds = 1
    /// The signals' scale: one digital unit is 1/8 strap tick (0.1220703125 ms), so the strap's
    /// ticks and the corrector's half ticks are exact; 32,000 units are 3,906.25 ms (15 bpm), and
    /// longer intervals (implausible ones) are written as that, their value being in the
    /// annotations. 0 is "no interval": a gap, or before the first beat.
    static let digitalMaximum = 32_000
    static let physicalMaximum = "3906.25"
    static let unitsPerMillisecond = 8 * 1.024
    /// The ECG's scale: one digital unit is 1 µV, what the strap sends, so its samples are exact;
    /// ±32.767 mV holds any ECG (the H10's R waves are ~1–2 mV), and beyond it a sample is
    /// clipped. 0 where no sample is (before the ECG starts, in a gap of the link).
    static let ecgLimit = 32_767
    /// Annotation texts longer than this (a long note) are cut, at a character boundary, so one
    /// note does not widen every data record; the session file and the BIDS events keep it whole.
    static let longestText = 160

    public static func encode(_ timeline: ExportTimeline) -> [UInt8] {
        let records = Tachogram.seconds(timeline)
        let rawSamples = Tachogram.raw(timeline)
        let correctedSamples = Tachogram.corrected(timeline)
        let annotations = annotationRecords(timeline, records: records)
        let annotationBytes = (annotations.map(\.count).max()! + 1) & ~1
        let ecg = ECGGrid(timeline)
        var file = header(timeline, records: records, annotationSamples: annotationBytes / 2, ecg: ecg != nil)
        let perRecord = Tachogram.rate * recordSeconds
        for record in 0..<records {
            let samples = record * perRecord..<(record + 1) * perRecord
            for index in samples { appendSample(rawSamples[index].map { timeline.raw[$0].interval.milliseconds }, to: &file) }
            for index in samples { appendSample(correctedSamples[index].map { timeline.corrected[$0].beat.milliseconds }, to: &file) }
            if let ecg {
                for point in record * ECGGrid.rate * recordSeconds..<(record + 1) * ECGGrid.rate * recordSeconds {
                    appendDigital(Int(min(max(ecg.value(at: point) ?? 0, Int32(-ecgLimit)), Int32(ecgLimit))), to: &file)
                }
            }
            file += annotations[record] + [UInt8](repeating: 0, count: annotationBytes - annotations[record].count)
        }
        return file
    }

    /// The bytes of each record's "EDF Annotations" signal: its time-keeping TAL, then the TALs
    /// whose onset falls in it, in time order (a received beat before a corrected one at a tie,
    /// then events).
    static func annotationRecords(_ timeline: ExportTimeline, records: Int) -> [[UInt8]] {
        var annotations: [(onset: Double, order: Int, duration: Double, text: String)] = []
        for beat in timeline.raw {
            annotations.append((beat.onset, 0, 0, "RR " + beat.interval.exactMilliseconds + (beat.followsGap ? " after_gap" : "")))
        }
        for beat in timeline.corrected { annotations.append((beat.onset, 1, 0, text(of: beat))) }
        for event in timeline.events {
            annotations.append((event.onset, 2, event.duration, event.text.isEmpty ? event.kind.rawValue : event.kind.rawValue + ": " + event.text))
        }
        annotations.sort { ($0.onset, $0.order) < ($1.onset, $1.order) }
        var lists = (0..<records).map { timeKeeping(record: $0) }
        for annotation in annotations {
            let record = annotation.onset < Double(records * recordSeconds) ? max(0, Int(annotation.onset) / recordSeconds) : records - 1
            lists[record] += tal(onset: annotation.onset, duration: annotation.duration, text: annotation.text)
        }
        return lists
    }

    static func text(of beat: ExportTimeline.CorrectedBeat) -> String {
        "NN " + ExportNumber.milliseconds(beat.beat.milliseconds) + " " + beat.beat.kind + (beat.beat.followsGap ? " after_gap" : "")
    }

    /// `+onset[\x15duration]\x14text\x14\x00`: one annotation, a duration only when it has one.
    static func tal(onset: Double, duration: Double, text: String) -> [UInt8] {
        var bytes = Array(("+" + ExportNumber.text(onset)).utf8)
        if duration > 0 { bytes += [0x15] + Array(ExportNumber.text(duration).utf8) }
        return bytes + [0x14] + annotationText(text) + [0x14, 0]
    }

    static func timeKeeping(record: Int) -> [UInt8] {
        Array("+\(record * recordSeconds)".utf8) + [0x14, 0x14, 0]
    }

    /// UTF-8 with the TAL separators and other control characters made spaces, cut to `longestText`.
    static func annotationText(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in text {
            let encoded = character.utf8.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: " ") : $0 }
            if bytes.count + encoded.count > longestText { break }
            bytes += encoded
        }
        return bytes
    }

    private static func appendSample(_ milliseconds: Double?, to file: inout [UInt8]) {
        appendDigital(milliseconds.map { Int(min(Double(digitalMaximum), max(0, ($0 * unitsPerMillisecond).rounded()))) } ?? 0, to: &file)
    }

    /// A 16-bit two's complement sample, little-endian.
    private static func appendDigital(_ units: Int, to file: inout [UInt8]) {
        file.append(UInt8(truncatingIfNeeded: units))
        file.append(UInt8(truncatingIfNeeded: units >> 8))
    }

    // MARK: The header

    static func header(_ timeline: ExportTimeline, records: Int, annotationSamples: Int, ecg: Bool = false) -> [UInt8] {
        let start = timeline.localZero
        let months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        let two = LocalTime.two
        let device = timeline.header.deviceName ?? "X"
        var bytes = field("0", 8)
        // Patient: code, sex, birthdate, name — none known to hrvmon.
        bytes += field("X X X X", 80)
        // Recording: the start date, then the hospital administration code (the session id), the
        // technician and the equipment (the sensor), each with spaces as underscores.
        let recording = "Startdate \(two(start.day.day))-\(months[start.day.month - 1])-\(start.day.year) "
            + [timeline.header.id, "X", device].map(subfield).joined(separator: " ")
        bytes += field(recording, 80)
        bytes += field("\(two(start.day.day)).\(two(start.day.month)).\(two(start.day.year % 100))", 8)
        bytes += field("\(two(start.hour)).\(two(start.minute)).\(two(start.second))", 8)
        let perRecord = String(Tachogram.rate * recordSeconds)
        let prefiltering = "none; held from beat to beat, \(Tachogram.rate) Hz"
        let limit = String(ecgLimit), negative = String(-ecgLimit)
        let signals: [[String]] = [
            // label, transducer, physical dimension, physical min/max, digital min/max, prefiltering, samples per record
            ["RR", device, "ms", "0", physicalMaximum, "0", String(digitalMaximum), prefiltering, perRecord],
            ["NN", "hrvmon artifact correction", "ms", "0", physicalMaximum, "0", String(digitalMaximum), prefiltering, perRecord],
        ] + (ecg ? [[
            "ECG", device + " chest electrodes", "uV", negative, limit, negative, limit, "the strap's own; nearest sample at \(ECGGrid.rate) Hz",
            String(ECGGrid.rate * recordSeconds),
        ]] : []) + [
            ["EDF Annotations", "", "", "-1", "1", "-32768", "32767", "", String(annotationSamples)],
        ]
        bytes += field(String(256 * (signals.count + 1)), 8)
        bytes += field("EDF+C", 44)
        bytes += field(String(records), 8)
        bytes += field(String(recordSeconds), 8)
        bytes += field(String(signals.count), 4)
        let widths = [16, 80, 8, 8, 8, 8, 8, 80, 8]
        for (column, width) in widths.enumerated() {
            for signal in signals { bytes += field(signal[column], width) }
        }
        for _ in signals { bytes += field("", 32) }
        return bytes
    }

    /// A header field: printable US-ASCII (others become `_`), left-aligned, space-padded, cut to `width`.
    static func field(_ text: String, _ width: Int) -> [UInt8] {
        let ascii = text.unicodeScalars.prefix(width).map { (0x20...0x7E).contains($0.value) ? UInt8($0.value) : UInt8(ascii: "_") }
        return ascii + [UInt8](repeating: UInt8(ascii: " "), count: width - ascii.count)
    }

    /// A subfield of the identification fields: no spaces in it.
    static func subfield(_ text: String) -> String {
        text.isEmpty ? "X" : String(text.map { $0 == " " ? "_" : $0 })
    }
}
