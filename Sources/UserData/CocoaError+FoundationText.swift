import FoundationEssentials
import Platform

/// How Foundation's NSError put a file error in words, which hrvmon's messages quoted before it
/// stopped linking Foundation (FoundationEssentials words the same errors otherwise).
extension CocoaError {
    /// `localizedDescription`.
    var foundationLocalizedDescription: String {
        "The operation could not be completed. " + (foundationFailureReason ?? "(NSCocoaErrorDomain error \(code.rawValue).)")
    }

    /// `"\(error)"`. Foundation listed the user info in no fixed order; this is one of its orders.
    var foundationDescription: String {
        let order = ["NSUnderlyingError", "NSFilePath", "NSURL"]
        let keys = order.filter { userInfo[$0] != nil } + userInfo.keys.filter { !order.contains($0) }.sorted()
        let entries = keys.map { key in
            let value = userInfo[key]!
            guard let posix = value as? POSIXError else { return "\(key)=\(value)" }
            let code = posix.code.rawValue
            return "\(key)=Error Domain=NSPOSIXErrorDomain Code=\(code) \"\(Errno(code: code).description)\""
        }
        return "Error Domain=NSCocoaErrorDomain Code=\(code.rawValue) \"\(foundationFailureReason ?? "(null)")\""
            + (entries.isEmpty ? "" : "UserInfo={\(entries.joined(separator: ", "))}")
    }

    private var foundationFailureReason: String? {
        switch code.rawValue {
        case 4, 260: "The file doesn’t exist."
        case 255: "The file couldn’t be locked."
        case 257, 513: "You don’t have permission."
        case 258, 514: "The file name is invalid."
        case 259: "The file isn’t in the correct format."
        case 261, 517: "The specified text encoding isn’t applicable."
        case 262, 518: "The specified URL type isn’t supported."
        case 263: "The item is too large."
        case 264: "The text encoding of the contents couldn’t be determined."
        case 516: "A file with the same name already exists."
        case 640: "There isn’t enough space."
        case 642: "The volume is read only."
        default: nil
        }
    }
}
