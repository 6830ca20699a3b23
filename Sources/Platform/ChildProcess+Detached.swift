import Glibc

/// Helper programs that run beside hrvmon without being waited for (a sound playing while the
/// event loop goes on), and finding them on `PATH`.
extension ChildProcess {
    /// Starts `path arguments…` with stdin, stdout and stderr on /dev/null; its process id, or nil
    /// when it cannot start. The caller reaps it with `hasExited`.
    public static func start(_ path: String, _ arguments: [String]) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        // The child starts with no signal blocked and every signal at its default: what this
        // process blocks or ignores (a test runner's threads block SIGTERM) must not make the
        // helper deaf to `askToEnd`.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        return posix_spawn(&pid, path, &actions, &attributes, argv, environ) == 0 ? pid : nil
    }

    /// Whether the child has exited; an exited child is reaped.
    public static func hasExited(_ pid: Int32) -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid || (result < 0 && errno == ECHILD)
    }

    /// Asks the child to end (SIGTERM); `hasExited` reaps it once it has.
    public static func askToEnd(_ pid: Int32) {
        kill(pid, SIGTERM)
    }

    /// The first executable file called `name` in the directories of `$PATH`.
    public static func executable(named name: String) -> String? {
        let path = Environment.value("PATH") ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
