/// What `trimming(_:)` removes from both ends of a text: the characters of Foundation's
/// `CharacterSet.whitespaces` and `.whitespacesAndNewlines` (hrvmon trimmed with those before),
/// compared scalar by scalar as Foundation did.
public enum Whitespace: Sendable {
    /// Tab, Unicode's space separators, and U+200B ZERO WIDTH SPACE (CoreFoundation counts it).
    case spaces
    /// The spaces, and U+000A–U+000D, U+0085, U+2028 and U+2029.
    case spacesAndNewlines

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: self == .spacesAndNewlines
        default: false
        }
    }
}

extension StringProtocol {
    public func trimming(_ whitespace: Whitespace) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !whitespace.contains($0) }),
              let last = scalars.lastIndex(where: { !whitespace.contains($0) }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
