import SessionLog

/// A participant's time shift, for a study created with `--time-shift` (docs/guide/study.md#time-shift):
/// every time this participant's hrvmon sends (a session's start and how far it was recorded, its
/// beats, check-ins and notes, the date in a session's id) is moved by the same whole number of
/// weeks, drawn at `join` and kept only in the membership. Whole weeks keep the time of day and
/// the day of the week, which HRV studies analyse; intervals between a participant's times are
/// unchanged; RR intervals are never changed. The weeks put the dates 100 to 200 years ahead, as
/// MIMIC's shift does, so that a shifted date is never mistaken for a real one.
public struct TimeShift: Equatable, Sendable {
    public static let none = TimeShift(weeks: 0)
    /// 100 to 200 years of weeks (365.2425 days a year).
    static let range = 5218...10436

    public var weeks: Int

    /// A new participant's shift, drawn from the kernel's random source.
    static func random() throws(StudyFailure) -> TimeShift {
        TimeShift(weeks: try Randomness.integer(in: range))
    }

    public var seconds: Double { Double(weeks * 7 * 86_400) }

    /// Unix seconds as the server is sent them.
    func time(_ unixSeconds: Double) -> Double { unixSeconds + seconds }

    /// A session's id as the server is sent it: its leading local date (`YYYYMMDD`, as hrvmon names
    /// sessions) moved by the same days; an id without such a date carries none and is sent as is.
    func session(_ id: String) -> String {
        guard weeks != 0, id.count >= 8, id.prefix(8).allSatisfy({ ("0"..."9").contains($0) }),
            let day = CalendarDay("\(id.prefix(4))-\(id.dropFirst(4).prefix(2))-\(id.dropFirst(6).prefix(2))")
        else { return id }
        return CalendarDay(ordinal: day.ordinal + weeks * 7).text.replacingAll("-", with: "") + id.dropFirst(8)
    }
}
