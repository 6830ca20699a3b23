import Analysis
import ArgumentParser
import Exports
import HRV
import Platform
import Presentation
import SessionLog
import UserData

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export sessions as RR lists, CSV, the session's JSON Lines, or for research tools (Kubios, EDF+, BIDS).",
        discussion: """
            rr: one RR interval in milliseconds per line, exact (800 strap ticks: 781.25), the format \
            Kubios and Elite HRV import; csv: one row per beat; jsonl: the session file itself. \
            --corrected exports the artifact-corrected timeline instead of the intervals as received.

            kubios: two columns, the time of each beat (s) and its RR (ms), for Kubios HRV's RR text \
            import; the time column keeps gaps where they were. edf: an EDF+C file (pyedflib, MNE, \
            EDFbrowser) with the received and the corrected intervals as 4 Hz signals and every beat, \
            gap, note, stress and activity episode, exercise and suggestion as an annotation. bids: \
            BIDS physio (*_physio.tsv.gz, *_physio.json) and events (*_events.tsv, *_events.json) \
            under sub-SUBJECT/ses-ID/beh/ in the --output directory, every beat as received and as \
            corrected in the events. docs/research.md, "Research exports", says how to undo hrvmon's corrections.

            Exported files are created 0600: they hold health data.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case rr, csv, jsonl, kubios, edf, bids

        var fileExtension: String {
            switch self {
            case .rr: ".rr.txt"
            case .csv: ".csv"
            case .jsonl: ".jsonl"
            case .kubios: ".kubios.txt"
            case .edf: ".edf"
            case .bids: ""
            }
        }
    }

    @OptionGroup var reference: SessionReference<SessionIDsOrFiles>

    @Flag(help: "Every session, one file each in the --output directory (bids: one tree).")
    var all = false

    @Option(help: "The format: one of those above.")
    var format: Format = .rr

    @Flag(help: "rr, csv, kubios: the corrected timeline (artifact class per beat in csv) instead of the intervals as received.")
    var corrected = false

    @Option(help: "bids: the subject label (letters and digits).")
    var subject = "01"

    @Option(help: "bids: the task label (letters and digits).")
    var task = "hrvmon"

    @Option(name: [.short, .long], help: "Output file (default: standard output); with --all or bids, a directory.")
    var output: String?

    func validate() throws {
        try reference.requireOne(orAll: all)
        if all && output == nil { throw ValidationError("--all writes one file per session: give a directory with --output") }
        if format == .bids && output == nil { throw ValidationError("bids writes a directory tree: give its root with --output") }
        if corrected && ![.rr, .csv, .kubios].contains(format) {
            throw ValidationError("--corrected applies to rr, csv and kubios; \(format.rawValue) holds both timelines")
        }
        for (name, label) in [("--subject", subject), ("--task", task)] where !BIDSPhysio.isLabel(label) {
            throw ValidationError("\(name) must be letters and digits only (a BIDS label), not '\(label)'")
        }
    }

    func run() throws {
        do {
            if let path = try reference.path() {
                let exported = try export(path)
                try write(exported, to: output)
                FileStream.printError("exported session \(exported.id) to \(output ?? "standard output"): \(exported.what)")
            } else if let output {
                try DataDirectory.makePrivateDirectory(output)
                let paths = SessionStore.all()
                for path in paths {
                    let file = format == .bids ? output : output + "/" + SessionStore.id(of: path) + format.fileExtension
                    try write(try export(path), to: file)
                }
                FileStream.printError("exported \(Formatting.count(paths.count, "session")) to \(output)")
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            throw badInput(error)
        }
    }

    /// What a session becomes: the bytes of one file, or (bids) files under a directory; `what`
    /// says what they hold, for the message that says what was written.
    private struct Exported {
        enum Content {
            case file([UInt8])
            case tree([BIDSPhysio.File])
        }

        var content: Content
        var id: String
        var what: String
    }

    private func export(_ path: String) throws -> Exported {
        let id = SessionStore.id(of: path)
        var text = ""
        let what: String
        switch format {
        case .jsonl:
            return Exported(content: .file(try InputFile.readContent(path)), id: id, what: "the session file as recorded")
        case .rr:
            let file = try session(at: path)
            if corrected {
                let placed = file.placed.filter { $0.kind != ArtifactClass.implausible.rawValue }
                for beat in placed { text += String(beat.milliseconds) + "\n" }
                what = Formatting.count(placed.count, "corrected RR interval")
            } else {
                for beat in file.beats { text += RRInterval(ticks: beat.ticks).exactMilliseconds + "\n" }
                what = Formatting.count(file.beats.count, "RR interval") + " as received"
            }
        case .csv:
            let file = try session(at: path)
            if corrected {
                text = "session_s,nn_ms,class\n"
                for beat in file.placed { text += "\(beat.seconds),\(beat.milliseconds),\(beat.kind)\n" }
                what = Formatting.count(file.placed.count, "beat") + " of the corrected timeline"
            } else {
                text = "t,seq,rr_1024,rr_ms,hr_bpm,contact\n"
                for beat in file.beats {
                    text += "\(beat.time),\(beat.sequence),\(beat.ticks),\(RRInterval(ticks: beat.ticks).exactMilliseconds),\(beat.heartRate),\(beat.contact)\n"
                }
                what = Formatting.count(file.beats.count, "beat") + " as received"
            }
        case .kubios:
            let timeline = try self.timeline(at: path)
            text = KubiosText.encode(timeline, corrected: corrected)
            what = corrected
                ? Formatting.count(timeline.corrected.count, "corrected beat") : Formatting.count(timeline.raw.count, "beat") + " as received"
        case .edf:
            let timeline = try self.timeline(at: path)
            return Exported(content: .file(EDFPlus.encode(timeline)), id: id, what: Self.bothTimelines(timeline))
        case .bids:
            let timeline = try self.timeline(at: path)
            return Exported(content: .tree(BIDSPhysio.files(timeline, subject: subject, task: task)), id: id, what: Self.bothTimelines(timeline))
        }
        return Exported(content: .file(Array(text.utf8)), id: id, what: what)
    }

    /// The session file read whole; a torn last line is said, and what is before it exported.
    private func session(at path: String) throws -> SessionFile {
        let file = try SessionFileReader.read(path: path)
        file.reportTornLine(of: path, "exporting")
        return file
    }

    /// The session's beats, as received and as corrected, and its events on one time axis: what
    /// the research formats hold.
    private func timeline(at path: String) throws -> ExportTimeline {
        let file = try session(at: path)
        do { return try ExportTimeline(file) } catch { throw ValidationError("\(path): \(error)") }
    }

    /// What edf and bids hold: both timelines and the events.
    private static func bothTimelines(_ timeline: ExportTimeline) -> String {
        Formatting.count(timeline.raw.count, "beat") + " as received and as corrected, " + Formatting.count(timeline.events.count, "event")
    }

    /// Writes a file to `path` (0600, whole or not at all) or to standard output when nil, a tree
    /// under the directory `path` with the dataset's description unless it has one (a study's
    /// own is kept). Each file written is named on standard output, as `report` names its page;
    /// a failed write (a full disk) is said and exits 1, never reported as success.
    private func write(_ exported: Exported, to path: String?) throws {
        switch exported.content {
        case .file(let bytes):
            try writeExported(bytes, to: path)
            if let path { print(path) }
        case .tree(let files):
            let description = BIDSPhysio.datasetDescription(version: Program.version)
            let root = path!
            let missing = FileSystem.exists(root + "/" + description.path) ? [] : [description]
            for written in try writeTree(missing + files, under: root) { print(written) }
        }
    }
}

/// Writes each of `files` under `root`, its directories made 0700: the paths written.
func writeTree(_ files: [BIDSPhysio.File], under root: String) throws -> [String] {
    try files.map { file in
        let target = root + "/" + file.path
        try DataDirectory.makePrivateDirectory(String(target[..<target.lastIndex(of: "/")!]))
        try writeExported(file.bytes, to: target)
        return target
    }
}

/// Writes `bytes` to `path` (0600, whole or not at all), or to standard output when nil; a
/// failure is said and exits 1.
func writeExported(_ bytes: [UInt8], to path: String?) throws(ExitCode) {
    let failure = if let path { AtomicFile.write(bytes, to: path) } else {
        bytes.withUnsafeBytes { FileStream.writeAll($0, to: FileStream.standardOutput.descriptor) }
    }
    if let failure {
        FileStream.printError("hrvmon: cannot write \(path ?? "standard output"): \(failure)")
        throw ExitCode(1)
    }
}
