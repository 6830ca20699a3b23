import ArgumentParser
import Platform

/// Reports bad input (what, where, what to do) on stderr; throw the result to exit with status 2.
func badInput(_ error: some Error) -> ExitCode {
    FileStream.printError("hrvmon: \(error)")
    return ExitCode(2)
}

/// `body`'s value; its failure reported as bad input (exit status 2).
func badInputOnFailure<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(ExitCode) -> Value {
    do {
        return try body()
    } catch {
        throw badInput(error)
    }
}

/// `body`'s value; its failure (a file that cannot be read or written) said on stderr and the
/// exit status 1.
func failureOnError<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(ExitCode) -> Value {
    do {
        return try body()
    } catch {
        FileStream.printError("hrvmon: \(error)")
        throw ExitCode(1)
    }
}

/// A session file left out of a listing because it cannot be read: said on stderr, not fatal.
func reportSkipped(_ error: some Error) {
    FileStream.printError("hrvmon: skipping \(error)")
}
