import Glibc

/// Runs a helper program and collects what it prints.
public enum ChildProcess {
    /// Standard output of `path arguments…` (stdin and stderr on /dev/null), or nil when it cannot
    /// start, fails, or is still running after `timeout` seconds (then it is killed).
    public static func output(of path: String, _ arguments: [String], timeout: Double) -> String? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        defer { close(ends[0]) }
        // Only the child's standard output (a dup2 of the write end) stays open across exec.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else { return nil }

        var output: [UInt8] = []
        let deadline = EventLoop.now() + timeout
        var chunk = [UInt8](repeating: 0, count: 4096)
        reading: while true {
            let remaining = deadline - EventLoop.now()
            guard remaining > 0 else { break }
            var entry = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32((remaining * 1000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            switch count {
            case 0: break reading
            case ..<0: if errno != EINTR { break reading }
            default: output.append(contentsOf: chunk[0..<count])
            }
        }
        // Whatever it did, it is not left behind: a child that is slow to exit is killed.
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if EventLoop.now() >= deadline { kill(pid, SIGKILL) }
            usleep(10_000)
        }
        let exitedCleanly = status & 0x7f == 0 && (status >> 8) & 0xff == 0
        return exitedCleanly ? String(decoding: output, as: UTF8.self) : nil
    }
}
