import ArgumentParser
import Platform

/// Reports bad input (what, where, what to do) on stderr; throw the result to exit with status 2.
func badInput(_ error: some Error) -> ExitCode {
    FileStream.printError("hrvmon: \(error)")
    return ExitCode(2)
}
