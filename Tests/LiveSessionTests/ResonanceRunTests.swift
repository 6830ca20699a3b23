import HRV
import LivePipeline
import LiveSession
import SessionLog
import Settings
import Simulation
import Testing

/// The stepped pacer on a session fed as a strap feeds it — a notification a second, each
/// arriving `latency` late — on a virtual clock: the steps land on the RR timeline where the
/// simulated subject breathed them, and the assessment finds the subject's rate.
@Suite struct ResonanceRunTests {
    static let start = 1_800_000_000.0

    final class Marks: SessionOutput {
        var marks: [ResonanceStepMark] = []
        func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
            if case .resonanceStep(let mark) = event { marks.append(mark) }
        }
        func finish(_ summary: SessionSummary) {}
    }

    @Test(arguments: [0.0, 0.2])
    func stepsLandWhereTheSubjectBreathedThem(latency: Double) throws {
        let rates = [6.5, 6, 5.5, 5, 4.5]
        let leadIn = 30.0
        let scenario = Scenario(
            segments: [Segment(kind: .rest, duration: leadIn)] + rates.map { Segment(kind: .breathing, duration: 120, breathingRate: $0) },
            resonance: BaroreflexResonance(rate: 5))
        let settings = Settings()
        let marks = Marks()
        let run = SessionRun(
            session: SessionPipeline(pipeline: settings.pipeline, judge: try BeatJudge(settings: settings, baseline: nil)), outputs: [marks])
        let assessment = ResonanceRun(run: run, rates: rates, stepSeconds: 120, settleSeconds: 30)
        // The subject breathes with the pacer: its steps start at the segments' starts.
        var timed: [(time: Double, action: () -> Void)] = []
        assessment.begin(at: Self.start + leadIn) { time, action in timed.append((time, action)) }
        let notifications = SimulatedStrap.notifications(for: Simulator(scenario: scenario, seed: 4).run().beats)
        var events = notifications.map { notification in
            (time: Self.start + notification.seconds + latency, action: { run.receive(notification.bytes, at: Self.start + notification.seconds + latency) })
        }
        events += timed
        for event in events.enumerated().sorted(by: { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }) { event.element.action() }
        run.finish(at: Self.start + scenario.duration + 3, seconds: scenario.duration + 3)

        #expect(marks.marks.map(\.rate) == rates + [nil])
        for (index, mark) in marks.marks.enumerated() {
            // Placed early by the link's latency at most, and by no more than the batching's smallest lag.
            let truth = leadIn + 120 * Double(index)
            #expect(mark.sessionSeconds <= truth - latency + 1e-9 && mark.sessionSeconds > truth - latency - 0.05, "\(index): \(mark.sessionSeconds)")
        }
        let result = try #require(assessment.result)
        #expect(result.best == 5)
        #expect(result.steps.allSatisfy { $0.unreliable == nil })
    }
}
