import Exports
import Foundation
import SessionLog

/// The recorded session, its export timeline, and a scratch directory to write exports to.
struct ExportFixture {
    static let recorded = RecordedSession()
    static let file = recorded.file
    static let timeline = try! ExportTimeline(file)

    /// The onset the time axis promises for received beat `index` (of `file.beats`): the strap's
    /// intervals added up from the start of its stretch, which starts where the wall clock put
    /// the stretch's first interval (`t` of its first beat less its RR), seconds after `zero`.
    /// Worked out here from the session file alone, not by the exporter.
    static let expectedOnsets: [Double] = {
        let beats = file.beats
        let zero = (beats[0].time - Double(beats[0].ticks) / 1024).rounded(.down)
        var onsets: [Double] = []
        for (index, beat) in beats.enumerated() {
            if index == 0 || index == recorded.firstAfterGap {
                onsets.append(beat.time - zero)
            } else {
                onsets.append(onsets[index - 1] + Double(beat.ticks) / 1024)
            }
        }
        return onsets
    }()

    /// The local time of the export's time zero at the session's +01:00, by Foundation's calendar.
    static var expectedStart: String {
        let beat = file.beats[0]
        let zero = (beat.time - Double(beat.ticks) / 1024).rounded(.down)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: zero))
    }

    static func scratch() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hrvmon-exports-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func write(_ bytes: [UInt8], name: String) throws -> String {
        let url = try scratch().appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}

extension Dictionary where Key == String, Value == Any {
    func object(_ key: String) -> [String: Any] { self[key] as? [String: Any] ?? [:] }
    func doubles(_ key: String) -> [Double] { (self[key] as? [Any] ?? []).map { ($0 as? NSNumber)?.doubleValue ?? .nan } }
    func strings(_ key: String) -> [String] { (self[key] as? [Any] ?? []).map { $0 as? String ?? "" } }
    func optionalStrings(_ key: String) -> [String?] { (self[key] as? [Any] ?? []).map { $0 as? String } }
    func optionalDoubles(_ key: String) -> [Double?] { (self[key] as? [Any] ?? []).map { ($0 as? NSNumber)?.doubleValue } }
}
