import ArgumentParser
import LiveSession
import Platform

/// The session (or its recorder) `make` starts, or the command's exit: a session file that must be
/// kept but cannot be made (`log.on_error = stop`) exits 1, a configuration that cannot run exits 2.
func startingSession<Started>(_ make: () throws -> Started) throws(ExitCode) -> Started {
    do {
        return try make()
    } catch let failure as SessionFileRequired {
        FileStream.printError("hrvmon: \(failure)")
        throw ExitCode(1)
    } catch {
        throw badInput(error)
    }
}
