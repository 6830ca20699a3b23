import ArgumentParser
import Exports
import HRV
import Platform
import Presentation
import SessionLog
import Study
import UserData

struct StudyPull: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Download the study: every beat of the participants still in it, as one BIDS dataset, CSV or JSON Lines.",
        discussion: """
            csv and jsonl: one file (beats.csv, beats.jsonl) with one record per beat: the participant's pseudonym, \
            the session, the beat's sequence number in it, its time (Unix seconds) and its RR exactly as the strap \
            sent it (rr_1024, in 1/1024 s; rr_ms, the same in milliseconds, exact). bids: dataset_description.json, \
            participants.tsv and, per participant (sub-<pseudonym without its underscore>) and session, the physio \
            and events files `hrvmon export --format bids` writes. Participants who withdrew are left out. Read \
            through a cursor, one session in memory at a time. Files are created 0600.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case bids, csv, jsonl
    }

    @OptionGroup var database: DatabaseOption

    @Option(help: "bids, csv or jsonl.")
    var format: Format

    @Option(name: .short, help: ArgumentHelp("The directory to write to (created 0700 if missing).", valueName: "DIR"))
    var output: String

    func run() throws {
        do { try DataDirectory.makePrivateDirectory(output) } catch { throw badInput(ValidationError("-o \(output): \(error)")) }
        var written = (participants: Set<String>(), sessions: 0, beats: 0, checkIns: 0, labels: 0, notes: 0, events: 0)
        // Sessions a BIDS dataset cannot hold (`ExportTimeline` refuses them): each participant's
        // own to send, so never a reason to leave out the others'.
        var leftOut: [String] = []
        try studyOutcome { () throws(StudyFailure) in
            let researcher = try StudyResearcher(uri: database.database, loop: EventLoop())
            let members = try researcher.members()
            var table: BeatTable? = format == .bids ? nil : try BeatTable(format, path: output + "/beats." + format.rawValue)
            do {
                try researcher.pull({ session in
                    written.participants.insert(session.participant)
                    written.sessions += 1
                    written.beats += session.beats.count
                    if table != nil {
                        table!.add(session)
                    } else if let refusal = try writeBIDS(session) {
                        leftOut.append(refusal)
                    }
                }, selfReports: { pulled in
                    written.checkIns = pulled.checkIns.count
                    written.labels = pulled.labels.count
                    written.notes = pulled.notes.count
                    written.events = pulled.events.count
                    _ = try writeTree(StudySelfReportFiles.files(pulled, format: format), under: output)
                })
                try table?.finish()
                if format == .bids { try writeParticipants(members, name: try researcher.studyName(), shiftsTimes: try researcher.shiftsTimes()) }
            } catch let failure as StudyFailure {
                throw failure
            } catch {
                throw .file("\(error)")
            }
        }
        FileStream.printError(
            "pulled \(Formatting.count(written.beats, "beat")) of \(Formatting.count(written.sessions, "session")) of "
                + "\(Formatting.count(written.participants.count, "participant")), \(Formatting.count(written.checkIns, "check-in")), "
                + "\(Formatting.count(written.labels, "answer")) to \"Was that stress?\", \(Formatting.count(written.notes, "note")) and "
                + "\(Formatting.count(written.events, "event")) to \(output)")
        guard leftOut.isEmpty else {
            FileStream.printError("hrvmon: left out what BIDS cannot hold (the rest is pulled):\n" + leftOut.map { "  \($0)\n" }.joined())
            throw ExitCode(1)
        }
    }

    /// The BIDS files `export --format bids` writes for one session, under the participant's
    /// subject; or, when BIDS cannot hold the session (no date BIDS has, a span no strap
    /// records), why not, and nothing written.
    private func writeBIDS(_ session: StudyResearcher.PulledSession) throws -> String? {
        let file = SessionFile(
            id: session.id, start: session.started, startLocal: WallClock.iso8601(session.started), program: "hrvmon", beats: session.beats)
        let timeline: ExportTimeline
        do { timeline = try ExportTimeline(file) } catch { return "\(session.participant) session \(session.id.debugDescription): \(error)" }
        _ = try writeTree(BIDSPhysio.files(timeline, subject: Self.subject(session.participant), task: "hrvmon"), under: output)
        return nil
    }

    /// `participants.tsv`; when the study shifts times, without when each consented (the server's
    /// own, real date, which would undo the shift of the participant's first sessions).
    private func writeParticipants(_ members: [StudyResearcher.Member], name: String, shiftsTimes: Bool) throws {
        var text = "participant_id\tpseudonym\tconsent_version\tconsented\tcategories\n"
        for member in members {
            let consented = shiftsTimes ? "n/a" : member.consented
            text += "sub-\(Self.subject(member.pseudonym))\t\(member.pseudonym)\t\(member.consentVersion)\t\(consented)\t\(member.categories.joined(separator: ","))\n"
        }
        _ = try writeTree([
            BIDSPhysio.datasetDescription(version: Program.version, name: name),
            BIDSPhysio.File(path: "participants.tsv", bytes: Array(text.utf8)),
        ], under: output)
    }

    /// A BIDS subject label is letters and digits: the pseudonym without its underscore.
    static func subject(_ pseudonym: String) -> String { BIDSPhysio.sessionLabel(pseudonym) }
}

/// beats.csv or beats.jsonl, written as the sessions arrive and moved into place when whole.
private struct BeatTable {
    let format: StudyPull.Format
    let path: String
    var stream: FileStream

    init(_ format: StudyPull.Format, path: String) throws(StudyFailure) {
        (self.format, self.path) = (format, path)
        do { stream = try OutputFile.create(path + ".partial", mode: 0o600) } catch { throw .file("\(error)") }
        if format == .csv { stream.write("participant,session,seq,t,rr_1024,rr_ms\n") }
    }

    /// The session's name is the participant's to choose: quoted, never trusted to be plain.
    mutating func add(_ session: StudyResearcher.PulledSession) {
        let csvSession = CSV.field(session.id)
        for beat in session.beats {
            let milliseconds = RRInterval(ticks: beat.ticks).exactMilliseconds
            if format == .csv {
                stream.write("\(session.participant),\(csvSession),\(beat.sequence),\(beat.time),\(beat.ticks),\(milliseconds)\n")
            } else {
                var record = JSONObject()
                record.add("participant", session.participant)
                record.add("session", session.id)
                record.add("seq", beat.sequence)
                record.add("t", beat.time)
                record.add("rr_1024", Int(beat.ticks))
                record.addRaw("rr_ms", milliseconds)
                stream.write(record.serialized + "\n")
            }
        }
    }

    mutating func finish() throws(StudyFailure) {
        stream.close(sync: true)
        if let failure = stream.failure ?? FileSystem.move(path + ".partial", to: path) { throw .file("\(path): \(failure)") }
    }
}
