import HRV
import Simulation
import Testing

@Suite struct PipelineTests {
    /// Any interval the reader accepts (1 microtick to an hour), in any order, with or without
    /// correction: no trap, every interval accounted for, the timeline kept.
    @Test(arguments: [true, false])
    func extremeIntervalsNeverTrap(correcting: Bool) {
        var generator = SeededGenerator(seed: correcting ? 1 : 2)
        var configuration = HRVPipeline.Configuration()
        if !correcting { configuration.correction = nil }
        var pipeline = HRVPipeline(configuration: configuration)
        var total: Int64 = 0
        var lastTime: Int64 = 0
        var emitted = 0
        for _ in 0..<20_000 {
            let microticks: Int64 = switch Int.random(in: 0..<4, using: &generator) {
            case 0: Int64.random(in: 1...1_000, using: &generator)
            case 1: Int64.random(in: 1...(3_600_000 * RRInterval.microticksPerMillisecond), using: &generator)
            default: Int64.random(in: 500...1_200, using: &generator) * RRInterval.microticksPerMillisecond
            }
            total += microticks
            pipeline.append(RRInterval(microticks: microticks)) { update in
                emitted += 1
                lastTime = update.beat.time
                _ = update.rmssdWindow.metrics
                _ = update.sdnnWindow.metrics
            }
        }
        pipeline.finish { lastTime = $0.beat.time; emitted += 1 }
        #expect(lastTime == total)
        #expect(pipeline.recording.rawBeats == 20_000)
        #expect(emitted == pipeline.recording.beats)
    }

    /// After a break in continuity the corrector's look-ahead is released, and no successive
    /// difference spans the break.
    @Test func breakContinuityFlushesAndSeparates() {
        var pipeline = HRVPipeline()
        var updates: [HRVUpdate] = []
        for index in 0..<20 { pipeline.append(RRInterval(milliseconds: 800 + index % 2 * 20)) { updates.append($0) } }
        #expect(updates.count == 20 - ArtifactCorrector.lookahead)
        pipeline.breakContinuity { updates.append($0) }
        #expect(updates.count == 20)
        for _ in 0..<10 { pipeline.append(RRInterval(milliseconds: 1200)) { updates.append($0) } }
        pipeline.finish { updates.append($0) }
        #expect(updates.count == 30)
        #expect(updates[20].beat.followsGap)
        #expect(updates.filter(\.beat.followsGap).count == 1)
        // 19 differences of 20 ms before the break, 9 of 0 after; the jump across it is not one.
        #expect(pipeline.recording.statistics.differenceCount == 28)
        let rmssd = pipeline.recording.statistics.metrics?.rmssd ?? 0
        #expect(abs(rmssd - (19.0 * 400 / 28).squareRoot()) < 1e-9)
    }
}
