import CDBus
import Glibc
import Testing
@testable import DBus

@Suite struct DBusValueTests {
    /// Appends to a real libdbus message and reads back.
    static func roundTrip(_ values: [DBusValue]) throws -> [DBusValue] {
        let message = try #require(Message.methodCall(destination: "org.example", path: "/a", interface: "org.example.I", member: "M"))
        #expect(message.append(values))
        return try #require(message.arguments)
    }

    @Test func everyTypeRoundTrips() throws {
        let values: [DBusValue] = [
            .byte(0xFE), .boolean(true), .int16(-3), .uint16(65535), .int32(-70000), .uint32(4_000_000_000),
            .int64(Int64.min), .uint64(UInt64.max), .double(-0.125), .string("Polar H10 ✓"), .objectPath("/org/bluez/hci0"),
            .signature("a{sv}"), .bytes([0x16, 0x3C, 0x00, 0x04]), .bytes([]),
            .strings(["0000180d-0000-1000-8000-00805f9b34fb"]), .array(elementSignature: "s", []),
            .properties(["UUIDs": .strings(["a", "b"]), "Transport": .string("le"), "RSSI": .int16(-58)]),
            .structure([.uint16(23), .string("x")]), .variant(.variant(.byte(1))),
            .dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [
                .init(.objectPath("/org/bluez/hci0"), .dictionary(keySignature: "s", valueSignature: "a{sv}", [
                    .init(.string("org.bluez.Adapter1"), .properties(["Powered": .boolean(true)])),
                ])),
            ]),
        ]
        #expect(try Self.roundTrip(values) == values)
        #expect(values.map(\.signature).joined() == "ybnqiuxtdsogayayasasa{sv}(qs)va{oa{sa{sv}}}")
    }

    @Test func randomNestedValuesRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        func random(_ depth: Int) -> DBusValue {
            switch Int.random(in: 0..<(depth > 2 ? 6 : 10), using: &generator) {
            case 0: return .byte(.random(in: 0...255))
            case 1: return .int32(.random(in: .min ... .max))
            case 2: return .uint64(.random(in: 0 ... .max))
            case 3: return .string(String((0..<Int.random(in: 0..<12)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 32...126))) }))
            case 4: return .bytes((0..<Int.random(in: 0..<40)).map { _ in .random(in: 0...255) })
            case 5: return .boolean(.random())
            case 6: return .variant(random(depth + 1))
            case 7: return .structure((0..<Int.random(in: 1..<4)).map { _ in random(depth + 1) })
            case 8: return .array(elementSignature: "i", (0..<Int.random(in: 0..<5)).map { _ in .int32(.random(in: -9...9)) })
            default: return .properties(Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0..<4)).map { ("k\($0)", random(depth + 1)) }))
            }
        }
        for _ in 0..<500 {
            let values = (0..<Int.random(in: 1..<5)).map { _ in random(0) }
            #expect(try Self.roundTrip(values) == values)
        }
    }

    /// A descriptor is duplicated into the message and again out of it; the copy reads the same file.
    @Test func unixDescriptorsArePassed() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let received = try #require(try Self.roundTrip([.unixFD(ends[1]), .uint16(247)]).first?.unixFD)
        #expect(received != ends[1])
        defer { close(received) }
        var byte: UInt8 = 42
        #expect(write(received, &byte, 1) == 1)
        var read: UInt8 = 0
        #expect(Glibc.read(ends[0], &read, 1) == 1 && read == 42)
    }

    @Test func typedReadsLookThroughVariants() {
        let properties = DBusValue.properties(["Connected": .boolean(true), "RSSI": .int16(-60), "Value": .bytes([1, 2])]).dictionary
        #expect(properties?["Connected"]?.bool == true)
        #expect(properties?["RSSI"]?.integer == -60)
        #expect(properties?["Value"]?.bytes == [1, 2])
        #expect(DBusValue.string("x").integer == nil)
        #expect(DBusValue.strings(["a"]).strings == ["a"])
    }

    @Test func matchRulesQuoteTheirValues() {
        #expect(MatchRule(sender: "org.bluez", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", pathNamespace: "/org/bluez").description
            == "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/bluez'")
        #expect(MatchRule(firstArgument: "it's").description == #"type='signal',arg0='it'\''s'"#)
    }
}
