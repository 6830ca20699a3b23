/// The value `JSONNumber(token:)` gives a number token of the JSON grammar, worked out from its
/// bytes without making a String or a Decimal for the tokens hrvmon writes: whole numbers of up
/// to 18 characters, and decimals without an exponent whose digits fit 64 bits. Other tokens
/// (exponents, longer whole numbers) are handed to `JSONNumber` itself.
enum NumberToken {
    /// `token` must match JSON's number grammar. nil when the number is beyond Double's range
    /// (JSONSerialization refused the document then).
    static func value(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
        let negative = token[0] == UInt8(ascii: "-")
        var mantissa: UInt64 = 0
        var fractionDigits = 0
        var seenPoint = false
        var overflow = false
        for byte in token[(negative ? 1 : 0)...] {
            switch byte {
            case UInt8(ascii: "."):
                seenPoint = true
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, overflow1) = mantissa.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
                mantissa = sum
                overflow = overflow || overflow1 || overflow2
                if seenPoint { fractionDigits += 1 }
            default:
                return general(token) // an exponent
            }
        }
        if !seenPoint {
            // JSONNumber reads whole numbers through Int64 or UInt64: exact here below 10^18.
            guard token.count <= 18 else { return general(token) }
            return signed(Double(mantissa), negative)
        }
        if token.count <= 17 {
            // JSONNumber's Double(token), correctly rounded: the mantissa and the power of ten are
            // exact Doubles, so one division rounds correctly (Clinger's fast path).
            guard mantissa <= 1 << 53, fractionDigits <= 22 else { return general(token) }
            return signed(Double(mantissa) / powersOfTen[fractionDigits], negative)
        }
        guard !overflow, fractionDigits <= 100 else { return general(token) }
        return signed(decimalDouble(mantissa: mantissa, exponent: -fractionDigits), negative)
    }

    /// What `Decimal(string:)` then `_doubleValue` give for mantissa × 10^exponent: the mantissa
    /// compacted (trailing zeros into the exponent), summed as Double from its 16-bit words,
    /// then divided (or multiplied) by ten once per unit of the exponent, each step rounded.
    private static func decimalDouble(mantissa: UInt64, exponent: Int) -> Double {
        var mantissa = mantissa
        var exponent = exponent
        guard mantissa != 0 else { return 0 }
        while mantissa % 10 == 0 {
            mantissa /= 10
            exponent += 1
        }
        var value = 0.0
        for shift in stride(from: 48, through: 0, by: -16) {
            value = value * 65536 + Double((mantissa >> UInt64(shift)) & 0xFFFF)
        }
        if exponent < 0 {
            for _ in exponent..<0 { value /= 10 }
        } else {
            for _ in 0..<exponent { value *= 10 }
        }
        return value
    }

    /// -0 is read as 0, as JSONNumber reads it.
    private static func signed(_ magnitude: Double, _ negative: Bool) -> Double {
        negative && magnitude != 0 ? -magnitude : magnitude
    }

    private static func general(_ token: UnsafeBufferPointer<UInt8>) -> Double? {
        let number = JSONNumber(token: Substring(String(decoding: token, as: UTF8.self)))
        return number.isRepresentable ? number.value : nil
    }

    private static let powersOfTen: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { product, _ in product * 10 } }
}
