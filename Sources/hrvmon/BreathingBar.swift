import HRV

/// One line of breathing animation: a bar that fills on the inhale, stays on a hold and empties
/// on the exhale, with the phase name and the time left. `breathe` draws it alone on a line; the
/// dashboard draws the same bar in its pacer panel.
struct BreathingBar {
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let clearLine = "\u{1B}[2K"
    static let width = 30

    let colors: Bool

    func frame(_ position: BreathingPacer.Position, elapsed: Double, duration: Double) -> String {
        let color = colors ? "\u{1B}[\(Self.colorCode(position.phase))m" : ""
        let reset = colors ? "\u{1B}[0m" : ""
        let left = Formatting.clock(max(0, duration - elapsed))
        return "\r\(Self.clearLine)\(color)\(Self.label(position.phase)) \(Self.bar(position, width: Self.width))\(reset) "
            + "\(Formatting.fixed(position.remaining, digits: 1)) s  breath \(position.breaths + 1)  \(left) left"
    }

    /// `width` cells, filled in proportion to the air in the lungs.
    static func bar(_ position: BreathingPacer.Position, width: Int) -> String {
        let fill: Double = switch position.phase {
        case .inhale: position.progress
        case .holdIn: 1
        case .exhale: 1 - position.progress
        case .holdOut: 0
        }
        let filled = Int((fill * Double(width)).rounded())
        return String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
    }

    /// The phase in capitals, padded to one width for every phase.
    static func label(_ phase: BreathingPattern.Phase) -> String {
        phase.rawValue.uppercased().padding(toLength: 8)
    }

    /// SGR colour of a phase: cyan in, green out, yellow on holds.
    static func colorCode(_ phase: BreathingPattern.Phase) -> String {
        switch phase {
        case .inhale: "36"
        case .exhale: "32"
        case .holdIn, .holdOut: "33"
        }
    }
}

extension String {
    /// Pads with spaces on the right to `length` characters.
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
