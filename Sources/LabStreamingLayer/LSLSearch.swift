import Platform

/// Where `--lsl` looks for liblsl, in order: `$HRVMON_LIBLSL` alone when it is set; otherwise
/// pylsl's own order (pylsl 1.18's `find_liblsl_libraries`) for each pylsl installed with pip —
/// `$PYLSL_LIB`, the liblsl in the package's `lib` directory, the dynamic linker's search, the
/// environment's `lib` directory — found by their usual directories rather than by running
/// python, so no interpreter starts with a session.
public struct LSLSearch: Sendable {
    /// A library to open: a path, or a name for the dynamic linker; `label` names it in messages.
    public struct Candidate: Equatable, Sendable {
        public var name: String
        public var label: String
    }

    public var candidates: [Candidate] = []
    /// Places looked in that held nothing (wildcard patterns, unset variables' files).
    public var emptyPlaces: [String] = []

    /// pylsl's names for the library in its package, in its order.
    static let packageNames: [String] = ["", "lib"].flatMap { prefix in
        ["", "-debug"].flatMap { debug in ["", "64"].map { bitness in prefix + "lsl" + bitness + debug + ".so" } }
    }

    /// pylsl's names in an environment's `lib` directory, in its order.
    static let environmentNames: [String] = ["", "lib"].flatMap { prefix in ["", "-debug"].map { prefix + "lsl" + $0 + ".so" } }

    /// - Parameters:
    ///   - environment: the process's environment variables.
    ///   - matching: the paths a wildcard pattern names (`FileSystem.matching`).
    ///   - isFile: whether a path names a regular file (after symbolic links), as Python's
    ///     `os.path.isfile`, with which pylsl takes `$PYLSL_LIB` literally: no wildcards.
    public init(
        environment: (String) -> String? = Environment.value, matching: (String) -> [String] = FileSystem.matching,
        isFile: (String) -> Bool = FileSystem.isRegularFile
    ) {
        if let path = environment(LSLLibrary.pathVariable) {
            candidates = [Candidate(name: path, label: "\(LSLLibrary.pathVariable)=\(path)")]
            return
        }
        if let path = environment("PYLSL_LIB") {
            if isFile(path) {
                candidates.append(Candidate(name: path, label: "PYLSL_LIB=\(path)"))
            } else {
                emptyPlaces.append("PYLSL_LIB=\(path) (no such file)")
            }
        }
        for directory in Self.sitePackages(environment) {
            let pattern = directory + "/pylsl/lib/"
            let found = Self.packageNames.flatMap { matching(pattern + $0) }
            if found.isEmpty { emptyPlaces.append(pattern + "liblsl.so") }
            candidates += found.map { Candidate(name: $0, label: "\($0) (pylsl)") }
        }
        candidates += LSLLibrary.names.map { Candidate(name: $0, label: $0) }
        for prefix in ["VIRTUAL_ENV", "CONDA_PREFIX"].compactMap(environment) {
            candidates += Self.environmentNames.flatMap { matching(prefix + "/lib/" + $0) }.map { Candidate(name: $0, label: $0) }
        }
    }

    /// Where pip installs pylsl: the active virtual environment's (or conda's) site-packages, the
    /// user's (`pip install --user`, under `$PYTHONUSERBASE` or ~/.local), then the system's.
    static func sitePackages(_ environment: (String) -> String?) -> [String] {
        let environments = ["VIRTUAL_ENV", "CONDA_PREFIX"].compactMap(environment).map { $0 + "/lib/python3*/site-packages" }
        let userBase = environment("PYTHONUSERBASE") ?? environment("HOME").map { $0 + "/.local" }
        return environments + (userBase.map { [$0 + "/lib/python3*/site-packages"] } ?? []) + [
            "/usr/local/lib/python3*/dist-packages", "/usr/local/lib/python3*/site-packages",
            "/usr/lib/python3/dist-packages", "/usr/lib/python3*/site-packages", "/usr/lib64/python3*/site-packages",
        ]
    }
}
