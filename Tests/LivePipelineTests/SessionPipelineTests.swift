import HRV
import LivePipeline
import TestSupport
import Testing

/// The pure live pipeline: every received beat once and in order, malformed packets counted and
/// never fatal, and the numbers independent of how the strap packs its RR values.
@Suite struct SessionPipelineTests {
    static let ticks = Array(Fixture.ticks("mitbih_nsr_5min.txt").prefix(240))

    /// Feeds `ticks` packed `perPacket(index)` to a notification, each arriving when its last beat
    /// ends (1/1024 s ticks after 1,000 s), as a strap sends them.
    static func run(
        _ ticks: [Int], perPacket: (Int) -> Int, interleave: [Int: [UInt8]] = [:]
    ) -> (events: [LiveEvent], pipeline: SessionPipeline) {
        var pipeline = SessionPipeline(pipeline: .init(), judge: BeatJudge(detector: StressDetector()))
        var events: [LiveEvent] = []
        var index = 0
        var packet = 0
        var time = 1_000.0
        while index < ticks.count {
            if let bytes = interleave[packet] { pipeline.receive(bytes, at: time, emit: { events.append($0) }) }
            let count = min(perPacket(packet), ticks.count - index)
            let rr = Array(ticks[index..<index + count])
            time += Double(rr.reduce(0, +)) / 1024
            pipeline.receive(Packet.measurement(heartRate: 70, rr: rr), at: time, emit: { events.append($0) })
            index += count
            packet += 1
        }
        pipeline.finish(at: time + 1, emit: { events.append($0) })
        return (events, pipeline)
    }

    static func beats(_ events: [LiveEvent]) -> [ReceivedBeat] {
        events.compactMap { if case .beat(let beat) = $0 { beat } else { nil } }
    }

    static func lastMetrics(_ events: [LiveEvent]) -> MetricsReport? {
        events.reversed().lazy.compactMap { if case .metrics(let report) = $0 { report } else { nil } }.first
    }

    @Test func everyBeatOnceInOrderWithItsPacket() {
        let (events, pipeline) = Self.run(Self.ticks, perPacket: { 1 + $0 % 3 })
        let beats = Self.beats(events)
        #expect(beats.map { Int($0.ticks) } == Self.ticks)
        #expect(beats.map(\.sequence) == Array(1...Self.ticks.count))
        #expect(zip(beats, beats.dropFirst()).allSatisfy { $0.packet <= $1.packet && $0.time <= $1.time })
        #expect(pipeline.packets == beats.last?.packet)
        #expect(pipeline.malformedPackets == 0)
    }

    /// The same RR give the same numbers however many a notification carries.
    @Test func packingDoesNotChangeTheNumbers() throws {
        let one = try #require(Self.lastMetrics(Self.run(Self.ticks, perPacket: { _ in 1 }).events))
        let three = try #require(Self.lastMetrics(Self.run(Self.ticks, perPacket: { _ in 3 }).events))
        #expect(one.rmssdWindow.metrics == three.rmssdWindow.metrics)
        #expect(one.sdnnWindow.metrics == three.sdnnWindow.metrics)
        #expect(one.judgedBeats == three.judgedBeats)
        #expect(one.rmssdWindow.metrics?.rmssd != nil)
    }

    /// The live report carries the last two minutes' DFA α1 once they are in, and the breathing
    /// rate the detector reads.
    @Test func reportsCarryAlpha1AndTheBreathingRate() throws {
        let events = Self.run(Self.ticks, perPacket: { _ in 2 }).events
        let reports = events.compactMap { if case .metrics(let report) = $0 { report } else { nil } }
        #expect(reports.filter { $0.sessionSeconds < RollingDFA.window }.allSatisfy { $0.dfaAlpha1 == nil })
        let last = try #require(reports.last)
        let alpha1 = try #require(last.dfaAlpha1)
        #expect(alpha1 > 0.2 && alpha1 < 1.8, "\(alpha1)")
        #expect(reports.contains { $0.assessment.breathingRate != nil })
    }

