import Foundation
import Settings
import TestSupport
import Testing

@Suite struct SettingsFileTests {
    func parse(_ text: String) throws(SettingsFile.Error) -> Settings {
        try SettingsFile.parse(text, source: "config")
    }

    func error(_ text: String) -> SettingsFile.Error? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesLandWhereTheyBelong() throws {
        let settings = try parse("""
            # my settings
            window.rmssd_seconds = 90

            stress.onset_margin_sd = 2
            stress.release_margin_sd = 1.25
            activity.margin_bpm = 35
            breathing.pattern = 4-7-8
            breathing.bell = no
            tip = "Step outside for a minute."
            tip = Drink a glass of water.\r
            """)
        #expect(settings.pipeline.rmssdWindow == 90)
        #expect(settings.stress.onsetMargin == 2)
        #expect(settings.stress.releaseMargin == 1.25)
        #expect(settings.stress.activityMargin == 35)
        #expect(settings.breathing.pattern == "4-7-8")
        #expect(settings.breathing.bell == false)
        #expect(settings.breathing.tips == ["Step outside for a minute.", "Drink a glass of water."])
        #expect(settings.pipeline.sdnnWindow == 300)  // untouched keys keep their defaults
    }

    /// A file saved by a Windows editor: "\r\n" is one Character in Swift, so splitting on "\n" alone
    /// left the whole file as one line; Notepad also starts it with a byte-order mark.
    @Test func windowsLineEndingsSeparateLines() throws {
        let settings = try parse("\u{FEFF}# edited on Windows\r\nwindow.rmssd_seconds = 90\r\nbreathing.bell = no\r\n")
        #expect(try parse("\u{FEFF}window.rmssd_seconds = 90").pipeline.rmssdWindow == 90)
        #expect(settings.pipeline.rmssdWindow == 90)
        #expect(settings.breathing.bell == false)
        #expect(error("window.rmssd_seconds = 90\r\nbreathing.rate = 40\r\n")?.line == 2)
    }

    @Test func emptyFileIsTheDefaults() throws {
        #expect(try parse("") == Settings())
        #expect(try parse("# nothing\n\n") == Settings())
    }

    @Test func errorsNameLineKeyAndAllowedValues() throws {
        #expect(error("window.rmssd_seconds = 90\nstress.onset = 2")?.description.hasPrefix(
            "config:2: unknown key 'stress.onset'; known keys: window.rmssd_seconds,") == true)
        #expect(error("window.rmssd_seconds = 2")?.description
            == "config:1: window.rmssd_seconds = 2 is not allowed: window.rmssd_seconds takes a number from 5 to 3600")
        #expect(error("stress.sustain_seconds = soon")?.line == 1)
        #expect(error("breathing.bell = maybe")?.problem == "breathing.bell = maybe is not allowed: breathing.bell takes true or false")
        #expect(error("breathing.pattern = 4-9")?.problem.contains("resonance, box, 4-7-8 or IN-HOLD-OUT[-HOLD]") == true)
        #expect(error("\n\nbreathing.rate")?.description == "config:3: expected key = value, found 'breathing.rate'")
        #expect(error("window.sdnn_seconds = nan")?.line == 1)
        #expect(error("tip =")?.line == 1)
    }

    @Test func keysThatDependOnEachOther() {
        #expect(error("stress.release_margin_sd = 2")?.problem
            == "stress.release_margin_sd (2.0) must not exceed stress.onset_margin_sd (1.25)")
        #expect(error("activity.exit_margin_bpm = 50")?.problem
            == "activity.exit_margin_bpm (50.0) must not exceed activity.margin_bpm (40.0)")
    }

    /// Every key written with its current value reads back to the same settings.
    @Test func everyKeyRoundTrips() throws {
        var changed = Settings()
        changed.breathing.tips = ["one", "two"]
        let text = SettingDefinition.all.flatMap { definition -> [String] in
            if case .list = definition.kind { return changed.breathing.tips.map { "\(definition.key) = \($0)" } }
            return ["\(definition.key) = \(definition.value(in: changed))"]
        }.joined(separator: "\n")
        #expect(try parse(text) == changed)
    }

    /// The configuration reference names every key, so the documentation cannot fall behind.
    @Test func theConfigurationReferenceDocumentsEveryKey() throws {
        let reference = try String(
            contentsOf: Repository.root.appendingPathComponent("docs/reference/configuration.md"),
            encoding: .utf8)
        for definition in SettingDefinition.all {
            #expect(reference.contains("| `\(definition.key)` |"), "docs/reference/configuration.md lacks \(definition.key)")
        }
    }
}
