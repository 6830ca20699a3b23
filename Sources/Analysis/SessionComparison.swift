import LivePipeline
import SessionLog

/// Whether two readings of a session (a version 1 file and its version 2 rewrite) hold the same
/// session: what is read from the files, and every event a replay of each through the live
/// pipeline gives (compared as their JSON lines, hashed, so that a day's events need no memory).
enum SessionComparison {
    /// What differs, first found; nil when nothing does.
    static func difference(_ old: SessionFile, _ new: SessionFile, source: String) throws -> String? {
        guard old.beats.count == new.beats.count else { return "\(old.beats.count) beats, then \(new.beats.count)" }
        // A version 1 beat's time is its `t` as the reader reads decimals (as JSONSerialization
        // did: not always to the nearest Double, a few units of the last place off for times of
        // 17 digits); version 2 dates it from its packet's arrival, read to the last bit, as the
        // live pipeline did. They agree to well within a microsecond, and the replay uses neither.
        for (index, (a, b)) in zip(old.beats, new.beats).enumerated()
        where abs(a.time - b.time) > 1e-6 || a.sequence != b.sequence || a.ticks != b.ticks || a.heartRate != b.heartRate || a.contact != b.contact {
            return "beat \(index + 1): \(a) and \(b)"
        }
        guard old.placed.count == new.placed.count else { return "\(old.placed.count) corrected beats, then \(new.placed.count)" }
        for (index, (a, b)) in zip(old.placed, new.placed).enumerated()
        where a.seconds != b.seconds || a.milliseconds != b.milliseconds || a.kind != b.kind || a.followsGap != b.followsGap {
            return "corrected beat \(index + 1)"
        }
        let counts: [(what: String, old: Int, new: Int)] = [
            ("steps", old.steps.count, new.steps.count), ("stress and activity episodes", old.episodes.count, new.episodes.count),
            ("suggestions", old.suggestions.count, new.suggestions.count), ("exercises", old.exercises.count, new.exercises.count),
            ("effects", old.effects.count, new.effects.count), ("links", old.links.count, new.links.count),
            ("resonance steps", old.resonanceSteps.count, new.resonanceSteps.count), ("unknown lines", old.unknownLines, new.unknownLines),
        ]
        if let count = counts.first(where: { $0.old != $0.new }) { return "\(count.old) \(count.what), then \(count.new)" }
        guard old.notes.map(\.text) == new.notes.map(\.text), old.notes.map(\.time) == new.notes.map(\.time) else { return "the notes" }
        guard old.summary?.time == new.summary?.time, old.summary?.beats == new.summary?.beats else { return "the summary" }
        let replays = try [old, new].map { try replayDigest($0, source: source) }
        return replays[0] == replays[1] ? nil : "the replay's events"
    }

    /// The count and FNV-1a hash of the JSON lines of every event a replay of `file` gives.
    private static func replayDigest(_ file: SessionFile, source: String) throws -> [UInt64] {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var count: UInt64 = 0
        _ = try SessionReplay.replay(file, settings: try SessionReplay.settings(of: file, source: source), baseline: file.header.baseline) { event in
            guard let line = SessionRecords.object(for: .live(event), at: 0)?.serialized else { return }
            count += 1
            for byte in line.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        }
        return [count, hash]
    }
}
