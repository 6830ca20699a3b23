import SelfReport

/// The lines of what the wearer reports (docs/reference/session-files.md): `checkin` and `label`
/// in a session file, and the same `checkin` lines in the check-in diary (`checkins.jsonl`),
/// `dass21` lines in the questionnaire's file (`dass21.jsonl`).
public enum SelfReportRecords {
    /// A line of the diary or of `dass21.jsonl`, with its time (Unix seconds).
    public enum Entry: Equatable, Sendable {
        case checkIn(CheckIn, time: Double)
        case dass21(DASS21.Result, time: Double)
    }

    /// A check-in kept outside a session, in the diary.
    public static func checkInLine(_ checkIn: CheckIn, at time: Double) -> String {
        var object = JSONObject()
        object.add("type", "checkin")
        object.add("t", time)
        object.addFields(of: checkIn)
        return object.serialized + "\n"
    }

    /// A completed DASS-21, with its answers and its scores.
    public static func dass21Line(_ result: DASS21.Result, at time: Double) -> String {
        var object = JSONObject()
        object.add("type", "dass21")
        object.add("t", time)
        object.addIntegers("answers", result.answers)
        for scale in DASS21.Scale.allCases { object.add(scale.rawValue, result.score(scale)) }
        return object.serialized + "\n"
    }

    /// The entry of one line; nil for a line of another type (a newer hrvmon's).
    public static func entry(_ line: [UInt8]) throws(SelfReportLineError) -> Entry? {
        guard case .object(let members)? = JSONValue.parse(ArraySlice(line)) else {
            throw SelfReportLineError(reason: line.isEmpty ? "empty line" : "not a JSON object")
        }
        let fields = JSONFields(members)
        do throws(SessionFileReader.LineError) {
            switch try fields.string("type") {
            case "checkin": return .checkIn(try fields.checkIn(), time: try fields.exactDouble("t"))
            case "dass21":
                guard case .array(let values)? = fields.raw("answers") else { throw SessionFileReader.LineError(reason: "\"answers\" must be a list") }
                let answers = values.compactMap { value -> Int? in
                    guard case .number(let number) = value, let rating = Int(exactly: number.value), DASS21.ratings.indices.contains(rating) else { return nil }
                    return rating
                }
                guard answers.count == values.count, answers.count == DASS21.items.count else {
                    throw SessionFileReader.LineError(reason: "\"answers\" must be 21 ratings 0–3")
                }
                return .dass21(DASS21.Result(answers: answers), time: try fields.double("t"))
            default: return nil
            }
        } catch {
            throw SelfReportLineError(reason: error.reason)
        }
    }
}

public struct SelfReportLineError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension JSONObject {
    /// A check-in's answers; an unanswered question has no key.
    public mutating func addFields(of checkIn: CheckIn) {
        add("mood", checkIn.mood.rawValue)
        add("mood_words", checkIn.mood.words)
        for question in CheckIn.Question.allCases {
            if let answer = question.answer(in: checkIn) { add(question.rawValue, answer) }
        }
    }
}

extension LineFields {
    func checkIn() throws(SessionFileReader.LineError) -> CheckIn {
        let number = try int("mood")
        guard let mood = Mood(rawValue: number) else { throw SessionFileReader.LineError(reason: "\"mood\" must be 1 to 5, not \(number)") }
        return CheckIn(
            mood: mood, doing: try optionalString("doing").map(Tag.normalised), company: try optionalString("with").map(Tag.normalised),
            place: try optionalString("where").map(Tag.normalised))
    }

    func episodeLabel() throws(SessionFileReader.LineError) -> EpisodeLabel {
        let known = try EpisodeAnswer(line: try string("answer"))
        let episode = try int("episode")
        guard episode >= 1 else { throw SessionFileReader.LineError(reason: "\"episode\" must be 1 or more") }
        return EpisodeLabel(episode: episode, start: try double("start_s"), answer: known, via: try string("via"))
    }
}

extension EpisodeAnswer {
    /// An answer's word as the session file and the index write it.
    init(line text: String) throws(SessionFileReader.LineError) {
        guard let known = EpisodeAnswer(rawValue: text) else {
            throw SessionFileReader.LineError(reason: "\"answer\" must be yes, no or unsure, not '\(text)'")
        }
        self = known
    }
}
