import Foundation
import Platform
import Testing

@Suite struct UnixDatagramTests {
    @Test func datagramsArriveWholeInOrderAndTruncatedAtTheLimit() throws {
        let path = NSTemporaryDirectory() + "dgram-\(UUID().uuidString.prefix(8))"
        let listener = try UnixDatagram.bind(path).get()
        defer {
            Descriptor.close(listener)
            _ = FileSystem.remove(path)
        }
        #expect(UnixDatagram.receive(listener, limit: 16) == nil, "nothing waits yet; the socket does not block")
        #expect(UnixDatagram.send(Array("first".utf8), to: path) == nil)
        #expect(UnixDatagram.send([], to: path) == nil)
        #expect(UnixDatagram.send(Array("a longer second note".utf8), to: path) == nil)
        #expect(UnixDatagram.receive(listener, limit: 16) == Array("first".utf8))
        #expect(UnixDatagram.receive(listener, limit: 16) == [])
        #expect(UnixDatagram.receive(listener, limit: 8) == Array("a longer".utf8))
        #expect(UnixDatagram.receive(listener, limit: 16) == nil)
    }

    @Test func aSecondListenerAndAnAbsentOneAreTold() throws {
        let path = NSTemporaryDirectory() + "dgram-\(UUID().uuidString.prefix(8))"
        #expect(UnixDatagram.send([1], to: path) == .noSuchFile)
        let listener = try UnixDatagram.bind(path).get()
        #expect(UnixDatagram.bind(path) == .failure(.addressInUse))
        Descriptor.close(listener)
        #expect(UnixDatagram.send([1], to: path) == .connectionRefused, "a socket file nobody listens on")
        _ = FileSystem.remove(path)
    }
}
