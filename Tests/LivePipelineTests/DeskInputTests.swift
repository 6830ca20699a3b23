import LivePipeline
import Testing

/// Readings of the desktop's idle time into presence: input within the last minute is at the
/// desk; a source that does not answer is unknown; only changes are told.
@Suite struct DeskInputTests {
    @Test func inputWithinTheLastMinuteIsAtTheDesk() {
        var input = DeskInput()
        #expect(input.presence == .unknown)
        #expect(input.observe(idleSeconds: 0.4) == .atDesk)
        #expect(input.observe(idleSeconds: 59.9) == nil, "still at the desk: no change to tell")
        #expect(input.observe(idleSeconds: 60) == .away)
        #expect(input.observe(idleSeconds: 3600) == nil)
        #expect(input.observe(idleSeconds: nil) == .unknown)
        #expect(input.observe(idleSeconds: nil) == nil)
        #expect(input.observe(idleSeconds: 12) == .atDesk)
    }

    @Test func onlyInputIsEvidenceOfSitting() {
        #expect(DeskPresence.atDesk.isSittingEvidence)
        #expect(!DeskPresence.away.isSittingEvidence)
        #expect(!DeskPresence.unknown.isSittingEvidence)
    }
}
