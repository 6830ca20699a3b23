import ArgumentParser
import LabStreamingLayer
import Platform

/// `--lsl`: the session on the Lab Streaming Layer too.
struct LSLOptions: ParsableArguments {
    @Flag(help: "Publish the beats (an RR stream) and the session's markers on the Lab Streaming Layer (needs liblsl; see docs/research.md).")
    var lsl = false

    /// liblsl when `--lsl` asks for it; nil without `--lsl`. Without a loadable liblsl: what to
    /// install on stderr, exit status 1 — the machine lacks a library, as `monitor` without a bus.
    func library() throws(ExitCode) -> LSLLibrary? {
        guard lsl else { return nil }
        switch LSLLibrary.load() {
        case .success(let library):
            return library
        case .failure(let notFound):
            FileStream.printError("hrvmon: \(notFound)")
            throw ExitCode(1)
        }
    }
}
