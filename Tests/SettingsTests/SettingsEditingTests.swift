import Settings
import Testing

/// `hrvmon stress tune --apply` and `hrvmon config --reset` change one key and leave the rest.
@Suite struct SettingsEditingTests {
    static let file = """
        # my settings
        window.rmssd_seconds = 90
        stress.onset_margin_sd = 1.5
        breathing.bell = no

        """

    @Test func settingAKeyReplacesItsLineAndKeepsTheOthers() throws {
        let changed = SettingsFile.setting("stress.onset_margin_sd", to: "2", in: Self.file, note: ["set by a test", "Undo: it"])
        #expect(changed == """
            # my settings
            window.rmssd_seconds = 90
            breathing.bell = no

            # hrvmon: set by a test
            # hrvmon: Undo: it
            stress.onset_margin_sd = 2

            """)
        let settings = try SettingsFile.parse(changed, source: "config")
        #expect(settings.stress.onsetMargin == 2)
        #expect(settings.pipeline.rmssdWindow == 90)
        #expect(settings.breathing.bell == false)
        // Set again: one line of the key, one note.
        let again = SettingsFile.setting("stress.onset_margin_sd", to: "1.75", in: changed, note: ["second"])
        #expect(again.components(separatedBy: "stress.onset_margin_sd").count == 2, "\(again)")
        #expect(!again.contains("set by a test"))
        #expect(SettingsFile.setting("stress.onset_margin_sd", to: "2", in: "", note: []) == "stress.onset_margin_sd = 2\n")
    }

    @Test func resettingRemovesTheKeyAndItsNote() throws {
        let changed = SettingsFile.setting("stress.onset_margin_sd", to: "2", in: Self.file, note: ["set by a test"])
        let reset = try #require(SettingsFile.resetting("stress.onset_margin_sd", in: changed))
        #expect(reset == "# my settings\nwindow.rmssd_seconds = 90\nbreathing.bell = no\n\n")
        #expect(try SettingsFile.parse(reset, source: "config").stress.onsetMargin == 1.25)
        #expect(SettingsFile.resetting("stress.onset_margin_sd", in: reset) == nil)
        // A commented-out line is no setting.
        #expect(SettingsFile.resetting("breathing.rate", in: "# breathing.rate = 5\n") == nil)
    }
}