    /// During an exercise the reports carry the exercise's coherence once its first 64 s are in,
    /// and nothing outside it; the effect holds the mean of the same readings a meter fed the
    /// exercise's placed beats takes.
    @Test func exercisesReportTheirCoherence() throws {
        var pipeline = SessionPipeline(pipeline: .init(), judge: BeatJudge(detector: StressDetector()))
        var events: [LiveEvent] = []
        var time = 1_000.0
        for (index, tick) in Self.ticks.enumerated() {
            if index == 60 { pipeline.startExercise("resonance", at: time, emit: { events.append($0) }) }
            if index == 200 { pipeline.stopExercise(at: time, emit: { events.append($0) }) }
            time += Double(tick) / 1024
            pipeline.receive(Packet.measurement(rr: [tick]), at: time, emit: { events.append($0) })
        }
        pipeline.finish(at: time, emit: { events.append($0) })
        let marks = events.compactMap { if case .exercise(let mark) = $0 { mark } else { nil } }
        let (start, end) = (marks[0].sessionSeconds, marks[1].sessionSeconds)
        let reports = events.compactMap { if case .metrics(let report) = $0 { report } else { nil } }
        #expect(reports.filter { $0.sessionSeconds <= start + CoherenceMeter.window - 3 || $0.sessionSeconds > end + 3 }
            .allSatisfy { $0.coherence == nil })
        #expect(reports.filter { $0.sessionSeconds > start + CoherenceMeter.window + 3 && $0.sessionSeconds < end - 3 }
            .allSatisfy { $0.coherence != nil })
        var meter = CoherenceMeter()
        for case .placed(let beat) in events where beat.seconds > start && beat.seconds <= end { meter.add(beat) }
        let effect = try #require(events.lazy.compactMap { if case .effect(let effect) = $0 { effect } else { nil } }.first)
        #expect(meter.readings > 10)
        #expect(effect.coherence.readings == meter.readings)
        #expect(effect.coherence.meanScore == meter.meanScore)
    }

    /// Garbage between good packets is reported and counted; no beat is lost or invented.
    @Test func malformedPacketsAreCountedNeverFatal() {
        // Empty; an RR field of one byte; 16-bit HR and energy expended, then three RR bytes.
        let garbage: [Int: [UInt8]] = [3: [], 10: [0x10, 70, 0x01], 20: [0x19, 44, 1, 16, 0, 0, 4, 1]]
        let (events, pipeline) = Self.run(Self.ticks, perPacket: { _ in 2 }, interleave: garbage)
        let malformed = events.compactMap { if case .malformed(let packet) = $0 { packet } else { nil } }
        #expect(malformed.map(\.count) == [1, 2, 3])
        #expect(malformed.map(\.bytes) == [[], [0x10, 70, 0x01], [0x19, 44, 1, 16, 0, 0, 4, 1]])
        #expect(pipeline.malformedPackets == 3)
        #expect(Self.beats(events).map { Int($0.ticks) } == Self.ticks)
    }

    /// A break in continuity is reported, and no RR difference spans it.
    @Test func aGapIsReportedAndNotBridged() {
        var pipeline = SessionPipeline(pipeline: .init(), judge: BeatJudge(detector: StressDetector()))
        var events: [LiveEvent] = []
        for (second, tick) in Self.ticks.prefix(60).enumerated() {
            if second == 30 { pipeline.breakContinuity(at: 1_030, emit: { events.append($0) }) }
            pipeline.receive(Packet.measurement(rr: [tick]), at: 1_000 + Double(second), emit: { events.append($0) })
        }
        pipeline.finish(at: 1_060, emit: { events.append($0) })
        #expect(events.contains(.gap(time: 1_030)))
        let placed = events.compactMap { if case .placed(let beat) = $0 { beat } else { nil } }
        #expect(placed.filter(\.followsGap).count == 1)
    }
}
