import FuzzChecks

/// The check this fuzzer runs: the one its executable is named after (scripts/fuzz.sh links this
/// file once, under each FuzzCheck's target name).
let check: FuzzCheck = {
    let name = String(CommandLine.arguments[0].split(separator: "/").last ?? "")
    guard let check = FuzzCheck(rawValue: name) else {
        fatalError("name this fuzzer after one of \(FuzzCheck.allCases.map(\.target)), not '\(name)'")
    }
    return check
}()

/// libFuzzer's entry point: the check on every input; a violation stops the fuzzer like a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if case .violated(let how) = check.run(UnsafeBufferPointer(start: data, count: size)) { fatalError(how) }
    return 0
}
