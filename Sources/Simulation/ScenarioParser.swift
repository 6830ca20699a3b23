/// Why a scenario spec was rejected: the offending token, where it starts in
/// the spec, and what would have been allowed there.
public struct ScenarioParseError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The offending token, exactly as written (whitespace trimmed).
    public var token: String
    /// 0-based character offset of `token` in the spec.
    public var position: Int
    /// What is wrong and what is allowed.
    public var reason: String

    public init(token: String, position: Int, reason: String) {
        self.token = token
        self.position = position
        self.reason = reason
    }

    public var description: String {
        "invalid scenario at position \(position) ('\(token)'): \(reason)"
    }
}

/// Allowed ranges, shared by the parser and its error messages.
enum ScenarioLimits {
    static let heartRate: ClosedRange<Double> = 30...220
    static let rmssd: ClosedRange<Double> = 1...250
    static let breathingRate: ClosedRange<Double> = 3...40
    static let maxDuration: Double = 48 * 3600
    static let ectopicPerMinute: ClosedRange<Double> = 0...30
    static let artifactCount: ClosedRange<Int> = 0...10_000
    static let resonanceRate: ClosedRange<Double> = 3...12
    static let resonanceQuality: ClosedRange<Double> = 0.5...20
}

extension Scenario {
    /// Parses a textual scenario spec.
    ///
    /// Grammar (whitespace around items and parts is ignored; kinds, units
    /// and keys are case-insensitive):
    ///
    /// ```
    /// spec     := item ("," item)*
    /// item     := segment | global
    /// segment  := kind ":" duration (":" key "=" number)*
    /// kind     := "rest" | "stress" | "breathing" | "activity" | "recovery"
    /// duration := [number "h"] [number "m"] [number "s"]   -- at least one part,
    ///             in this order, e.g. 90s, 10m, 1h, 1m30s, 1.5h
    /// key      := "hr"     -- target heart rate, bpm, 30...220
    ///           | "rmssd"  -- target RMSSD, ms, 1...250
    ///           | "br"     -- breathing rate, breaths/min, 3...40
    ///           | "move"   -- "still" | "walking" | "running": what the chest accelerometer
    ///                         feels (default: running for activity, still otherwise)
    /// global   := "ectopic=" number ["/min"]  -- ectopic beats per minute, 0...30
    ///           | "missed=" integer           -- missed beats (merged RRs), 0...10000
    ///           | "extra=" integer            -- extra beats (split RRs), 0...10000
    ///           | "ectopic-at=" duration      -- an ectopic beat at this time (repeatable)
    ///           | "resonance=" (number | "flat") -- the subject's resonance, breaths/min, 3...12,
    ///                                            or none; paces the breathing segments
    ///           | "resonance-q=" number       -- its sharpness Q, 0.5...20 (default 3)
    /// number   := digits ["." digits]
    /// ```
    ///
    /// Each segment's duration must be > 0 and ≤ 48 h, and so must the total.
    /// Omitted keys take the kind's defaults (``SegmentKind/defaultHeartRate``…).
    /// Globals may appear anywhere in the list; each of `ectopic`, `missed`
    /// and `extra` at most once.
    ///
    /// Example: `rest:10m,stress:5m:hr=85,breathing:3m:br=6,activity:5m,ectopic=0.5/min`
    ///
    /// - Throws: ``ScenarioParseError`` naming the first offending token, its
    ///   position and the allowed values.
    public init(parsing spec: String) throws(ScenarioParseError) {
        var parser = ScenarioParser(spec: spec)
        self = try parser.parse()
    }

    /// The canonical spec of this scenario: parsing it yields an equal
    /// scenario (for values representable in the grammar). Targets equal to
    /// the kind's defaults are omitted.
    public var spec: String {
        var items: [String] = []
        for s in segments {
            var item = "\(s.kind.rawValue):\(formatDuration(s.duration))"
            if s.heartRate != s.kind.defaultHeartRate { item += ":hr=\(formatNumber(s.heartRate))" }
            if s.rmssd != s.kind.defaultRMSSD { item += ":rmssd=\(formatNumber(s.rmssd))" }
            if s.breathingRate != s.kind.defaultBreathingRate { item += ":br=\(formatNumber(s.breathingRate))" }
            if s.movement != s.kind.defaultMovement { item += ":move=\(s.movement.rawValue)" }
            items.append(item)
        }
        if ectopicPerMinute != 0 { items.append("ectopic=\(formatNumber(ectopicPerMinute))/min") }
        for t in ectopicTimes { items.append("ectopic-at=\(formatDuration(t))") }
        if missedBeats != 0 { items.append("missed=\(missedBeats)") }
        if extraBeats != 0 { items.append("extra=\(extraBeats)") }
        if let resonance {
            items.append("resonance=\(resonance.rate.map(formatNumber) ?? "flat")")
            if resonance.quality != BaroreflexResonance.defaultQuality { items.append("resonance-q=\(formatNumber(resonance.quality))") }
        }
        return items.joined(separator: ",")
    }
}

