import HRV

/// One line of breathing animation: a bar that fills on the inhale, stays on a hold and empties
/// on the exhale, with the phase name and the time left.
struct BreathingBar {
    static let hideCursor = "\u{1B}[?25l"
    static let showCursor = "\u{1B}[?25h"
    static let clearLine = "\u{1B}[2K"
    static let width = 30

    let colors: Bool

    func frame(_ position: BreathingPacer.Position, elapsed: Double, duration: Double) -> String {
        let fill: Double = switch position.phase {
        case .inhale: position.progress
        case .holdIn: 1
        case .exhale: 1 - position.progress
        case .holdOut: 0
        }
        let filled = Int((fill * Double(Self.width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.width - filled)
        let label = position.phase.rawValue.uppercased().padding(toLength: 8)
        let color = colors ? (position.phase == .inhale ? "\u{1B}[36m" : position.phase == .exhale ? "\u{1B}[32m" : "\u{1B}[33m") : ""
        let reset = colors ? "\u{1B}[0m" : ""
        let left = Formatting.clock(max(0, duration - elapsed))
        return "\r\(Self.clearLine)\(color)\(label) \(bar)\(reset) \(Formatting.fixed(position.remaining, digits: 1)) s  breath \(position.breaths + 1)  \(left) left"
    }
}

extension String {
    /// Pads with spaces on the right to `length` characters.
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
