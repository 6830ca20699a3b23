import ArgumentParser
import Platform
import Presentation
import SelfReport
import SessionLog
import UserData

struct DASS21Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dass21",
        abstract: "The DASS-21 questionnaire: depression, anxiety and stress over the past week, scored and kept.",
        discussion: """
            Asks the 21 items exactly as published (Lovibond & Lovibond, 1995; public domain), scores \
            each scale as its items' sum × 2 with the published severity labels, and keeps the result \
            with its date in \(SelfReportStore.dass21File). The labels are not a diagnosis. Take it \
            every 2–4 weeks; --due says when it is.
            """)

    @Option(help: ArgumentHelp("The 21 ratings (0–3) in item order, separated by commas, instead of asking.", valueName: "0,1,…"))
    var answers: String?

    @Option(help: "text, or json: {\"depression\": n, \"anxiety\": n, \"stress\": n, \"bands\": {…}} (with --history, a list with dates).")
    var format: ReportFormat = .text

    @Flag(help: "Show the results kept so far, oldest first, instead of asking.")
    var history = false

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Only say whether the questionnaire is due: exit 0 and say so when the last result is N days old or more (or there is none), else exit 1. For reminders; 14–28 days.",
        valueName: "days"))
    var due: Int?

    func validate() throws {
        if let answers {
            do { _ = try DASS21.parse(answers: answers) } catch { throw ValidationError("--answers: \(error)") }
        }
        if let due, !(14...28).contains(due) { throw ValidationError("--due \(due): the DASS-21 is taken every 14 to 28 days") }
        if history && (answers != nil || due != nil) || answers != nil && due != nil {
            throw ValidationError("choose one of --answers, --history and --due")
        }
    }

    func run() throws {
        let kept = try badInputOnFailure { () throws(DataDirectory.Failure) in
            try SelfReportStore.entries(of: SelfReportStore.dass21File).compactMap { entry -> (DASS21.Result, Double)? in
                if case .dass21(let result, let time) = entry { (result, time) } else { nil }
            }
        }
        // print, as the questions are asked: one buffer keeps them in order.
        if history {
            print(format == .json ? DASS21Text.historyJSON(kept) : DASS21Text.history(kept), terminator: "")
            return
        }
        if let due {
            let now = WallClock.now()
            guard let last = kept.last?.1, now - last < Double(due) * 86_400 else {
                print("the DASS-21 is due: `hrvmon dass21` asks its 21 questions (about 5 minutes)")
                return
            }
            print("not due: last taken \(WallClock.day(last)); due after \(due) days")
            throw ExitCode(1)
        }
        let result = try answers.map { try DASS21.parse(answers: $0) } ?? ask()
        let now = WallClock.now()
        try failureOnError { try SelfReportStore.add(result, at: now) }
        print(format == .json ? DASS21Text.json(result).serialized + "\n" : DASS21Text.result(result, previous: kept.last), terminator: "")
    }

    /// The instruction, the rating scale and the items, one line each; a rating is asked again
    /// until it is 0–3.
    private func ask() throws -> DASS21.Result {
        print(DASS21.instruction + "\n")
        for (rating, words) in DASS21.ratings.enumerated() { print("  \(rating)  \(words)") }
        print("")
        var answers: [Int] = []
        for item in DASS21.items {
            while true {
                print("\(item.number). \(item.text)  [0–3]: ", terminator: "")
                guard let line = readLine() else {
                    throw badInput(ValidationError(
                        "the questionnaire was not finished (input ended after \(answers.count) of 21); for scripts: --answers with 21 ratings"))
                }
                if let rating = Int(line.trimming(.spacesAndNewlines)), DASS21.ratings.indices.contains(rating) {
                    answers.append(rating)
                    break
                }
                print("  0, 1, 2 or 3")
            }
        }
        print("")
        return DASS21.Result(answers: answers)
    }
}

/// DASS-21 results for people and for scripts.
enum DASS21Text {
    static func json(_ result: DASS21.Result) -> JSONObject {
        var object = JSONObject()
        var bands = JSONObject()
        for scale in DASS21.Scale.allCases {
            object.add(scale.rawValue, result.score(scale))
            bands.add(scale.rawValue, result.severity(scale).rawValue)
        }
        object.add("bands", bands)
        return object
    }

    static func result(_ result: DASS21.Result, previous: (DASS21.Result, Double)?) -> String {
        let rows = DASS21.Scale.allCases.map { scale in
            [scale.name, String(result.score(scale)), result.severity(scale).rawValue]
                + (previous.map { ["(\(WallClock.day($0.1)): \($0.0.score(scale)))"] } ?? [])
        }
        var text = "DASS-21, the past week (each scale 0–42):\n" + Formatting.columns(rows)
        text += "\n" + DASS21.notADiagnosis + "\n"
        if result.isSevere { text += "\n" + DASS21.whereToFindHelp + "\n" }
        return text + "Source: " + DASS21.source + "\n"
    }

    static func history(_ kept: [(DASS21.Result, Double)]) -> String {
        guard !kept.isEmpty else { return "no DASS-21 results yet: `hrvmon dass21` asks the questionnaire\n" }
        let rows = [["date"] + DASS21.Scale.allCases.map(\.rawValue)] + kept.map { result, time in
            [WallClock.day(time)] + DASS21.Scale.allCases.map { "\(result.score($0)) \(result.severity($0).rawValue)" }
        }
        return Formatting.columns(rows) + "\n" + DASS21.notADiagnosis + "\n"
    }

    static func historyJSON(_ kept: [(DASS21.Result, Double)]) -> String {
        "[" + kept.map { result, time in
            var object = json(result)
            object.add("date", WallClock.day(time))
            object.add("t", time)
            return object.serialized
        }.joined(separator: ",") + "]\n"
    }
}
