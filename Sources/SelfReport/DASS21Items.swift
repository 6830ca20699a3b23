/// The DASS-21 (Depression Anxiety Stress Scales, 21-item short form) as published: Lovibond,
/// S.H. & Lovibond, P.F. (1995). Manual for the Depression Anxiety Stress Scales (2nd ed.).
/// Sydney: Psychology Foundation. Public domain; the items must be reproduced exactly (a
/// reworded item is no longer the validated instrument), so they are here verbatim.
public enum DASS21 {
    public static let source =
        "Lovibond, S.H. & Lovibond, P.F. (1995). Manual for the Depression Anxiety Stress Scales (2nd ed.). Sydney: Psychology Foundation."

    public static let instruction =
        "Please read each statement and choose a number 0, 1, 2 or 3 which indicates how much the statement applied to you over the past week. There are no right or wrong answers. Do not spend too much time on any statement."

    /// The rating scale, 0 to 3.
    public static let ratings = [
        "Did not apply to me at all",
        "Applied to me to some degree, or some of the time",
        "Applied to me to a considerable degree, or a good part of time",
        "Applied to me very much, or most of the time",
    ]

    public struct Item: Sendable {
        /// From 1, as published.
        public var number: Int
        public var scale: Scale
        public var text: String
    }

    /// The 21 items in the published order, each with the scale it counts towards.
    public static let items: [Item] = [
        (Scale.stress, "I found it hard to wind down"),
        (.anxiety, "I was aware of dryness of my mouth"),
        (.depression, "I couldn't seem to experience any positive feeling at all"),
        (.anxiety, "I experienced breathing difficulty (e.g. excessively rapid breathing, breathlessness in the absence of physical exertion)"),
        (.depression, "I found it difficult to work up the initiative to do things"),
        (.stress, "I tended to over-react to situations"),
        (.anxiety, "I experienced trembling (e.g. in the hands)"),
        (.stress, "I felt that I was using a lot of nervous energy"),
        (.anxiety, "I was worried about situations in which I might panic and make a fool of myself"),
        (.depression, "I felt that I had nothing to look forward to"),
        (.stress, "I found myself getting agitated"),
        (.stress, "I found it difficult to relax"),
        (.depression, "I felt down-hearted and blue"),
        (.stress, "I was intolerant of anything that kept me from getting on with what I was doing"),
        (.anxiety, "I felt I was close to panic"),
        (.depression, "I was unable to become enthusiastic about anything"),
        (.depression, "I felt I wasn't worth much as a person"),
        (.stress, "I felt that I was rather touchy"),
        (.anxiety, "I was aware of the action of my heart in the absence of physical exertion (e.g. sense of heart rate increase, heart missing a beat)"),
        (.anxiety, "I felt scared without any good reason"),
        (.depression, "I felt that life was meaningless"),
    ].enumerated().map { Item(number: $0.offset + 1, scale: $0.element.0, text: $0.element.1) }

    /// What the scores are and are not, said wherever they are shown.
    public static let notADiagnosis =
        "The severity labels compare your answers with the general population; they are not a diagnosis."

    /// Said when any score is severe or extremely severe.
    public static let whereToFindHelp =
        "A severe score is worth talking about with your doctor or a mental-health professional. If you are in crisis or thinking of harming yourself, call your local emergency number or a crisis line now (findahelpline.com lists free, confidential lines by country)."
}
