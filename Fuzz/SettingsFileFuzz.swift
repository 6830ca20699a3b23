import Settings

/// Any bytes as a configuration file: settings within their documented ranges, or an error
/// naming the line, never a trap.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSettingsFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let settings = try? SettingsFile.parse(text, source: "fuzz") else { return 0 }
    for definition in SettingDefinition.all {
        if case .number(let range, let path) = definition.kind {
            precondition(range.contains(settings[keyPath: path]), "\(definition.key) out of range")
        }
    }
    return 0
}
