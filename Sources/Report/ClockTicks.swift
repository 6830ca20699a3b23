import Platform
/// Ticks for a time axis: whole local minutes or hours (`10:15`, `14:00`), at the coarsest step
/// that still gives about `count` labels.
public enum ClockTicks {
    private static let steps: [Double] = [10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200]

    public static func ticks(from start: Double, to end: Double, count: Int = 8) -> [Tick] {
        let span = max(end - start, 1)
        let step = steps.first { span / $0 <= Double(count) } ?? steps.last!
        // Aligned to the local clock, so steps fall on :00, :15, …
        let offset = LocalTime.offset(at: start)
        var time = ((start + offset) / step).rounded(.up) * step - offset
        var ticks: [Tick] = []
        while time <= end {
            let clock = WallClock.timeOfDay(time)
            ticks.append(Tick(value: time, label: step < 60 ? clock : String(clock.prefix(5))))
            time += step
        }
        return ticks
    }
}
