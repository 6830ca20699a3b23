import Analysis
import ArgumentParser
import LiveSession
import Platform
import Presentation
import SelfReport
import SessionLog
import UserData

struct Label: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer \"Was that stress?\" about a stress episode: yes, no or unsure.",
        discussion: """
            EPISODE is SESSION:N, the session's id as `hrvmon sessions` prints it (or a unique start \
            of one, or `last`) and the episode's number in it, from 1, as `hrvmon sessions --episodes` \
            lists them. The answer is appended to the session file as a `label` line; a later answer \
            replaces an earlier one.
            """)

    @Argument(help: ArgumentHelp("The episode: SESSION:N.", valueName: "episode"))
    var episode: String

    @Argument(help: ArgumentHelp("yes, no or unsure.", valueName: "answer"))
    var answer: String

    func validate() throws {
        guard EpisodeName(episode) != nil else {
            throw ValidationError("'\(episode)' is not an episode: name it SESSION:N, e.g. 20261127-101500:2 or last:1 (`hrvmon sessions --episodes` lists them)")
        }
        guard EpisodeAnswer(rawValue: answer.lowercased()) != nil else {
            throw ValidationError("'\(answer)' is not an answer: yes, no or unsure")
        }
    }

    func run() throws {
        let name = EpisodeName(episode)!
        let answer = EpisodeAnswer(rawValue: answer.lowercased())!
        let path = try badInputOnFailure { () throws(DataDirectory.Failure) in
            if name.session == "last", let newest = SessionStore.all().last { return newest }
            return try SessionStore.find(name.session, acceptingPaths: false)
        }
        let file = try failureOnError { try SessionFileReader.read(path: path, detail: .overview) }
        let episodes = file.stressEpisodes
        guard episodes.indices.contains(name.number - 1) else {
            throw badInput(ValidationError(
                "session \(SessionStore.id(of: path)) has \(Formatting.count(episodes.count, "stress episode")); \(name.description) names none"))
        }
        // The running session writes its own file: it takes answers on its dashboard and notifications.
        if file.summary == nil, path == SessionStore.all().last, NoteInbox.send([]) == nil {
            FileStream.printError("hrvmon: session \(SessionStore.id(of: path)) is still running; answer on its dashboard (s) or in the notification, or once it has ended")
            throw ExitCode(1)
        }
        let episode = episodes[name.number - 1]
        try failureOnError {
            try SelfReportStore.appendLabel(
                EpisodeLabel(episode: name.number, start: episode.start, answer: answer, via: "command"), at: WallClock.now(), toSession: path)
        }
        print("\(SessionStore.id(of: path)):\(name.number) (stress from \(Formatting.clock(episode.start)) to \(Formatting.clock(episode.end))): \(answer.words)")
    }
}
