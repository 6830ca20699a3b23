import Analysis
import LiveSession
import Platform
import UserData

extension SessionRecorder {
    /// Adds the session just kept (its file closed with its summary) to the session index, so
    /// that the next `sessions` need not read it.
    func addToIndex() {
        guard !failed, path.hasPrefix(SessionStore.directory + "/"),
            // Compressed as it closed, unless that failed: the form a listing will find.
            let kept = SessionStore.forms(of: path).first(where: FileSystem.isRegularFile)
        else { return }
        SessionIndex.user.add(kept)
    }
}
