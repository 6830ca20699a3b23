import Analysis
import LiveSession
import UserData

extension LiveSessionHost {
    /// Adds the session just kept (its file closed with its summary) to the session index, so
    /// that the next `sessions` need not read it.
    func addToIndex() {
        guard let recorder, !recorder.failed, recorder.path.hasPrefix(SessionStore.directory + "/") else { return }
        SessionIndex.user.add(recorder.path)
    }
}
