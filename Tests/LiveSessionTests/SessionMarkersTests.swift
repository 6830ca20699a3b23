import HRV
import LivePipeline
import LiveSession
import SessionLog
import Simulation
import TestSupport
import Testing

/// The LSL Markers stream's vocabulary, from a session's events.
@Suite struct SessionMarkersTests {
    /// Every event of a session with the markers it gives, in order.
    final class Recorder: SessionOutput {
        var markers = SessionMarkers()
        var marked: [(marker: String, time: Double)] = []
        var episodes: [(episode: StressEpisode, time: Double)] = []
        var onsets: [(episode: StressEpisode, time: Double)] = []

        func handle(_ event: SessionEvent, at time: Double, line: inout SessionLine) {
            if case .live(.episode(let episode)) = event, episode.kind == .stress { episodes.append((episode, time)) }
            if case .live(.metrics(let report)) = event, let onset = report.stressOnset { onsets.append((onset, time)) }
            marked += markers.markers(for: event).map { ($0, time) }
        }

        func finish(_ summary: SessionSummary) {}
    }

    static func markers(_ events: [SessionEvent]) -> [String] {
        var markers = SessionMarkers()
        return events.flatMap { markers.markers(for: $0) }
    }

    /// The demo: its stress episode is marked on and off once, at the report that declared it and
    /// at its end; its breathing exercise starts and stops; nothing else is marked.
    @Test func theDemoSessionsMarkers() throws {
        let replay = try DemoReplay()
        let recorder = Recorder()
        replay.run.add(recorder)
        replay.play(until: 600)
        #expect(recorder.marked.map(\.marker) == ["stress_on", "breathing_start", "stress_off", "breathing_stop"])
        let episode = try #require(recorder.episodes.first)
        #expect(recorder.episodes.count == 1 && recorder.onsets.count == 1)
        // Declared in the stress segment (3:00–6:00), dated back to where it began.
        let onset = try #require(recorder.onsets.first)
        #expect(onset.episode.start == episode.episode.start)
        #expect(onset.time - DemoReplay.start > 180 && onset.time - DemoReplay.start < 360, "\(onset.time - DemoReplay.start)")
        #expect(recorder.marked.first?.time == onset.time)
        #expect(recorder.marked.first { $0.marker == "stress_off" }?.time == episode.time)
    }

    /// At rest the whole time: no stress marked (the detector's false-positive side).
    @Test func restIsNeverMarkedAsStress() throws {
        let replay = try DemoReplay(scenario: try Scenario(presetOrSpec: "rest:10m"))
        let recorder = Recorder()
        replay.run.add(recorder)
        replay.play(until: 600)
        #expect(recorder.marked.isEmpty, "\(recorder.marked)")
    }

    /// Lost when a connected link leaves that state (never before the first connection, never by
    /// stopping), once however many states follow; restored when it is connected again.
    @Test func linkLostAndRestored() {
        func link(_ states: [LinkStatus.State]) -> [SessionEvent] { states.map { .link(LinkStatus($0)) } }
        #expect(Self.markers(link([.searching, .connecting, .disconnected, .reconnecting, .connecting, .resolving, .subscribing, .connected])) == [])
        #expect(Self.markers(link([.connected, .disconnected, .connecting, .resolving, .connected])) == ["link_lost", "link_restored"])
        #expect(Self.markers(link([.connected, .stalled, .subscribing, .connected, .bluetoothUnavailable, .connected])) == [
            "link_lost", "link_restored", "link_lost", "link_restored",
        ])
        #expect(Self.markers(link([.connected, .stopped])) == [])
        #expect(Self.markers(link([.connected, .adapterOff, .stopped])) == ["link_lost"])
    }

    @Test func notesAndExercises() {
        let started = ExerciseMark(kind: .started, pattern: "resonance", time: 10, sessionSeconds: 10)
        var stopped = started
        stopped.kind = .stopped
        #expect(Self.markers([.note("felt tense ü"), .live(.exercise(started)), .live(.exercise(stopped)), .notice("a notice"), .sensor(.batteryLevel(80))])
            == ["note: felt tense ü", "breathing_start", "breathing_stop"])
    }
}
