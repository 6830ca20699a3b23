/// A key press read from the terminal in raw mode.
public enum Key: Equatable {
    case character(Character)
    case enter
    case backspace
    case escape
    /// Completes a check-in's answer to an earlier one.
    case tab
    /// Ctrl-L: draw the whole screen again (the convention of full-screen tools).
    case redraw
    /// Ctrl-U: clear the line being typed.
    case clearLine
}

/// Turns the bytes a terminal sends into keys. Escape sequences of cursor and function keys are
/// swallowed whole, so an arrow key never types `[A` into a note. Pure: feed it what `read`
/// returned, as often as it comes.
public struct KeyDecoder {
    private var pending: [UInt8] = []
    /// Inside an escape sequence that is still arriving.
    private var inSequence = false

    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inSequence {
                // CSI and SS3 sequences end with a byte from @ to ~ (ECMA-48); a lone ESC stays Escape.
                if pending.count == 1 && byte != UInt8(ascii: "[") && byte != UInt8(ascii: "O") {
                    inSequence = false
                    pending = []
                    keys.append(.escape)
                    index -= 1
                } else if pending == Self.csi && byte == UInt8(ascii: "[") {
                    // The Linux console's F1–F5 are `ESC [ [ A`…`E`: this `[` does not end the sequence.
                    pending.append(byte)
                } else if pending.count >= 2 && (0x40...0x7E).contains(byte) {
                    inSequence = false
                    pending = []
                } else {
                    pending.append(byte)
                }
                continue
            }
            switch byte {
            case 0x1B:
                inSequence = true
                pending = [byte]
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x0C: keys.append(.redraw)
            case 0x15: keys.append(.clearLine)
            case 0x00..<0x20: break
            default:
                pending.append(byte)
                if let character = Self.character(pending) {
                    keys.append(.character(character))
                    pending = []
                } else if pending.count >= 4 || !Self.couldContinue(pending) {
                    pending = []
                }
            }
        }
        // A read that ends right after ESC is the Escape key: sequences arrive in one read.
        if inSequence && pending == [0x1B] {
            inSequence = false
            pending = []
            keys.append(.escape)
        }
        return keys
    }

    /// `ESC [`, the start of a control sequence.
    private static let csi: [UInt8] = [0x1B, UInt8(ascii: "[")]

    /// The character of a complete UTF-8 sequence; nil while more bytes are needed.
    private static func character(_ bytes: [UInt8]) -> Character? {
        let expected = switch bytes[0] {
        case 0x00..<0x80: 1
        case 0xC0..<0xE0: 2
        case 0xE0..<0xF0: 3
        default: 4
        }
        guard bytes.count == expected else { return nil }
        return String(validating: bytes, as: UTF8.self).flatMap(\.first)
    }

    private static func couldContinue(_ bytes: [UInt8]) -> Bool {
        bytes[0] >= 0xC0 && bytes.dropFirst().allSatisfy { $0 & 0xC0 == 0x80 }
    }

    public init() {
    }
}