private func formatNumber(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return String(x)
}

private func formatDuration(_ seconds: Double) -> String {
    guard seconds == seconds.rounded(), seconds > 0, seconds < 1e12 else {
        return "\(formatNumber(seconds))s"
    }
    let total = Int64(seconds)
    let h = total / 3600, m = (total % 3600) / 60, s = total % 60
    var out = ""
    if h > 0 { out += "\(h)h" }
    if m > 0 { out += "\(m)m" }
    if s > 0 { out += "\(s)s" }
    return out
}

private let kindList = SegmentKind.allCases.map(\.rawValue).joined(separator: ", ")
private let segmentKeyList = "hr (bpm, 30-220), rmssd (ms, 1-250), br (breaths/min, 3-40), move (\(movementList))"
private let movementList = Movement.allCases.map(\.rawValue).joined(separator: ", ")
private let globalList = "ectopic=N/min, missed=N, extra=N, ectopic-at=TIME, resonance=BREATHS_PER_MIN|flat, resonance-q=Q"
private let durationHelp = "expected a duration like 90s, 10m, 1h or 1m30s (units h, m, s in that order)"
private let numberHelp = "expected a decimal number like 85 or 6.5"

private struct ScenarioParser {
    let spec: String

    init(spec: String) { self.spec = spec }

    private func error(_ token: Substring, _ reason: String) -> ScenarioParseError {
        ScenarioParseError(
            token: String(token),
            position: spec.distance(from: spec.startIndex, to: token.startIndex),
            reason: reason
        )
    }

    mutating func parse() throws(ScenarioParseError) -> Scenario {
        let whole = trim(spec[...])
        if whole.isEmpty {
            throw error(spec[spec.startIndex..<spec.startIndex], "empty scenario; expected comma-separated segments kind:duration[:key=value]*, e.g. rest:10m,stress:5m")
        }
        var segments: [Segment] = []
        var ectopicRate: Double?
        var missed: Int?
        var extra: Int?
        var ectopicTimes: [(token: Substring, time: Double)] = []
        // Set once given: the rate, or nil for flat.
        var resonance: Double??
        var quality: (token: Substring, value: Double)?
        var total = 0.0

        for rawItem in spec.split(separator: ",", omittingEmptySubsequences: false) {
            let item = trim(rawItem)
            if item.isEmpty {
                throw error(item, "empty item (stray comma?); expected kind:duration or one of \(globalList)")
            }
            if !item.contains(":") && item.contains("=") {
                // Global setting.
                let (key, value) = splitKeyValue(item)
                switch key.lowercased() {
                case "ectopic":
                    if ectopicRate != nil { throw error(item, "duplicate setting 'ectopic'; give it once") }
                    var v = value
                    if v.lowercased().hasSuffix("/min") { v = trim(v.dropLast(4)) }
                    guard let rate = parseNumber(v), ScenarioLimits.ectopicPerMinute.contains(rate) else {
                        throw error(value, "ectopic must be a rate like 0.5/min, from 0 to 30 per minute")
                    }
                    ectopicRate = rate
                case "missed", "extra":
                    let name = key.lowercased()
                    if (name == "missed" ? missed : extra) != nil {
                        throw error(item, "duplicate setting '\(name)'; give it once")
                    }
                    guard value.allSatisfy(\.isASCIIDigit), !value.isEmpty, value.count <= 6,
                          let n = Int(value), ScenarioLimits.artifactCount.contains(n)
                    else {
                        throw error(value, "\(name) must be a whole number from 0 to 10000")
                    }
                    if name == "missed" { missed = n } else { extra = n }
                case "ectopic-at":
                    guard let t = parseDuration(value) else { throw error(value, durationHelp) }
                    ectopicTimes.append((value, t))
                case "resonance":
                    if resonance != nil { throw error(item, "duplicate setting 'resonance'; give it once") }
                    if value.lowercased() == "flat" {
                        resonance = .some(nil)
                    } else {
                        var v = value
                        if v.lowercased().hasSuffix("/min") { v = trim(v.dropLast(4)) }
                        guard let rate = parseNumber(v), ScenarioLimits.resonanceRate.contains(rate) else {
                            throw error(value, "resonance must be breaths per minute from 3 to 12 (like 5.5), or flat for none")
                        }
                        resonance = .some(rate)
                    }
                case "resonance-q":
                    if quality != nil { throw error(item, "duplicate setting 'resonance-q'; give it once") }
                    guard let q = parseNumber(value), ScenarioLimits.resonanceQuality.contains(q) else {
                        throw error(value, "resonance-q must be a number from 0.5 to 20")
                    }
                    quality = (item, q)
                default:
                    throw error(key, "unknown setting; allowed globals: \(globalList); segment keys hr, rmssd, br go after a segment, e.g. stress:5m:hr=85")
                }
                continue
            }

            // Segment.
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map(trim)
            let kindToken = parts[0]
            guard let kind = SegmentKind(rawValue: kindToken.lowercased()) else {
                if kindToken.contains("=") {
                    throw error(kindToken, "a segment must start with its kind; allowed kinds: \(kindList)")
                }
                throw error(kindToken, "unknown segment kind; allowed: \(kindList)")
            }
            guard parts.count >= 2, !parts[1].isEmpty else {
                throw error(item, "missing duration; expected kind:duration, e.g. \(kind.rawValue):10m")
            }
            let durationToken = parts[1]
            guard let duration = parseDuration(durationToken) else {
                throw error(durationToken, durationHelp)
            }
            guard duration > 0, duration <= ScenarioLimits.maxDuration else {
                throw error(durationToken, "duration must be greater than 0 and at most 48h")
            }
            total += duration
            if total > ScenarioLimits.maxDuration {
                throw error(durationToken, "total scenario duration exceeds 48h")
            }
            var hr: Double?, rmssd: Double?, br: Double?, movement: Movement?
            for option in parts.dropFirst(2) {
                guard option.contains("=") else {
                    throw error(option, "expected key=value; allowed keys: \(segmentKeyList)")
                }
                let (key, value) = splitKeyValue(option)
                let name = key.lowercased()
                if name == "move" {
                    if movement != nil { throw error(option, "duplicate key 'move'") }
                    guard let named = Movement(rawValue: value.lowercased()) else { throw error(value, "move must be one of \(movementList)") }
                    movement = named
                    continue
                }
                let range: ClosedRange<Double>
                let unit: String
                switch name {
                case "hr":
                    if hr != nil { throw error(option, "duplicate key 'hr'") }
                    range = ScenarioLimits.heartRate; unit = "bpm"
                case "rmssd":
                    if rmssd != nil { throw error(option, "duplicate key 'rmssd'") }
                    range = ScenarioLimits.rmssd; unit = "ms"
                case "br":
                    if br != nil { throw error(option, "duplicate key 'br'") }
                    range = ScenarioLimits.breathingRate; unit = "breaths/min"
                default:
                    throw error(key, "unknown key; allowed keys: \(segmentKeyList)")
                }
                guard let v = parseNumber(value) else { throw error(value, numberHelp) }
                guard range.contains(v) else {
                    throw error(value, "\(name) must be between \(formatNumber(range.lowerBound)) and \(formatNumber(range.upperBound)) \(unit)")
                }
                switch name {
                case "hr": hr = v
                case "rmssd": rmssd = v
                default: br = v
                }
            }
            segments.append(Segment(kind: kind, duration: duration, heartRate: hr, rmssd: rmssd, breathingRate: br, movement: movement))
        }

        if segments.isEmpty {
            throw error(whole, "no segments; expected at least one kind:duration, kinds: \(kindList)")
        }
        for (token, time) in ectopicTimes where time >= total {
            throw error(token, "ectopic-at must be before the end of the scenario (\(formatDuration(total)))")
        }
        if let quality, resonance == nil {
            throw error(quality.token, "resonance-q needs resonance=BREATHS_PER_MIN (or flat) too")
        }
        return Scenario(
            segments: segments,
            ectopicPerMinute: ectopicRate ?? 0,
            missedBeats: missed ?? 0,
            extraBeats: extra ?? 0,
            ectopicTimes: ectopicTimes.map(\.time),
            resonance: resonance.map { BaroreflexResonance(rate: $0, quality: quality?.value ?? BaroreflexResonance.defaultQuality) }
        )
    }
}

