import ArgumentParser
import LiveSession
import Platform

/// The session `make` starts, or the command's exit: a session file that must be kept but cannot
/// be made (`log.on_error = stop`) exits 1, a configuration that cannot run exits 2.
func startingSession(_ make: () throws -> LiveSessionHost) throws(ExitCode) -> LiveSessionHost {
    do {
        return try make()
    } catch let failure as SessionFileRequired {
        FileStream.printError("hrvmon: \(failure)")
        throw ExitCode(1)
    } catch {
        throw badInput(error)
    }
}
