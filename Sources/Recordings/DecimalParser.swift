/// Parses a decimal number (`812`, `812.5`, `8.125e+02`) straight into an integer count of a
/// fine unit, exactly when the decimal allows it and rounded to the nearest unit otherwise —
/// never through a binary floating-point value.
enum DecimalParser {
    enum Outcome: Equatable {
        case value(Int64)
        case notANumber
        case tooLarge
    }

    /// - Parameters:
    ///   - text: the token, without surrounding whitespace.
    ///   - scale: how many result units one unit of the written number is.
    static func parse(_ text: ArraySlice<UInt8>, scale: Int64) -> Outcome {
        var index = text.startIndex
        var negative = false
        if index < text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        // Up to 19 significant digits fit a UInt64; later digits only scale or are dropped (a
        // 19-digit mantissa is far finer than a microtick).
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var digits = 0
        var seenPoint = false
        while index < text.endIndex {
            let byte = text[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                    if mantissa > 0 { significant += 1 }
                    if seenPoint { exponent -= 1 }
                } else if !seenPoint {
                    exponent += 1
                }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return .notANumber }
        if index < text.endIndex {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return .notANumber }
            index += 1
            var exponentNegative = false
            if index < text.endIndex, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < text.endIndex, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
                written = min(written * 10 + Int(text[index] - UInt8(ascii: "0")), 10_000)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0, index == text.endIndex else { return .notANumber }
            exponent += exponentNegative ? -written : written
        }
        var scaled = Int128(mantissa) * Int128(scale)
        if exponent > 0 {
            for _ in 0..<exponent {
                if scaled > Int128(Int64.max) { return .tooLarge }
                scaled *= 10
            }
        } else if exponent < 0 {
            if exponent < -38 {
                scaled = 0
            } else {
                var divisor: Int128 = 1
                for _ in 0..<(-exponent) { divisor *= 10 }
                scaled = (scaled + divisor / 2) / divisor  // round half up
            }
        }
        guard scaled <= Int128(Int64.max) else { return .tooLarge }
        return .value(negative ? -Int64(scaled) : Int64(scaled))
    }
}
