import RealModule

/// Heart rate's oscillation at a known breathing frequency: the least-squares fit of
/// HR(t) = c + d·t + a·cos θ(t) + b·sin θ(t) (the line dropped for a single breath), with θ the
/// pacer's phase in radians. Pure.
struct PacedOscillationFit {
    /// Amplitude of the fitted sinusoid, bpm.
    var amplitude: Double
    /// The pacer phase (radians, 0 at an inhale's start) at which the fitted HR peaks.
    var peakPhase: Double
    /// Share of the heart rate's variance about its line that the sinusoid explains, 0…1.
    var explained: Double

    /// Nil when the samples cannot determine the fit (too few, or all at one phase).
    init?(phases: [Double], heartRates: [Double], times: [Double]?) {
        let count = heartRates.count
        guard count >= (times == nil ? 4 : 6) else { return nil }
        let meanTime = times.map { $0.reduce(0, +) / Double(count) } ?? 0
        func regressors(_ index: Int, withSinusoid: Bool) -> [Double] {
            var row = [1.0]
            if let times { row.append(times[index] - meanTime) }
            if withSinusoid { row += [Double.cos(phases[index]), Double.sin(phases[index])] }
            return row
        }
        guard let full = Self.solve(count: count, regressors: { regressors($0, withSinusoid: true) }, targets: heartRates),
              let line = Self.solve(count: count, regressors: { regressors($0, withSinusoid: false) }, targets: heartRates)
        else { return nil }
        let (a, b) = (full.coefficients[full.coefficients.count - 2], full.coefficients[full.coefficients.count - 1])
        amplitude = (a * a + b * b).squareRoot()
        peakPhase = Double.atan2(y: b, x: a)
        explained = line.residual > 0 ? max(0, 1 - full.residual / line.residual) : 0
    }

    /// Ordinary least squares by the normal equations (at most four unknowns, well-conditioned
    /// after centring time): the coefficients and the residual sum of squares.
    private static func solve(count: Int, regressors: (Int) -> [Double], targets: [Double]) -> (coefficients: [Double], residual: Double)? {
        let rows = (0..<count).map(regressors)
        let width = rows[0].count
        var matrix = [[Double]](repeating: [Double](repeating: 0, count: width + 1), count: width)
        for (row, target) in zip(rows, targets) {
            for i in 0..<width {
                for j in 0..<width { matrix[i][j] += row[i] * row[j] }
                matrix[i][width] += row[i] * target
            }
        }
        // Gaussian elimination with partial pivoting.
        for column in 0..<width {
            guard let pivot = (column..<width).max(by: { abs(matrix[$0][column]) < abs(matrix[$1][column]) }),
                  abs(matrix[pivot][column]) > 1e-9 * Double(count)
            else { return nil }
            matrix.swapAt(column, pivot)
            for row in 0..<width where row != column {
                let factor = matrix[row][column] / matrix[column][column]
                for k in column...width { matrix[row][k] -= factor * matrix[column][k] }
            }
        }
        let coefficients = (0..<width).map { matrix[$0][width] / matrix[$0][$0] }
        var residual = 0.0
        for (row, target) in zip(rows, targets) {
            let fitted = zip(row, coefficients).reduce(0) { $0 + $1.0 * $1.1 }
            residual += (target - fitted) * (target - fitted)
        }
        return (coefficients, residual)
    }
}
