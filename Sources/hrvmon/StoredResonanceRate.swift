import Presentation
import Settings
import UserData

extension Settings {
    /// These settings with the resonance pattern's rate taken from the stored assessment
    /// (`hrvmon resonance`) when there is one; the note says where the rate came from.
    func withStoredResonance() throws -> (settings: Settings, note: String?) {
        guard let stored = try badInputOnFailure({ try DataDirectory.resonance() }) else { return (self, nil) }
        var settings = self
        settings.breathing.rate = stored.bestBPM
        return (settings, "your resonance assessment of \(stored.date)")
    }
}
