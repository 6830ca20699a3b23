/// One session line read in place, as hrvmon writes it: a compact JSON object whose keys and
/// strings are plain printable ASCII (no escapes) and whose values are numbers, strings, true,
/// false, null, arrays of numbers (a packet's `rr_1024`) or such objects. The scan only notes where each member's key and value are; a
/// value becomes a Double or String when it is asked for (`LineFields`), so a line costs no
/// dictionary and no allocation beyond the strings kept and a small one for each nested object
/// scanned or read (hrvmon's lines have few). nil for anything else (whitespace, escapes, other
/// characters, other arrays, more than `capacity` members, a number beyond Double, a line too long for
/// the Int32 positions): the reader then parses the line as JSONSerialization did
/// (`JSONValue.parse`), so every line reads as it did before.
struct ScannedObject: LineFields {
    struct Member {
        var keyStart: Int32 = 0
        var keyEnd: Int32 = 0
        var valueStart: Int32 = 0
        var valueEnd: Int32 = 0
        var kind = Kind.null
        /// The key's length, first and last bytes: one comparison tells most keys apart.
        var keyTag: UInt32 = 0
    }

    private static func tag(length: Int, first: UInt8, last: UInt8) -> UInt32 {
        UInt32(truncatingIfNeeded: length) << 16 | UInt32(first) << 8 | UInt32(last)
    }

    enum Kind: UInt8 { case number, string, bool, null, object, numbers }

    static let capacity = 32
    private static let maximumDepth = 8

    /// Room for the members of one object, made once and used for every line a reader reads:
    /// the scanned object itself stays small to pass around.
    final class Storage {
        let members = UnsafeMutableBufferPointer<Member>.allocate(capacity: ScannedObject.capacity)

        init() { members.initialize(repeating: Member()) }

        deinit { members.deallocate() }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let members: UnsafeMutableBufferPointer<Member>
    private var count = 0
    /// Where the object scanned ends.
    private var end: Int?

    /// The object that is the whole of `bytes`, its members noted in `storage` (which must
    /// outlive it).
    init?(_ bytes: UnsafeBufferPointer<UInt8>, storage: Storage) {
        guard bytes.count < Int32.max else { return nil }
        self.init(bytes, from: 0, depth: 0, members: storage.members)
        guard let end, end == bytes.count else { return nil }
    }

    /// An object the scan of its line has already checked.
    init(nestedIn bytes: UnsafeBufferPointer<UInt8>, at start: Int, storage: Storage) {
        self.init(bytes, from: start, depth: 0, members: storage.members)
    }

    private init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, depth: Int, members: UnsafeMutableBufferPointer<Member>) {
        self.bytes = bytes
        self.members = members
        end = scan(from: start, depth: depth)
    }

