import Simulation
import Testing

@Suite struct ScenarioParserTests {
    @Test func parsesTheDocumentedExample() throws {
        let s = try Scenario(parsing: "rest:10m,stress:5m:hr=85,breathing:3m:br=6,activity:5m,ectopic=0.5/min")
        #expect(s == Scenario(
            segments: [
                Segment(kind: .rest, duration: 600),
                Segment(kind: .stress, duration: 300, heartRate: 85),
                Segment(kind: .breathing, duration: 180, breathingRate: 6),
                Segment(kind: .activity, duration: 300),
            ],
            ectopicPerMinute: 0.5
        ))
        #expect(s.duration == 1380)
        #expect(s.segments[1].rmssd == SegmentKind.stress.defaultRMSSD)
    }

    @Test(arguments: [
        ("90s", 90.0), ("10m", 600), ("1h", 3600), ("1m30s", 90), ("1h2m3s", 3723),
        ("1.5h", 5400), ("0.5s", 0.5), ("2H", 7200), ("48h", 172_800), ("1h30s", 3630),
    ])
    func durations(token: String, seconds: Double) throws {
        let s = try Scenario(parsing: "rest:\(token)")
        #expect(s.segments == [Segment(kind: .rest, duration: seconds)])
    }

    @Test func allKeysGlobalsWhitespaceAndCase() throws {
        let s = try Scenario(parsing: " Rest : 2m : HR=58 : rmssd=60.5 : br=10 , missed=3, extra = 2 ,ECTOPIC=1.25, ectopic-at=1m, ectopic-at=90s, recovery:1m ")
        #expect(s == Scenario(
            segments: [
                Segment(kind: .rest, duration: 120, heartRate: 58, rmssd: 60.5, breathingRate: 10),
                Segment(kind: .recovery, duration: 60),
            ],
            ectopicPerMinute: 1.25, missedBeats: 3, extraBeats: 2, ectopicTimes: [60, 90]
        ))
    }

    @Test func rangeBoundsAreInclusive() throws {
        let s = try Scenario(parsing: "rest:1s:hr=30:rmssd=1:br=3,stress:47h:hr=220:rmssd=250:br=40")
        #expect(s.segments.map(\.heartRate) == [30, 220])
        #expect(s.segments.map(\.rmssd) == [1, 250])
        #expect(s.segments.map(\.breathingRate) == [3, 40])
        #expect(try Scenario(parsing: "rest:24h,stress:24h").duration == 48 * 3600)
    }

    static let errors: [(String, ScenarioParseError)] = [
        ("rest:10m,sleep:5m", .init(token: "sleep", position: 9,
            reason: "unknown segment kind; allowed: rest, stress, breathing, activity, recovery, talking, standing")),
        ("rest:10x", .init(token: "10x", position: 5,
            reason: "expected a duration like 90s, 10m, 1h or 1m30s (units h, m, s in that order)")),
        ("rest:600", .init(token: "600", position: 5,
            reason: "expected a duration like 90s, 10m, 1h or 1m30s (units h, m, s in that order)")),
        ("rest:30s1m", .init(token: "30s1m", position: 5,
            reason: "expected a duration like 90s, 10m, 1h or 1m30s (units h, m, s in that order)")),
        ("rest:1m1m", .init(token: "1m1m", position: 5,
            reason: "expected a duration like 90s, 10m, 1h or 1m30s (units h, m, s in that order)")),
        ("rest:-5m", .init(token: "-5m", position: 5,
            reason: "expected a duration like 90s, 10m, 1h or 1m30s (units h, m, s in that order)")),
        ("rest:0s", .init(token: "0s", position: 5,
            reason: "duration must be greater than 0 and at most 48h")),
        ("rest:49h", .init(token: "49h", position: 5,
            reason: "duration must be greater than 0 and at most 48h")),
        ("rest:40h,stress:9h", .init(token: "9h", position: 16,
            reason: "total scenario duration exceeds 48h")),
        ("rest", .init(token: "rest", position: 0,
            reason: "missing duration; expected kind:duration, e.g. rest:10m")),
        ("stress:", .init(token: "stress:", position: 0,
            reason: "missing duration; expected kind:duration, e.g. stress:10m")),
        ("rest:5m:hr=250", .init(token: "250", position: 11,
            reason: "hr must be between 30 and 220 bpm")),
        ("rest:5m:hr=29.5", .init(token: "29.5", position: 11,
            reason: "hr must be between 30 and 220 bpm")),
        ("rest:5m:rmssd=0", .init(token: "0", position: 14,
            reason: "rmssd must be between 1 and 250 ms")),
        ("breathing:5m:br=2", .init(token: "2", position: 16,
            reason: "br must be between 3 and 40 breaths/min")),
        ("rest:5m:hr=fast", .init(token: "fast", position: 11,
            reason: "expected a decimal number like 85 or 6.5")),
        ("rest:5m:hr=1e2", .init(token: "1e2", position: 11,
            reason: "expected a decimal number like 85 or 6.5")),
        ("rest:5m:hr=nan", .init(token: "nan", position: 11,
            reason: "expected a decimal number like 85 or 6.5")),
        ("rest:5m:hr=+80", .init(token: "+80", position: 11,
            reason: "expected a decimal number like 85 or 6.5")),
        ("rest:5m:hr=", .init(token: "", position: 11,
            reason: "expected a decimal number like 85 or 6.5")),
        ("rest:5m:bpm=80", .init(token: "bpm", position: 8,
            reason: "unknown key; allowed keys: hr (bpm, 30-220), rmssd (ms, 1-250), br (breaths/min, 3-40), move (still, walking, running)")),
        ("rest:5m:80", .init(token: "80", position: 8,
            reason: "expected key=value; allowed keys: hr (bpm, 30-220), rmssd (ms, 1-250), br (breaths/min, 3-40), move (still, walking, running)")),
        ("rest:5m:hr=60:hr=70", .init(token: "hr=70", position: 14, reason: "duplicate key 'hr'")),
        ("rest:5m:move=jogging", .init(token: "jogging", position: 13, reason: "move must be one of still, walking, running")),
        ("rest:5m:move=still:move=still", .init(token: "move=still", position: 19, reason: "duplicate key 'move'")),
        ("rest:5m,,stress:1m", .init(token: "", position: 8,
            reason: "empty item (stray comma?); expected kind:duration or one of ectopic=N/min, missed=N, extra=N, ectopic-at=TIME, resonance=BREATHS_PER_MIN|flat, resonance-q=Q")),
        ("rest:5m,", .init(token: "", position: 8,
            reason: "empty item (stray comma?); expected kind:duration or one of ectopic=N/min, missed=N, extra=N, ectopic-at=TIME, resonance=BREATHS_PER_MIN|flat, resonance-q=Q")),
        ("", .init(token: "", position: 0,
            reason: "empty scenario; expected comma-separated segments kind:duration[:key=value]*, e.g. rest:10m,stress:5m")),
        ("   ", .init(token: "", position: 0,
            reason: "empty scenario; expected comma-separated segments kind:duration[:key=value]*, e.g. rest:10m,stress:5m")),
        ("ectopic=1/min", .init(token: "ectopic=1/min", position: 0,
            reason: "no segments; expected at least one kind:duration, kinds: rest, stress, breathing, activity, recovery, talking, standing")),
        ("rest:5m,hr=80", .init(token: "hr", position: 8,
            reason: "unknown setting; allowed globals: ectopic=N/min, missed=N, extra=N, ectopic-at=TIME, resonance=BREATHS_PER_MIN|flat, resonance-q=Q; segment keys hr, rmssd, br go after a segment, e.g. stress:5m:hr=85")),
        ("rest:5m,ectopic=lots", .init(token: "lots", position: 16,
            reason: "ectopic must be a rate like 0.5/min, from 0 to 30 per minute")),
        ("rest:5m,ectopic=31/min", .init(token: "31/min", position: 16,
            reason: "ectopic must be a rate like 0.5/min, from 0 to 30 per minute")),
        ("rest:5m,ectopic=1,ectopic=2", .init(token: "ectopic=2", position: 18,
            reason: "duplicate setting 'ectopic'; give it once")),
        ("rest:5m,missed=-1", .init(token: "-1", position: 15,
            reason: "missed must be a whole number from 0 to 10000")),
        ("rest:5m,extra=1.5", .init(token: "1.5", position: 14,
            reason: "extra must be a whole number from 0 to 10000")),
        ("rest:5m,extra=10001", .init(token: "10001", position: 14,
            reason: "extra must be a whole number from 0 to 10000")),
        ("rest:5m,ectopic-at=5m", .init(token: "5m", position: 19,
            reason: "ectopic-at must be before the end of the scenario (5m)")),
        ("hr=80:rest:5m", .init(token: "hr=80", position: 0,
            reason: "a segment must start with its kind; allowed kinds: rest, stress, breathing, activity, recovery, talking, standing")),
    ]

    @Test(arguments: errors)
    func rejectsBadTokensWithExactError(spec: String, expected: ScenarioParseError) {
        #expect(throws: expected) { try Scenario(parsing: spec) }
    }

    @Test func errorDescriptionNamesTokenPositionAndAllowedValues() {
        do {
            _ = try Scenario(parsing: "rest:10m,nap:5m")
            Issue.record("expected an error")
        } catch {
            #expect(error.description
                == "invalid scenario at position 9 ('nap'): unknown segment kind; allowed: rest, stress, breathing, activity, recovery, talking, standing")
        }
    }

    @Test func requiredPresetsExistWithTheirShapes() throws {
        let p = Scenario.presets
        #expect(p["demo"] == Scenario.demo)
        #expect(Scenario.demo.segments.map(\.kind) == [.rest, .stress, .breathing, .recovery])
        #expect(Scenario.demo.segments.map(\.duration) == [180, 180, 120, 120])
        #expect(Scenario.demo.ectopicTimes.count == 3)
        let stressTest = try #require(p["stress-test"])
        #expect(stressTest.segments.map(\.kind) == [.rest, .stress, .rest])
        #expect(stressTest.segments.map(\.duration) == [600, 300, 300])
        let workout = try #require(p["workout"])
        #expect(workout.segments.map(\.kind) == [.rest, .activity, .recovery])
        #expect(workout.segments.map(\.duration) == [180, 600, 300])
        let paced = try #require(p["paced"])
        #expect(paced.segments.map(\.kind) == [.rest, .breathing, .rest])
        #expect(paced.segments.map(\.duration) == [300, 300, 300])
        #expect(paced.segments[1].breathingRate == 6)
    }

    @Test(arguments: Scenario.presets.keys.sorted())
    func presetsRoundTripThroughTheGrammarAndAreValid(name: String) throws {
        let preset = Scenario.presets[name]!
        let reparsed = try Scenario(parsing: preset.spec)
        #expect(reparsed == preset, "\(name): \(preset.spec)")
        #expect(try Scenario(presetOrSpec: name) == preset)
        #expect(preset.duration > 0 && preset.duration <= 48 * 3600)
        for s in preset.segments {
            #expect((30...220).contains(s.heartRate))
            #expect((1...250).contains(s.rmssd))
            #expect((3...40).contains(s.breathingRate))
        }
    }

    @Test func specRendersCompactly() throws {
        let s = Scenario(
            segments: [
                Segment(kind: .rest, duration: 630),
                Segment(kind: .stress, duration: 3661, heartRate: 85.5),
                Segment(kind: .breathing, duration: 2.5, breathingRate: 5),
            ],
            ectopicPerMinute: 0.5, missedBeats: 2, ectopicTimes: [90]
        )
        #expect(s.spec == "rest:10m30s,stress:1h1m1s:hr=85.5,breathing:2.5s:br=5,ectopic=0.5/min,ectopic-at=1m30s,missed=2")
        #expect(try Scenario(parsing: s.spec) == s)
        #expect(try Scenario(presetOrSpec: "rest:1m") == Scenario(segments: [Segment(kind: .rest, duration: 60)]))
    }

    /// How a segment moves: running for activity, still otherwise, unless `move=` says.
    @Test func movement() throws {
        let s = try Scenario(parsing: "rest:1m,activity:2m:move=Walking,activity:1m,talking:1m:move=still")
        #expect(s.segments.map(\.movement) == [.still, .walking, .running, .still])
        #expect(s.spec == "rest:1m,activity:2m:move=walking,activity:1m,talking:1m")
        #expect(try Scenario(parsing: "stress:1m:move=running").spec == "stress:1m:move=running")
    }

    @Test func segmentDefaultsPerKind() {
        for kind in SegmentKind.allCases {
            let s = Segment(kind: kind, duration: 60)
            #expect(s.heartRate == kind.defaultHeartRate)
            #expect(s.rmssd == kind.defaultRMSSD)
            #expect(s.breathingRate == kind.defaultBreathingRate)
        }
        // Effect sizes from the literature: moderate mental stress raises HR by 6–10 bpm and lowers
        // RMSSD by 30–40 % (Castaldo et al. 2015); paced breathing leaves HR flat (Laborde 2022).
        #expect((6...10).contains(SegmentKind.stress.defaultHeartRate - SegmentKind.rest.defaultHeartRate))
        #expect((0.6...0.7).contains(SegmentKind.stress.defaultRMSSD / SegmentKind.rest.defaultRMSSD))
        #expect(abs(SegmentKind.breathing.defaultHeartRate - SegmentKind.rest.defaultHeartRate) <= 2)
        #expect(SegmentKind.activity.defaultRMSSD < SegmentKind.stress.defaultRMSSD)
        #expect(SegmentKind.stress.defaultRMSSD < SegmentKind.rest.defaultRMSSD)
        #expect(SegmentKind.rest.defaultRMSSD < SegmentKind.breathing.defaultRMSSD)
        #expect(SegmentKind.breathing.defaultBreathingRate == 6)
    }
}
