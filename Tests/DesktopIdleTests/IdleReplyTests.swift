import DBus
import Testing

@testable import DesktopIdle

/// Each source's reply read as its interface documents it (mutter's IdleMonitor XML, KDE's
/// ScreenSaver XML, org.freedesktop.login1(5)); a reply of another shape is not that source.
/// Reaching the sources over a bus, in their order: hrvmonTests' DeskInputTests.
@Suite struct IdleReplyTests {
    static let now = 1_800_000_000.0

    static func read(_ values: [DBusValue], _ query: DeskIdleReader.Query) -> Double?? {
        try? DeskIdleReader.idleSeconds(in: values, for: query, now: now).get()
    }

    /// Not taken for this source's reply.
    static func refused(_ values: [DBusValue], _ query: DeskIdleReader.Query) -> Bool {
        if case .failure = DeskIdleReader.idleSeconds(in: values, for: query, now: now) { true } else { false }
    }

    @Test func mutterAnswersMilliseconds() {
        #expect(Self.read([.uint64(4_500)], .mutter) == 4.5)
        #expect(Self.refused([.uint32(4_500)], .mutter), "GetIdletime is t")
        #expect(Self.refused([], .mutter))
    }

    @Test func theScreenSaverAnswersSeconds() {
        #expect(Self.read([.uint32(42)], .screenSaver(path: "/ScreenSaver")) == 42)
        #expect(Self.refused([.uint64(42)], .screenSaver(path: "/ScreenSaver")), "GetSessionIdleTime is u")
    }

    static func logind(idle: Bool = false, since: UInt64) -> [DBusValue] {
        [.properties(["IdleHint": .boolean(idle), "IdleSinceHint": .uint64(since), "IdleSinceHintMonotonic": .uint64(12)])]
    }

    @Test func logindAnswersSinceWhen() {
        let session = DeskIdleReader.Query.logind(session: "/org/freedesktop/login1/session/_31")
        #expect(Self.read(Self.logind(since: UInt64((Self.now - 30) * 1_000_000)), session) == 30)
        #expect(Self.read(Self.logind(idle: true, since: UInt64((Self.now - 600) * 1_000_000)), session) == 600)
        // Never idle nor busy: it answers, without a time.
        #expect(!Self.refused(Self.logind(since: 0), session))
        #expect(Self.read(Self.logind(since: 0), session) == .some(nil))
        // A clock that went back says no less than nothing.
        #expect(Self.read(Self.logind(since: UInt64((Self.now + 5) * 1_000_000)), session) == 0)
        #expect(Self.refused([.properties(["IdleHint": .boolean(false)])], session))
        #expect(Self.refused([.properties(["IdleHint": .boolean(false), "IdleSinceHint": .int64(1)])], session))
    }

    @Test func theSourcesAreNamedAsTheDocumentsSay() {
        #expect(DeskIdleSource.allCases.map(\.rawValue) == ["mutter", "screensaver", "logind"])
    }
}