    /// Notes the members of the object at `start`; the index after its `}`, nil when it is not
    /// one this scanner reads.
    private mutating func scan(from start: Int, depth: Int) -> Int? {
        var index = start
        guard depth < Self.maximumDepth, index < bytes.count, bytes[index] == .openBrace else { return nil }
        index += 1
        guard index < bytes.count else { return nil }
        if bytes[index] == .closeBrace { return index + 1 }
        while true {
            guard count < Self.capacity, index < bytes.count, bytes[index] == .quote else { return nil }
            var member = Member()
            member.keyStart = Int32(index + 1)
            guard let keyEnd = stringEnd(from: index + 1) else { return nil }
            member.keyEnd = Int32(keyEnd)
            if keyEnd > index + 1 { member.keyTag = Self.tag(length: keyEnd - index - 1, first: bytes[index + 1], last: bytes[keyEnd - 1]) }
            index = keyEnd + 1
            guard index < bytes.count, bytes[index] == .colon else { return nil }
            index += 1
            guard index < bytes.count else { return nil }
            member.valueStart = Int32(index)
            switch bytes[index] {
            case .quote:
                guard let valueEnd = stringEnd(from: index + 1) else { return nil }
                member.kind = .string
                index = valueEnd + 1
            case .openBrace:
                let nestedStorage = Storage()
                let nested = withExtendedLifetime(nestedStorage) {
                    ScannedObject(bytes, from: index, depth: depth + 1, members: nestedStorage.members).end
                }
                guard let nestedEnd = nested else { return nil }
                member.kind = .object
                index = nestedEnd
            case .openBracket:
                guard let arrayEnd = numbersEnd(from: index) else { return nil }
                member.kind = .numbers
                index = arrayEnd
            case UInt8(ascii: "t"):
                guard literal("true", at: index) else { return nil }
                member.kind = .bool
                index += 4
            case UInt8(ascii: "f"):
                guard literal("false", at: index) else { return nil }
                member.kind = .bool
                index += 5
            case UInt8(ascii: "n"):
                guard literal("null", at: index) else { return nil }
                member.kind = .null
                index += 4
            default:
                guard let numberEnd = checkedNumberEnd(from: index, closing: .closeBrace) else { return nil }
                member.kind = .number
                index = numberEnd
            }
            member.valueEnd = Int32(index)
            members[count] = member
            count += 1
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case .comma: index += 1
            case .closeBrace: return index + 1
            default: return nil
            }
        }
    }

    /// The index of the quote closing a string of printable ASCII that starts at `start`.
    private func stringEnd(from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case .quote: return index
            case .backslash: return nil
            case 0x20...0x7E: index += 1
            default: return nil
            }
        }
        return nil
    }

    private func literal(_ word: StaticString, at index: Int) -> Bool {
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { return false }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { return false }
        return true
    }

    /// The index after the `]` of an array of numbers starting at `start` (its `[`), with no spaces.
    private func numbersEnd(from start: Int) -> Int? {
        var index = start + 1
        guard index < bytes.count else { return nil }
        if bytes[index] == .closeBracket { return index + 1 }
        while true {
            guard index < bytes.count, let numberEnd = checkedNumberEnd(from: index, closing: .closeBracket) else { return nil }
            index = numberEnd + 1
            if bytes[numberEnd] == .closeBracket { return index }
        }
    }

    /// The end of a number `numberEnd` finds whose value is a Double: without an exponent, up to
    /// 308 characters are below 10^308, within Double's range; a longer number, or one with an
    /// exponent, may not be.
    private func checkedNumberEnd(from start: Int, closing: UInt8) -> Int? {
        guard let (end, hasExponent) = numberEnd(from: start, closing: closing) else { return nil }
        if hasExponent || end - start > 308, NumberToken.value(UnsafeBufferPointer(rebasing: bytes[start..<end])) == nil { return nil }
        return end
    }

    /// The end of a number of JSON's grammar starting at `start` (no leading zeros; a fraction
    /// and an exponent each need a digit), ended by `,` or `closing`, and whether it has an exponent.
    private func numberEnd(from start: Int, closing: UInt8) -> (Int, hasExponent: Bool)? {
        var index = start
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == .minus { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            return nil
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return nil }
        }
        let hasExponent = index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: "e")
        if hasExponent {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == .minus { index += 1 }
            guard digits() > 0 else { return nil }
        }
        guard index < bytes.count, bytes[index] == .comma || bytes[index] == closing else { return nil }
        return (index, hasExponent)
    }

    // MARK: LineFields

    /// The last member named `key` (the last of repeated keys counts, as JSONSerialization read them).
    func value(_ key: StaticString) -> LineValue<NestedObject>? {
        member(key).flatMap(value(of:))
    }

    func exactNumber(_ key: StaticString) -> Double? {
        guard let member = member(key), member.kind == .number else { return nil }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(member.valueStart)..<Int(member.valueEnd)]), as: UTF8.self))
    }

    // Inlined: the reader looks up every field of every line through it (callgrind, 8 MB of a day:
    // 409 M instructions as a call, 401.5 M inlined, 403.6 M for the loop in place before).
    @inline(__always)
    private func member(_ key: StaticString) -> Member? {
        let length = key.utf8CodeUnitCount
        guard length > 0 else { return nil }
        let tag = Self.tag(length: length, first: key.utf8Start[0], last: key.utf8Start[length - 1])
        var index = count - 1
        while index >= 0 {
            if members[index].keyTag == tag, keyMatches(members[index], key) { return members[index] }
            index -= 1
        }
        return nil
    }

    /// nil only for a number beyond Double's range, which the scan lets through in no line.
    private func value(of member: Member) -> LineValue<NestedObject>? {
        let start = Int(member.valueStart)
        let end = Int(member.valueEnd)
        switch member.kind {
        case .number: return NumberToken.value(UnsafeBufferPointer(rebasing: bytes[start..<end])).map { .number($0) }
        case .string: return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[start + 1..<end - 1]), as: UTF8.self))
        case .bool: return .bool(bytes[start] == UInt8(ascii: "t"))
        case .null: return .null
        case .object: return .object(NestedObject(bytes: bytes, start: start))
        case .numbers:
            // The scan checked each number: they split at commas and all have values.
            let numbers = bytes[start + 1..<end - 1].split(separator: .comma).compactMap {
                NumberToken.value(UnsafeBufferPointer(rebasing: $0))
            }
            return .array(numbers)
        }
    }

    private func keyMatches(_ member: Member, _ key: StaticString) -> Bool {
        Int(member.keyEnd - member.keyStart) == key.utf8CodeUnitCount && literal(key, at: Int(member.keyStart))
    }
}

/// An object inside a scanned line, scanned again when a field of it is asked for (a line's
/// nested objects are few and small), so that a line's values stay small.
struct NestedObject: LineFields {
    let bytes: UnsafeBufferPointer<UInt8>
    let start: Int

    func value(_ key: StaticString) -> LineValue<NestedObject>? {
        let storage = ScannedObject.Storage()
        return withExtendedLifetime(storage) { ScannedObject(nestedIn: bytes, at: start, storage: storage).value(key) }
    }

    func exactNumber(_ key: StaticString) -> Double? {
        let storage = ScannedObject.Storage()
        return withExtendedLifetime(storage) { ScannedObject(nestedIn: bytes, at: start, storage: storage).exactNumber(key) }
    }
}
