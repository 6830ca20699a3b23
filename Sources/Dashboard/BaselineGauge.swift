
/// ln RMSSD on a scale around the resting baseline: the resting band (±1 SD), the stress
/// threshold, and where the latest window lies.
public enum BaselineGauge {
    /// The scale, in SDs from the resting mean: stress lives far below, rest near zero.
    public static let scale = -4.0...3.0

    public static func line(zScore: Double?, onsetMargin: Double, width: Int, marker: StyledLine.Style) -> StyledLine {
        guard width >= 3 else { return StyledLine() }
        func cell(_ z: Double) -> Int {
            let clamped = min(max(z, scale.lowerBound), scale.upperBound)
            return Int(((clamped - scale.lowerBound) / (scale.upperBound - scale.lowerBound) * Double(width - 1)).rounded())
        }
        var cells: [(Character, StyledLine.Style)] = Array(repeating: ("─", .faint), count: width)
        for index in cell(-1)...cell(1) { cells[index] = ("═", .good) }
        cells[cell(-onsetMargin)] = ("┆", .warning)
        if let zScore {
            let symbol: Character = zScore < scale.lowerBound ? "◀" : zScore > scale.upperBound ? "▶" : "●"
            cells[cell(zScore)] = (symbol, marker)
        }
        var line = StyledLine()
        for (symbol, style) in cells { line.append(String(symbol), style) }
        return line
    }
}
