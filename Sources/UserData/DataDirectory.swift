import FoundationEssentials
import HRV
import Platform
import SessionLog
import Settings

/// Where hrvmon keeps the user's data: `$XDG_DATA_HOME/hrvmon` (`~/.local/share/hrvmon`), a 0700
/// directory of 0600 files.
public enum DataDirectory {
    public static var path: String { XDGDirectory.data + "/hrvmon" }

    public static var baselineFile: String { path + "/baseline.json" }

    public struct Failure: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }

        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
    }

    public static func loadHistory() throws(Failure) -> BaselineHistory {
        let file = baselineFile
        guard FileSystem.exists(file) else { return BaselineHistory() }
        do {
            return try JSONDecoder().decode(BaselineHistory.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            let description = (error as? CocoaError)?.foundationDescription ?? "\(error)"
            throw Failure(path: file, reason: "not a readable baseline history (\(description)); move it away or run `hrvmon baseline reset`")
        }
    }

    /// The personal resting baseline, when the history holds enough days.
    public static func personalBaseline(_ settings: Settings) throws(Failure) -> Baseline? {
        personalBaseline(settings, history: try loadHistory())
    }

    public static func personalBaseline(_ settings: Settings, history: BaselineHistory) -> Baseline? {
        history.baseline(
            days: Int(settings.baseline.days), minimumDays: Int(settings.baseline.minimumDays),
            minimumSD: settings.stress.minimumSD, today: today)
    }

    /// Loads the history, lets `change` edit it, and saves it; returns what `change` returns.
    @discardableResult
    public static func updateHistory<Result>(_ change: (inout BaselineHistory) -> Result) throws(Failure) -> Result {
        var history = try loadHistory()
        let result = change(&history)
        try save(history)
        return result
    }

    public static func save(_ history: BaselineHistory) throws(Failure) {
        try writeJSON(history, to: baselineFile)
    }

    public static var lastSensorFile: String { path + "/last-sensor" }

    /// The address of the sensor `monitor` last streamed from, if any.
    public static func lastSensor() -> String? {
        guard let text = try? String(contentsOfFile: lastSensorFile, encoding: .utf8) else { return nil }
        let address = text.trimming(.spacesAndNewlines)
        return address.isEmpty ? nil : address
    }

    public static func rememberSensor(_ address: String) throws(Failure) {
        try write(Data((address + "\n").utf8), to: lastSensorFile)
    }

    /// `value` as pretty, key-sorted JSON, written as `write` writes.
    static func writeJSON(_ value: some Encodable, to file: String) throws(Failure) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data: Data
        do { data = try encoder.encode(value) } catch { throw Failure(path: file, reason: "\(error)") }
        try write(data, to: file)
    }

    /// Writes atomically (`AtomicFile`), 0600, in the data directory (created when missing).
    public static func write(_ data: Data, to file: String) throws(Failure) {
        try makePrivateDirectory(path)
        if let failure = AtomicFile.write(Array(data), to: file) { throw Failure(path: file, reason: failure.description) }
    }

    /// Creates `directory` 0700 if missing, with any missing parents (~/.local/share may not
    /// exist yet), each private to the user.
    public static func makePrivateDirectory(_ directory: String) throws(Failure) {
        guard FileSystem.makeDirectory(directory, permissions: 0o700) != nil else { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            let description = (error as? CocoaError)?.foundationLocalizedDescription ?? "\(error)"
            throw Failure(path: directory, reason: "cannot create the directory: \(description)")
        }
    }

    public static func deleteHistory() throws(Failure) {
        if let failure = FileSystem.remove(baselineFile) { throw Failure(path: baselineFile, reason: failure.description) }
    }

    /// Today's date in local time, `YYYY-MM-DD`.
    public static var today: String { WallClock.day(WallClock.now()) }
}
