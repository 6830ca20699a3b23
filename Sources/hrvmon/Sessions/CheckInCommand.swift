import ArgumentParser
import LiveSession
import Platform
import SelfReport
import UserData

struct CheckInCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin",
        abstract: "Check in: how you feel (1–5), what you are doing, who you are with, where you are.",
        discussion: """
            Without options it asks the four questions, offering your earlier answers (type a number to \
            pick one), so the same place or company is the same tag. The check-in goes into the \
            running session's file; with no session running, into the diary \
            (\(SelfReportStore.diaryFile)). Answers are tags: case and spaces are normalised.
            """)

    @Option(help: ArgumentHelp("How you are feeling: 1 awful, 2 low, 3 okay, 4 good, 5 great (a number or the word).", valueName: "1-5"))
    var mood: String?

    @Option(help: ArgumentHelp("What you are doing (a tag: a word or two).", valueName: "tag"))
    var doing: String?

    @Option(name: .customLong("with"), help: ArgumentHelp("Who you are with.", valueName: "tag"))
    var company: String?

    @Option(name: .customLong("where"), help: ArgumentHelp("Where you are.", valueName: "tag"))
    var place: String?

    func validate() throws {
        if let mood, Mood(answer: mood) == nil {
            throw ValidationError("--mood '\(mood)' is not a mood: give 1 to 5 or the word (\(Mood.scale))")
        }
        for (option, value) in [("--doing", doing), ("--with", company), ("--where", place)] {
            if let value, let problem = Tag.problem(value) { throw ValidationError("\(option) \(problem)") }
        }
        if mood == nil, doing != nil || company != nil || place != nil {
            throw ValidationError("--mood is missing: a check-in starts with how you feel (\(Mood.scale))")
        }
    }

    func run() throws {
        let checkIn: CheckIn
        if let mood = mood.flatMap(Mood.init(answer:)) {
            checkIn = CheckIn(mood: mood, doing: tag(doing), company: tag(company), place: tag(place))
        } else {
            checkIn = try ask()
        }
        switch NoteInbox.send(checkIn) {
        case nil:
            print("checked in to the running session: \(checkIn.summary)")
        case .noSuchFile?, .connectionRefused?:
            try failureOnError { try SelfReportStore.addToDiary(checkIn, at: WallClock.now()) }
            print("no session is running: kept in the diary \(SelfReportStore.diaryFile): \(checkIn.summary)")
        case let error?:
            FileStream.printError("hrvmon: cannot reach the running session at \(NoteInbox.path): \(error)")
            throw ExitCode(1)
        }
    }

    private func tag(_ text: String?) -> String? {
        text.map(Tag.normalised).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The four questions on the terminal, one line each; the earlier answers are offered by number.
    private func ask() throws -> CheckIn {
        let vocabulary = CheckInVocabulary(SelfReportStore.earlierCheckIns())
        var mood: Mood?
        while mood == nil {
            print("\(Mood.question) \(Mood.scale): ", terminator: "")
            guard let answer = readLine() else { throw endOfInput }
            mood = Mood(answer: answer)
            if mood == nil { print("  a number 1 to 5, or its word") }
        }
        var answers: [String?] = []
        for question in CheckIn.Question.allCases {
            let offered = Array(vocabulary[question].tags.prefix(9))
            let offer = offered.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: ", ")
            while true {
                print(question.prompt + (offer.isEmpty ? "" : " (earlier: \(offer))") + " Enter skips: ", terminator: "")
                guard let answer = readLine() else { throw endOfInput }
                if let problem = Tag.problem(answer) {
                    print("  that answer \(problem)")
                    continue
                }
                answers.append(vocabulary[question].resolve(answer, offered: offered.count))
                break
            }
        }
        return CheckIn(mood: mood!, doing: answers[0], company: answers[1], place: answers[2])
    }

    private var endOfInput: ExitCode {
        badInput(ValidationError("the check-in was not finished (input ended); for scripts: hrvmon checkin --mood 2 --doing exam --with alone --where library"))
    }
}
