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
    static func parse(_ token: Slice<UnsafeBufferPointer<UInt8>>, scale: Int64) -> Outcome {
        let text = UnsafeBufferPointer(rebasing: token)
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        // 18 digits always fit a UInt64; later digits only scale or are dropped (an 18-digit
        // mantissa is far finer than a microtick).
        let limit: UInt64 = 100_000_000_000_000_000
        var mantissa: UInt64 = 0
        var exponent = 0
        var digits = 0
        while index < text.count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
            if mantissa < limit { mantissa = mantissa &* 10 &+ UInt64(digit) } else { exponent += 1 }
            digits += 1
            index += 1
        }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < text.count, case let digit = text[index] &- UInt8(ascii: "0"), digit < 10 {
                if mantissa < limit {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    exponent -= 1
                }
                digits += 1
                index += 1
            }
        }
        guard digits > 0 else { return .notANumber }
        if index < text.count {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return .notANumber }
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var exponentDigits = 0
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
                written = min(written * 10 + Int(text[index] - UInt8(ascii: "0")), 10_000)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0, index == text.count else { return .notANumber }
            exponent += exponentNegative ? -written : written
        }
        return value(mantissa: mantissa, exponent: exponent, negative: negative, scale: scale)
    }

    /// mantissa·10^exponent units, each `scale` result units, rounded half up to a whole result
    /// unit. Inlined into a list file's line reader, where the call cost a quarter of the line;
    /// the rare written exponent is a call of its own.
    @inline(__always)
    static func value(mantissa: UInt64, exponent: Int, negative: Bool, scale: Int64) -> Outcome {
        let magnitude: UInt64
        if exponent <= 0, exponent >= -19 {
            // The common case (plain decimals) in hardware 64-bit ops: the 128-bit product
            // divided by a power of ten that fits a UInt64.
            let divisor = powersOfTen[-exponent]
            let product = mantissa.multipliedFullWidth(by: UInt64(scale))
            guard product.high < divisor else { return .tooLarge }
            // A product that fits 64 bits (any plausible interval) divides in one instruction;
            // the 128-bit division is a library call.
            let (quotient, remainder) = product.high == 0
                ? product.low.quotientAndRemainder(dividingBy: divisor)
                : divisor.dividingFullWidth(product)
            magnitude = remainder >= divisor - remainder ? quotient + 1 : quotient  // round half up
        } else if exponent > 0 {
            guard let scaled = scaledUp(mantissa: mantissa, exponent: exponent, scale: scale) else { return .tooLarge }
            magnitude = scaled
        } else {
            magnitude = 0  // below 1e-19 of a unit: far under a microtick
        }
        guard magnitude <= UInt64(Int64.max) else { return .tooLarge }
        return .value(negative ? -Int64(magnitude) : Int64(magnitude))
    }

    /// mantissa·10^exponent·scale for a positive exponent; nil above Int64.max.
    @inline(never)
    private static func scaledUp(mantissa: UInt64, exponent: Int, scale: Int64) -> UInt64? {
        var scaled = Int128(mantissa) * Int128(scale)
        for _ in 0..<exponent {
            if scaled > Int128(Int64.max) { return nil }
            scaled *= 10
        }
        guard scaled <= Int128(Int64.max) else { return nil }
        return UInt64(scaled)
    }

    /// 10^0 … 10^19, written out: a literal table is laid out at build time, where one computed
    /// at first use is checked for on every call.
    private static let powersOfTen: [UInt64] = [
        1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
        10_000_000_000, 100_000_000_000, 1_000_000_000_000, 10_000_000_000_000, 100_000_000_000_000,
        1_000_000_000_000_000, 10_000_000_000_000_000, 100_000_000_000_000_000,
        1_000_000_000_000_000_000, 10_000_000_000_000_000_000,
    ]
}
