import Presentation
import RealModule

/// Maps data values onto pixels along one axis (for a y axis `start` is the bottom pixel).
public struct LinearScale {
    public var domain: ClosedRange<Double>
    public var start: Double
    public var end: Double

    public func callAsFunction(_ value: Double) -> Double {
        let span = domain.upperBound - domain.lowerBound
        let fraction = span > 0 ? (value - domain.lowerBound) / span : 0.5
        return start + fraction * (end - start)
    }
}

/// A labelled position on an axis, in data units.
public struct Tick {
    public var value: Double
    public var label: String
}

/// Round-number axes: a step of 1, 2 or 5 × 10ⁿ, and a domain widened to whole steps.
public enum NiceTicks {
    /// `minimumStep`: 1 for counts, which have no fractions.
    public static func covering(_ low: Double, _ high: Double, count: Int = 5, minimumStep: Double = 0) -> (domain: ClosedRange<Double>, ticks: [Tick]) {
        var (low, high) = (min(low, high), max(low, high))
        if high - low < 1e-9 { (low, high) = (low - 1, high + 1) }
        let rough = (high - low) / Double(max(count, 1))
        let magnitude = Double.pow(10, (Double.log10(rough)).rounded(.down))
        let step = max(minimumStep, [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude)
        let first = (low / step).rounded(.down) * step
        let last = (high / step).rounded(.up) * step
        let digits = max(0, -Int(Double.log10(step).rounded(.down)))
        let ticks = stride(from: first, through: last + step / 2, by: step).map {
            Tick(value: $0, label: Formatting.fixed($0, digits: digits))
        }
        return (first...last, ticks)
    }
}
