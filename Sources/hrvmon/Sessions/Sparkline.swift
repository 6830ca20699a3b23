/// A one-line chart: one block per value scaled between the smallest and largest, `·` where a
/// value is missing.
enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    static func render(_ values: [Double?]) -> String {
        let present = values.compactMap { $0 }
        guard let low = present.min(), let high = present.max() else { return String(repeating: "·", count: values.count) }
        return String(values.map { value in
            guard let value else { return "·" }
            guard high > low else { return blocks[blocks.count / 2] }
            return blocks[Int(((value - low) / (high - low) * Double(blocks.count - 1)).rounded())]
        })
    }
}
