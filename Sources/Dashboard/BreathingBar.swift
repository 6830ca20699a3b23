import HRV
import Presentation

/// One line of breathing animation: a bar that fills on the inhale, stays on a hold and empties
/// on the exhale, with the phase name and the time left. `breathe` draws it alone on a line; the
/// dashboard draws the same bar in its pacer panel.
public struct BreathingBar {
    public static let hideCursor = "\u{1B}[?25l"
    public static let showCursor = "\u{1B}[?25h"
    public static let clearLine = "\u{1B}[2K"
    public static let width = 30

    public let colors: Bool

    public func frame(_ position: BreathingPacer.Position, elapsed: Double, duration: Double) -> String {
        let left = Formatting.clock(max(0, duration - elapsed))
        return "\r\(Self.clearLine)" + Self.phaseBar(position, width: Self.width).rendered(colors: colors)
            + " \(Self.count(position))  \(left) left"
    }

    /// The phase and its bar in the phase's colour: the line `breathe` animates and the
    /// dashboard's pacer panel shows.
    public static func phaseBar(_ position: BreathingPacer.Position, width: Int) -> StyledLine {
        StyledLine(label(position.phase) + " " + bar(position, width: width), style(position.phase))
    }

    /// Seconds left in the phase and the breath under way: `3.2 s  breath 4`.
    public static func count(_ position: BreathingPacer.Position) -> String {
        "\(Formatting.fixed(position.remaining, digits: 1)) s  breath \(position.breaths + 1)"
    }

    /// `width` cells, filled in proportion to the air in the lungs.
    public static func bar(_ position: BreathingPacer.Position, width: Int) -> String {
        let fill: Double = switch position.phase {
        case .inhale: position.progress
        case .holdIn: 1
        case .exhale: 1 - position.progress
        case .holdOut: 0
        }
        return Sparkline.meter(fill, cells: width)
    }

    /// The phase in capitals, padded to one width for every phase.
    public static func label(_ phase: BreathingPattern.Phase) -> String {
        phase.rawValue.uppercased().padding(toLength: 8)
    }

    /// The colour of a phase: cyan in, green out, yellow on holds.
    public static func style(_ phase: BreathingPattern.Phase) -> StyledLine.Style {
        switch phase {
        case .inhale: .calm
        case .exhale: .good
        case .holdIn, .holdOut: .warning
        }
    }

    public init(colors: Bool) {
        self.colors = colors
    }
}

extension String {
    /// Pads with spaces on the right to `length` characters.
    public func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
