import Foundation
import TestSupport
import Testing

@Suite struct ConfigCommandTests {
    @Test func templateReadsBackAndChangesNothing() throws {
        let template = try Hrvmon.run(["config", "--template"]).stdout
        #expect(template.contains("stress.onset_margin_sd = 1.25"))
        let file = try Hrvmon.temporaryFile(template, name: "config")
        let shown = try Hrvmon.run(["config", "--config", file.path])
        #expect(shown.status == 0)
        #expect(shown.stdout == (try Hrvmon.run(["config"]).stdout))
    }

    @Test func fileSettingsReachTheCommands() throws {
        let file = try Hrvmon.temporaryFile("breathing.pattern = box\nbreathing.minutes = 0.5\n", name: "config")
        let breathe = try Hrvmon.run(["breathe", "--config", file.path, "--speed", "60"]).stdout
        #expect(breathe.hasPrefix("box: 3.8 breaths a minute for 30 s\n"))

        let stressTest = try Hrvmon.run(["simulate", "--scenario", "stress-test", "--seed", "3"]).stdout
        let strict = try Hrvmon.temporaryFile("stress.onset_margin_sd = 9\n", name: "config")
        let json = try Hrvmon.run(["analyze", "--format", "json", "--config", strict.path, "-"], stdin: stressTest).json
        #expect((json?["stress_windows"] as? [Any])?.isEmpty == true)
    }

    @Test func xdgConfigHomeIsTheDefaultPlace() throws {
        let file = try Hrvmon.temporaryFile("breathing.rate = 5\n", name: "config")
        let home = file.deletingLastPathComponent().appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("hrvmon"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: file, to: home.appendingPathComponent("hrvmon/config"))
        let shown = try Hrvmon.run(["config"], environment: ["XDG_CONFIG_HOME": home.path]).stdout
        #expect(shown.contains("breathing.rate = 5 (default 6)\n"), "a changed value shows its default")
    }

    @Test func invalidFileExitsTwo() throws {
        let file = try Hrvmon.temporaryFile("stress.sustain_seconds = 9999\n", name: "config")
        let result = try Hrvmon.run(["config", "--config", file.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("config:1: stress.sustain_seconds = 9999 is not allowed: stress.sustain_seconds takes a number from 0 to 600"))
        #expect(try Hrvmon.run(["config", "--config", "/nonexistent/config"]).status == 2)
    }
}
