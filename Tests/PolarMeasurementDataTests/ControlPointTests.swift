import PolarMeasurementData
import Testing

/// Requests and replies against the worked H10 exchanges of Polar's old PMD specification
/// (`Polar_Measurement_Data_Specification.pdf`, in polar-ble-sdk's history before 0d58c747) and
/// polar-ble-sdk's tests; shared/POLAR-PMD.md lists both.
@Suite struct ControlPointTests {
    static func hex(_ text: String) -> [UInt8] { text.split(separator: " ").map { UInt8($0, radix: 16)! } }

    /// Old spec: "ECG settings" and "ACC settings" requests, `01 00` and `01 02`.
    @Test func getSettingsRequests() {
        #expect(PMDRequest.getSettings(.ecg).bytes == Self.hex("01 00"))
        #expect(PMDRequest.getSettings(.acc).bytes == Self.hex("01 02"))
    }

    /// Old spec: start ACC at 200 Hz, 16 bit, 8 G; start ECG at 130 Hz, 14 bit; stop ACC and ECG.
    @Test func startAndStopRequests() {
        let acc = PMDStreamSettings(sampleRate: 200, resolution: 16, range: 8)
        #expect(PMDRequest.start(.acc, acc).bytes == Self.hex("02 02 02 01 08 00 00 01 C8 00 01 01 10 00"))
        let ecg = PMDStreamSettings(sampleRate: 130, resolution: 14)
        #expect(PMDRequest.start(.ecg, ecg).bytes == Self.hex("02 00 00 01 82 00 01 01 0E 00"))
        #expect(PMDRequest.stop(.acc).bytes == Self.hex("03 02"))
        #expect(PMDRequest.stop(.ecg).bytes == Self.hex("03 00"))
    }

    /// Old spec: the H10's ACC settings reply (25/50/100/200 Hz, 16 bit, 2/4/8 G), and the choice
    /// of 50 Hz, 16 bit, 8 G from it.
    @Test func accSettingsReply() throws {
        let message = try PMDControlPointMessage(parsing: Self.hex("F0 01 02 00 00 00 04 19 00 32 00 64 00 C8 00 01 01 10 00 02 03 02 00 04 00 08 00"))
        guard case .reply(let reply) = message else { Issue.record("not a reply: \(message)"); return }
        #expect(reply.answers(.getSettings(.acc)) && reply.succeeded && !reply.more)
        let settings = try PMDAvailableSettings(parsing: reply.parameters)
        #expect(settings.sampleRates == [25, 50, 100, 200])
        #expect(settings.resolutions == [16])
        #expect(settings.ranges == [2, 4, 8])
        #expect(settings.choosing(sampleRate: 50, range: 8) == PMDStreamSettings(sampleRate: 50, resolution: 16, range: 8))
        #expect(settings.choosing(sampleRate: 60, range: 16)?.sampleRate == 50)
    }

    /// Old spec: the H10's ECG settings reply (130 Hz, 14 bit).
    @Test func ecgSettingsReply() throws {
        let message = try PMDControlPointMessage(parsing: Self.hex("F0 01 00 00 00 00 01 82 00 01 01 0E 00"))
        guard case .reply(let reply) = message else { Issue.record("not a reply: \(message)"); return }
        let settings = try PMDAvailableSettings(parsing: reply.parameters)
        #expect(settings.choosing(sampleRate: 130) == PMDStreamSettings(sampleRate: 130, resolution: 14))
    }

    /// Old spec: the start and stop replies; "already in state" (status 6) counts as done for
    /// start and stop, not for get settings.
    @Test func startAndStopReplies() throws {
        let start = try PMDControlPointMessage(parsing: Self.hex("F0 02 02 00 00 01"))
        #expect(start == .reply(PMDReply(operation: 2, measurementType: 2, status: .success, more: false, parameters: [1])))
        let stop = try PMDControlPointMessage(parsing: Self.hex("F0 03 00 00 00"))
        guard case .reply(let reply) = stop else { Issue.record("not a reply"); return }
        #expect(reply.answers(.stop(.ecg)) && reply.succeeded)
        #expect(PMDReply(operation: 2, measurementType: 2, status: .alreadyInState).succeeded)
        #expect(PMDReply(operation: 3, measurementType: 0, status: .alreadyInState).succeeded)
        #expect(!PMDReply(operation: 1, measurementType: 0, status: .alreadyInState).succeeded)
    }

