import Platform
import SessionLog

extension SessionFile {
    /// Says on stderr that the file's last line was cut short, if it was; `doing` says what
    /// happens with the lines before it ("replaying").
    func reportTornLine(of path: String, _ doing: String) {
        guard let tornLine else { return }
        FileStream.printError("hrvmon: \(path):\(tornLine): the last line was cut short (the session ended abruptly); \(doing) the lines before it")
    }
}
