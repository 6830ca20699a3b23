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

    /// The line `breathe` redraws in place, in at most `width` characters (a full line would
    /// make the terminal wrap, and the next frame would draw below it).
    public func frame(_ position: BreathingPacer.Position, elapsed: Double, duration: Double, width: Int) -> String {
        let left = Formatting.clock(max(0, duration - elapsed)) + " left"
        return "\r\(Self.clearLine)" + Self.line(position, width: width - 1, longest: Self.width, left: left).rendered(colors: colors)
    }

    /// The phase and its bar in the phase's colour (the line `breathe` animates and the
    /// dashboard's pacer panel shows), then the seconds left in the phase, the breath under way
    /// and `left`: `INHALE   ████░░░░  3.2 s  breath 4  4:12 left`. In `width` characters: the bar
    /// shrinks from `longest` cells to 8, then the breath goes, then `left`, never a word cut.
    public static func line(_ position: BreathingPacer.Position, width: Int, longest: Int, left: String? = nil) -> StyledLine {
        let seconds = "\(Formatting.fixed(position.remaining, digits: 1)) s"
        let breath = "breath \(position.breaths + 1)"
        let choices = [[seconds, breath, left], [seconds, left], [seconds], []].map { $0.compactMap { $0 } }
        let label = label(position.phase) + " "
        let tails = choices.map { $0.map { "  " + $0 }.joined() }
        let tail = tails.first { width - label.count - $0.count >= 8 } ?? ""
        let cells = max(1, min(longest, width - label.count - tail.count))
        var line = StyledLine(label + bar(position, width: cells), style(position.phase))
        line.append(tail)
        return line
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