    /// polar-ble-sdk tests: BlePmdClientControlPointResponseTest "failing control point response
    /// for mag stream settings" (`F0 01 06 07 00`, invalid resolution) and "success control
    /// point response for acc stream settings" (parameters `FF FF FF`); shared/POLAR-PMD.md's
    /// start without settings, `F0 02 00 05 00`, invalid parameter.
    @Test func errorReplies() throws {
        #expect(try PMDControlPointMessage(parsing: Self.hex("F0 01 06 07 00"))
            == .reply(PMDReply(operation: 1, measurementType: 6, status: .invalidResolution)))
        #expect(try PMDControlPointMessage(parsing: Self.hex("F0 01 02 00 00 FF FF FF"))
            == .reply(PMDReply(operation: 1, measurementType: 2, status: .success, parameters: [0xFF, 0xFF, 0xFF])))
        guard case .reply(let invalid) = try PMDControlPointMessage(parsing: Self.hex("F0 02 00 05 00")) else { return }
        #expect(invalid.status == .invalidParameter && !invalid.succeeded)
        // An error reply may end after the status byte.
        #expect(try PMDControlPointMessage(parsing: Self.hex("F0 02 02 0A")) == .reply(PMDReply(operation: 2, measurementType: 2, status: .invalidMTU)))
        #expect(PMDStatus(code: 10).description == "invalid MTU")
        #expect(PMDStatus(code: 200) == .unknown(200) && PMDStatus(code: 200).code == 200 && PMDStatus.alreadyInState.code == 6)
    }

    /// polar-ble-sdk tests: BlePmdClientTest "process measurement stop control point command"
    /// (`01 01 02`: PPG and ACC stopped by the device) and "… from service no content" (`01`).
    @Test func strapStops() throws {
        #expect(try PMDControlPointMessage(parsing: Self.hex("01 01 02")) == .stoppedByStrap([1, 2]))
        #expect(try PMDControlPointMessage(parsing: Self.hex("01")) == .stoppedByStrap([]))
    }

    /// A reply with `more` set continues in the next indication's parameters.
    @Test func repliesInParts() {
        var assembler = PMDReplyAssembler()
        #expect(assembler.add(PMDReply(operation: 1, measurementType: 2, status: .success, more: true, parameters: [0, 2, 0x19, 0])) == nil)
        let whole = assembler.add(PMDReply(operation: 1, measurementType: 2, status: .success, more: false, parameters: [0x32, 0]))
        #expect(whole?.parameters == [0, 2, 0x19, 0, 0x32, 0])
        #expect((try? PMDAvailableSettings(parsing: whole?.parameters ?? []))?.sampleRates == [25, 50])
    }

    /// polar-ble-sdk #281, #360: the H10's feature read `0F 05 00` offers ECG (bit 0) and ACC (bit 2).
    @Test func features() throws {
        let features = try PMDFeatures(parsing: Self.hex("0F 05 00"))
        #expect(features.offers(.ecg) && features.offers(.acc) && !features.offers(.ppg))
        #expect(features.offered == [0, 2])
        #expect(throws: PMDParseError(.unexpected("feature read", 0xF0), at: 0)) { try PMDFeatures(parsing: Self.hex("F0 05")) }
    }

    @Test func malformedIndicationsAreRefusedWithTheirOffset() {
        #expect(throws: PMDParseError(.truncated("the response code"), at: 0)) { try PMDControlPointMessage(parsing: []) }
        #expect(throws: PMDParseError(.truncated("the status"), at: 3)) { try PMDControlPointMessage(parsing: Self.hex("F0 02 02")) }
        #expect(throws: PMDParseError(.unexpected("control point indication", 0x42), at: 0)) { try PMDControlPointMessage(parsing: [0x42]) }
        #expect(throws: PMDParseError(.truncated("a value of setting 0"), at: 4)) { try PMDAvailableSettings(parsing: Self.hex("00 02 19 00 32")) }
        #expect(throws: PMDParseError(.unknownSetting(9), at: 0)) { try PMDAvailableSettings(parsing: Self.hex("09 01 00")) }
    }
}
