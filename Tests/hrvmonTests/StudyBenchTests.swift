import Foundation
import TestSupport
import Testing

/// scripts/bench-study.py at the smallest scale: its own PostgreSQL, two participants whose session
/// files grow while `study sync` runs every 10 s, then its exactly-once check (every beat appended
/// on the server once, by count, sequence range and sum of RR), which sets its exit status.
@Suite struct StudyBenchTests {
    @Test func theBenchmarkFindsEveryBeatOnTheServerOnce() throws {
        let home = Hrvmon.freshHome()
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: false)
        let day = home + "/day.jsonl"
        let demo = try Hrvmon.run(["demo", "--speed", "1000", "--scenario", "rest:10m", "--log", day, "--format", "jsonl"])
        try #require(demo.status == 0 && FileManager.default.fileExists(atPath: day), "\(demo.stdout)\(demo.stderr)")
        // 15 s at 30x: 450 of the 600 s appended while syncing, the rest by the final sync.
        let bench = try TestChild.run(
            "/usr/bin/python3", [Repository.root.path + "/scripts/bench-study.py", "2", "30", "0.25"],
            environment: ProcessInfo.processInfo.environment.merging(["HRVMON": Hrvmon.executable.path, "DAY_FILE": day]) { $1 })
        #expect(bench.status == 0, "\(bench.text)\n\(bench.errors)")
        #expect(bench.text.contains("exactly once: yes"), "\(bench.text)")
        #expect(bench.text.contains("| 2 | 30× |"), "\(bench.text)")
    }
}
