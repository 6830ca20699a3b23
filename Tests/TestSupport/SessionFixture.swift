import Foundation

/// A session file written line by line in the documented record format, with a bit of
/// everything: 600 beats of 1000/1024 s, one per packet; a link loss after beat 300 (30 s without
/// signal); a stress episode at 100–200 s, an activity episode at 400–450 s, a breathing exercise
/// at 220–280 s with its effect, a suggestion, corrected and implausible beats, and a note that
/// tries to be markup.
public struct SessionFixture {
    public static let note = "<script>alert(\"hi\")</script> & tea"
    public static let beats = 600
    public static let gapAfter = 300
    public static let gapSeconds = 30.0

    public var id = "20251121-101000"
    /// Unix time of the header; the first beat arrives 5 s later.
    public var start: Double
    public var summary = true
    public var tornTail = false

    public static let interval = 1000.0 / 1024

    /// Clock time of beat `index` (0-based): its end, after the link loss when it follows it.
    public func time(ofBeat index: Int) -> Double {
        start + 5 + Double(index + 1) * Self.interval + (index >= Self.gapAfter ? Self.gapSeconds : 0)
    }

    public var text: String {
        var lines = [
            #"{"type":"session","t":\#(start),"format":"hrvmon-session","version":1,"program":"hrvmon 0.1.0","id":"\#(id)","start_local":"2025-11-21T10:10:00+00:00","source":"live","device":{"name":"Polar H10 A1B2C3D4","address":"A0:9E:1A:00:00:01"},"baseline":null,"config":{"window.rmssd_seconds":"60","stress.calibration_seconds":"180"}}"#,
        ]
        for index in 0..<Self.beats {
            let time = time(ofBeat: index)
            let seconds = Double(index + 1) * Self.interval
            if index == Self.gapAfter {
                lines.append(#"{"type":"link","t":\#(time - 29),"state":"disconnected","detail":"the sensor went out of range"}"#)
                lines.append(#"{"type":"gap","t":\#(time - 29)}"#)
                lines.append(#"{"type":"link","t":\#(time - 1),"state":"connected","detail":""}"#)
            }
            lines.append(#"{"type":"rr","t":\#(time),"recv":\#(time),"pkt":\#(index + 1),"seq":\#(index + 1),"rr_1024":1000,"rr_ms":976.5625,"hr_bpm":61,"contact":"detected"}"#)
            let kind = index == 50 ? "ectopic" : index == 51 ? "long_short" : index == 500 ? "implausible" : "normal"
            lines.append(#"{"type":"nn","s":\#(seconds),"nn_ms":976.5625,"class":"\#(kind)"}"#)
            let stressed = (100.0...200).contains(seconds)
            lines.append(#"{"type":"metrics","t":\#(time),"session_s":\#(seconds),"hr_bpm":\#(stressed ? 80 : 61.5),"rmssd_ms":\#(stressed ? 18 : 42),"ln_rmssd":3.7,"sdnn_ms":55,"pnn50_pct":10,"mean_nn_ms":976,"corrected_pct":0,"low_quality":false,"filled":true,"state":"\#(stressed ? "stress" : "rest")","level":\#(stressed ? 80 : 25),"z":0,"calibrating":false,"beats":\#(index + 1)}"#)
            switch index {
            case 160: lines.append(#"{"type":"note","t":\#(time),"text":"\#(Self.note.replacingOccurrences(of: "\"", with: "\\\""))"}"#)
            case 205: lines.append(#"{"type":"stress","t":\#(time),"start_s":100,"end_s":200,"peak_level":82}"#)
            case 210: lines.append(#"{"type":"suggestion","t":\#(time),"session_s":\#(seconds),"reason":"RMSSD 18 ms, 57 % below your reference of 42 ms, for 1 min","pattern":"resonance","minutes":5,"tip":"Unclench your jaw."}"#)
            case 225: lines.append(#"{"type":"exercise","t":\#(time),"event":"started","pattern":"resonance","session_s":220}"#)
            case 286: lines.append(#"{"type":"exercise","t":\#(time),"event":"stopped","pattern":"resonance","session_s":280}"#)
            case 420: lines.append(#"{"type":"effect","t":\#(time),"start_s":220,"end_s":280,"before":{"rmssd_ms":20,"hr_bpm":80,"beats":60},"during":{"rmssd_ms":61,"hr_bpm":66,"beats":60},"after":{"rmssd_ms":45,"hr_bpm":63,"beats":120},"coherence":{"mean":0.8312,"peak_hz":0.1,"readings":3}}"#)
            case 470: lines.append(#"{"type":"activity","t":\#(time),"start_s":400,"end_s":450,"peak_level":null}"#)
            default: break
            }
        }
        if summary {
            lines.append(#"{"type":"summary","t":\#(time(ofBeat: Self.beats - 1) + 1),"beats":600,"malformed":0,"duration_s":620,"rmssd_ms":38.2,"sdnn_ms":60.1,"hr_bpm":61.4,"stress_s":100,"exercises":1,"baseline":{"source":"session","resting_hr_bpm":61.5,"ln_rmssd_mean":3.74,"ln_rmssd_sd":0.15,"samples":24}}"#)
        }
        return lines.joined(separator: "\n") + (tornTail ? "\n{\"type\":\"rr\",\"t\":17" : "\n")
    }

    public init(id: String = "20251121-101000", start: Double, summary: Bool = true, tornTail: Bool = false) {
        self.id = id
        self.start = start
        self.summary = summary
        self.tornTail = tornTail
    }
}
