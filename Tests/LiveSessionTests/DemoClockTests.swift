import HRV
import LivePipeline
import LiveSession
import SessionLog
import Testing
import TestSupport

/// The demo's clock runs fast, but at real time while an exercise runs, so the pacer on the
/// dashboard can be breathed with; session time never jumps when the pace changes.
@Suite struct DemoClockTests {
    final class Wall: @unchecked Sendable {
        var now = 100.0
    }

    static func exercise(_ kind: ExerciseMark.Kind, at time: Double) -> SessionEvent {
        .live(.exercise(ExerciseMark(kind: kind, pattern: "resonance", time: time, sessionSeconds: time)))
    }

    @Test func realTimeDuringAnExerciseFastOtherwise() {
        let wall = Wall()
        let clock = DemoClock(start: 1_000, speed: 10, now: { wall.now })
        var changes = 0
        clock.onPaceChange = { changes += 1 }
        wall.now += 6
        #expect(clock.time == 1_060)
        #expect(clock.wallTime(of: 1_100) == 110)
        var line = SessionLine(Self.exercise(.started, at: 1_060), at: 1_060)
        clock.handle(Self.exercise(.started, at: 1_060), at: 1_060, line: &line)
        #expect(clock.pace == 1 && changes == 1)
        #expect(clock.time == 1_060, "no jump when the pace changes")
        wall.now += 30
        #expect(clock.time == 1_090, "30 s of breathing take 30 s")
        #expect(clock.wallTime(of: 1_100) == wall.now + 10)
        clock.handle(Self.exercise(.stopped, at: 1_090), at: 1_090, line: &line)
        wall.now += 1
        #expect(clock.time == 1_100)
        #expect(changes == 2)
        clock.handle(.note("tea"), at: 1_100, line: &line)
        #expect(changes == 2, "other events leave the pace alone")
    }

    @Test func aSlowDemoStaysSlow() {
        let wall = Wall()
        let clock = DemoClock(start: 0, speed: 0.5, now: { wall.now })
        var line = SessionLine(.note(""), at: 0)
        clock.handle(Self.exercise(.started, at: 0), at: 0, line: &line)
        #expect(clock.pace == 0.5)
    }

    /// `b` starts and stops the user's own exercise, but leaves the one the demo took alone.
    @Test func theUsersKeyLeavesTheDemosExerciseAlone() throws {
        let replay = try DemoReplay()
        replay.play(until: 400)
        #expect(replay.run.session.isExercising, "the demo takes the exercise at 6:00")
        replay.pressB(at: 400)
        #expect(replay.run.session.isExercising, "b does not stop the demo's own exercise")
        #expect(replay.state.log.last?.text.hasPrefix("the demo's breathing exercise ends with its breathing segment") == true)
        replay.play(until: 500)
        #expect(!replay.run.session.isExercising, "the demo stops it at 8:00")
        replay.pressB(at: 510)
        #expect(replay.run.session.isExercising, "after it, b starts the user's own")
        replay.pressB(at: 530)
        #expect(!replay.run.session.isExercising)
    }
}
