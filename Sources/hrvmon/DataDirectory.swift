import Foundation
import Glibc
import SessionLog

/// Where hrvmon keeps the user's data: `$XDG_DATA_HOME/hrvmon` (`~/.local/share/hrvmon`), a 0700
/// directory of 0600 files.
enum DataDirectory {
    static var path: String { XDGDirectory.data + "/hrvmon" }

    static var baselineFile: String { path + "/baseline.json" }

    struct Failure: Error, CustomStringConvertible {
        var path: String
        var reason: String
        var description: String { "\(path): \(reason)" }
    }

    static func loadHistory() throws(Failure) -> BaselineHistory {
        let file = baselineFile
        guard access(file, F_OK) == 0 else { return BaselineHistory() }
        do {
            return try JSONDecoder().decode(BaselineHistory.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            throw Failure(path: file, reason: "not a readable baseline history (\(error)); move it away or run `hrvmon baseline reset`")
        }
    }

    /// Writes atomically (temporary file, then rename) so a crash never leaves half a file.
    static func save(_ history: BaselineHistory) throws(Failure) {
        let directory = path
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            // Parents first (~/.local/share may not exist yet), each private to the user.
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw Failure(path: directory, reason: "cannot create the data directory: \(error.localizedDescription)")
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let temporary = baselineFile + ".tmp"
        do {
            let data = try encoder.encode(history)
            guard FileManager.default.createFile(atPath: temporary, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw Failure(path: temporary, reason: String(cString: strerror(errno)))
            }
            guard rename(temporary, baselineFile) == 0 else {
                throw Failure(path: baselineFile, reason: String(cString: strerror(errno)))
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: baselineFile, reason: "\(error)")
        }
    }

    static func deleteHistory() throws(Failure) {
        guard unlink(baselineFile) == 0 || errno == ENOENT else {
            throw Failure(path: baselineFile, reason: String(cString: strerror(errno)))
        }
    }

    /// Today's date in local time, `YYYY-MM-DD`.
    static var today: String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        let month = Int(parts.tm_mon) + 1
        let day = Int(parts.tm_mday)
        return "\(Int(parts.tm_year) + 1900)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
