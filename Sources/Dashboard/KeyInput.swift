import Platform

/// Keys typed on the terminal (standard input), read when the event loop says they are there and
/// decoded by a `KeyDecoder`: a lone Esc is the Escape key, an arrow key's sequence is no key.
/// Used by the dashboard and by `breathe`; whoever owns the terminal puts it in key mode.
public final class KeyInput {
    private var decoder = KeyDecoder()
    private var source: EventLoop.Source?
    private let pressed: (Key) -> Void
    private let ended: () -> Void

    /// `pressed` for each key; `ended` once, when the terminal goes away (end of file, an error).
    public init(loop: EventLoop, pressed: @escaping (Key) -> Void, ended: @escaping () -> Void) {
        self.pressed = pressed
        self.ended = ended
        source = loop.watch(Terminal.Stream.input.rawValue) { [weak self] _ in self?.read() }
    }

    deinit { cancel() }

    public func cancel() {
        source?.cancel()
        source = nil
    }

    private func read() {
        // poll said readable, so this read returns at once; stdin stays blocking for the shell's sake.
        switch Descriptor.read(Terminal.Stream.input.rawValue, upTo: 256) {
        case .bytes(let bytes):
            for key in decoder.keys(from: bytes) { pressed(key) }
        case .notNow:
            break
        case .endOfFile, .failed:
            cancel()
            ended()
        }
    }
}