private func trim(_ s: Substring) -> Substring {
    var r = s
    while let f = r.first, f.isWhitespace { r = r.dropFirst() }
    while let l = r.last, l.isWhitespace { r = r.dropLast() }
    return r
}

private func splitKeyValue(_ s: Substring) -> (Substring, Substring) {
    let eq = s.firstIndex(of: "=")!
    return (trim(s[s.startIndex..<eq]), trim(s[s.index(after: eq)...]))
}

/// digits ["." digits] — no signs, exponents, inf/nan or hex.
private func parseNumber(_ s: Substring) -> Double? {
    var sawDigit = false, sawDot = false
    for c in s {
        if c.isASCIIDigit { sawDigit = true }
        else if c == "." && !sawDot { sawDot = true }
        else { return nil }
    }
    guard sawDigit, s.first != ".", s.last != "." else { return nil }
    return Double(String(s))
}

/// [N h][N m][N s] with at least one part, units in that order.
private func parseDuration(_ s: Substring) -> Double? {
    var total = 0.0
    var number = ""
    var lastRank = 0  // h = 1, m = 2, s = 3
    var parts = 0
    for c in s.lowercased() {
        if c.isASCIIDigit || c == "." {
            number.append(c)
            continue
        }
        let rank: Int, scale: Double
        switch c {
        case "h": rank = 1; scale = 3600
        case "m": rank = 2; scale = 60
        case "s": rank = 3; scale = 1
        default: return nil
        }
        guard rank > lastRank, let v = parseNumber(number[...]) else { return nil }
        total += v * scale
        lastRank = rank
        number = ""
        parts += 1
    }
    guard number.isEmpty, parts > 0 else { return nil }
    return total
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
