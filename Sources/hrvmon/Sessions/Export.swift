import ArgumentParser
import HRV
import Platform
import Presentation
import SessionLog
import UserData

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export sessions as RR lists (Kubios, Elite HRV), CSV or the session's JSON Lines.",
        discussion: """
            rr: one RR interval in milliseconds per line, exact (800 strap ticks: 781.25), the format \
            Kubios and Elite HRV import; csv: one row per beat; jsonl: the session file itself. \
            --corrected exports the artifact-corrected timeline instead of the intervals as received. \
            Exported files are created 0600: they hold health data.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case rr, csv, jsonl

        var fileExtension: String {
            switch self {
            case .rr: ".rr.txt"
            case .csv: ".csv"
            case .jsonl: ".jsonl"
            }
        }
    }

    @Option(help: "Session id (or a unique start of one) or path; see `hrvmon sessions`.")
    var session: String?

    @Flag(help: "Every session, one file each in the --output directory.")
    var all = false

    @Option(help: "rr, csv or jsonl.")
    var format: Format = .rr

    @Flag(help: "The corrected timeline (artifact class per beat) instead of the intervals as received.")
    var corrected = false

    @Option(name: [.short, .long], help: "Output file (default: standard output); with --all, a directory.")
    var output: String?

    func validate() throws {
        guard (session != nil) != all else { throw ValidationError("name one --session, or --all") }
        if all && output == nil { throw ValidationError("--all writes one file per session: give a directory with --output") }
        if corrected && format == .jsonl { throw ValidationError("--corrected applies to rr and csv; the jsonl file holds both") }
    }

    func run() throws {
        do {
            if let session {
                let path = try SessionStore.find(session)
                try write(try export(path), to: output)
            } else if let output {
                try DataDirectory.makePrivateDirectory(output)
                let paths = SessionStore.all()
                for path in paths { try write(try export(path), to: output + "/" + SessionStore.id(of: path) + format.fileExtension) }
                FileStream.printError("exported \(Formatting.count(paths.count, "session")) to \(output)")
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw badInput(error)
        }
    }

    private func export(_ path: String) throws -> [UInt8] {
        let bytes = try InputFile.read(path)
        if format == .jsonl { return bytes }
        let file = try SessionFileReader.read(bytes, source: path)
        file.reportTornLine(of: path, "exporting")
        var text = ""
        switch (format, corrected) {
        case (.rr, false):
            for beat in file.beats { text += RRInterval(ticks: beat.ticks).exactMilliseconds + "\n" }
        case (.rr, true):
            for beat in file.placed where beat.kind != ArtifactClass.implausible.rawValue { text += String(beat.milliseconds) + "\n" }
        case (.csv, false):
            text = "t,seq,rr_1024,rr_ms,hr_bpm,contact\n"
            for beat in file.beats {
                text += "\(beat.time),\(beat.sequence),\(beat.ticks),\(RRInterval(ticks: beat.ticks).exactMilliseconds),\(beat.heartRate),\(beat.contact)\n"
            }
        case (.csv, true):
            text = "session_s,nn_ms,class\n"
            for beat in file.placed { text += "\(beat.seconds),\(beat.milliseconds),\(beat.kind)\n" }
        case (.jsonl, _):
            break
        }
        return Array(text.utf8)
    }

    /// Writes to `path` (created 0600), or to standard output when nil; a failed write (a full
    /// disk) is said and exits 1, never reported as success.
    private func write(_ bytes: [UInt8], to path: String?) throws {
        var stream = try path.map { try OutputFile.create($0, mode: 0o600) } ?? FileStream.standardOutput
        stream.write(String(decoding: bytes, as: UTF8.self))
        if path == nil { stream.flush() } else { stream.close(sync: true) }
        if let failure = stream.failure {
            FileStream.printError("hrvmon: cannot write \(path ?? "standard output"): \(failure)")
            throw ExitCode(1)
        }
    }
}
