import Platform

/// liblsl, the Lab Streaming Layer's C library (github.com/sccn/liblsl), loaded at run time: hrvmon
/// builds and runs without it, and only `--lsl` looks for it. The functions hrvmon calls are
/// declared here as the C types of liblsl's lsl_c.h (liblsl 1.14 or newer).
public final class LSLLibrary {
    /// A path to liblsl that is tried alone, before any other place (`LSLSearch`).
    public static let pathVariable = "HRVMON_LIBLSL"
    /// The names the dynamic linker is asked for: the ABI's soname (the sccn .deb installs it), then
    /// the development link.
    public static let names = ["liblsl.so.2", "liblsl.so"]

    /// No usable liblsl: each library tried and why it failed, the places that held none, and
    /// what to install.
    public struct NotFound: Error, CustomStringConvertible {
        public var attempts: [(name: String, failure: SharedLibrary.Failure)]
        public var emptyPlaces: [String] = []

        public var description: String {
            let looked = emptyPlaces.isEmpty ? "" : "\nNo pylsl with its liblsl in:\n" + emptyPlaces.map { "  \($0)" }.joined(separator: "\n")
            return """
                --lsl needs liblsl, the Lab Streaming Layer library (1.14 or newer), and none could be loaded:
                \(attempts.map { "  \($0.name): \($0.failure)" }.joined(separator: "\n"))\(looked)
                Get it either way:
                  - with pylsl, whose wheel carries liblsl, in a venv active when hrvmon starts, or for your user:
                    `python3 -m pip install --user pylsl` (Debian 12's pip also wants --break-system-packages for
                    that); hrvmon finds it there. A pylsl elsewhere: set PYLSL_LIB (as pylsl
                    reads it) or \(LSLLibrary.pathVariable) to its liblsl.so, e.g.
                      export \(LSLLibrary.pathVariable)="$(python3 -c 'import os, pylsl; print(os.path.dirname(pylsl.__file__))')/lib/liblsl.so"
                  - or the .deb for your distribution from https://github.com/sccn/liblsl/releases
                    (`sudo apt install ./liblsl-*.deb`), which installs liblsl.so.2 where the dynamic linker finds it
                """
        }
    }

    typealias StreamInfo = OpaquePointer
    typealias XMLElement = OpaquePointer
    typealias Outlet = OpaquePointer
    typealias Text = UnsafePointer<CChar>

    let libraryVersion: @convention(c) () -> Int32
    let localClock: @convention(c) () -> Double
    let lastError: @convention(c) () -> Text?
    let createStreamInfo: @convention(c) (Text?, Text?, Int32, Double, Int32, Text?) -> StreamInfo?
    let destroyStreamInfo: @convention(c) (StreamInfo?) -> Void
    let streamDescription: @convention(c) (StreamInfo?) -> XMLElement?
    let appendChild: @convention(c) (XMLElement?, Text?) -> XMLElement?
    let appendChildValue: @convention(c) (XMLElement?, Text?, Text?) -> XMLElement?
    let createOutlet: @convention(c) (StreamInfo?, Int32, Int32) -> Outlet?
    let destroyOutlet: @convention(c) (Outlet?) -> Void
    let pushFloat: @convention(c) (Outlet?, UnsafePointer<Float>?, Double, Int32) -> Int32
    let pushStrings: @convention(c) (Outlet?, UnsafePointer<Text?>?, Double, Int32) -> Int32
    let waitForConsumers: @convention(c) (Outlet?, Double) -> Int32
    let haveConsumers: @convention(c) (Outlet?) -> Int32
    let setConfigContent: @convention(c) (Text?) -> Void

    /// Where liblsl was loaded from.
    public let name: String

    private init(_ library: SharedLibrary) throws(SharedLibrary.Failure) {
        name = library.name
        libraryVersion = try library.function("lsl_library_version").get()
        localClock = try library.function("lsl_local_clock").get()
        lastError = try library.function("lsl_last_error").get()
        createStreamInfo = try library.function("lsl_create_streaminfo").get()
        destroyStreamInfo = try library.function("lsl_destroy_streaminfo").get()
        streamDescription = try library.function("lsl_get_desc").get()
        appendChild = try library.function("lsl_append_child").get()
        appendChildValue = try library.function("lsl_append_child_value").get()
        createOutlet = try library.function("lsl_create_outlet").get()
        destroyOutlet = try library.function("lsl_destroy_outlet").get()
        pushFloat = try library.function("lsl_push_sample_ftp").get()
        pushStrings = try library.function("lsl_push_sample_strtp").get()
        waitForConsumers = try library.function("lsl_wait_for_consumers").get()
        haveConsumers = try library.function("lsl_have_consumers").get()
        setConfigContent = try library.function("lsl_set_config_content").get()
    }

    /// liblsl from the first of `search`'s candidates that loads; quiet unless the user
    /// configured it (`quietUnlessConfigured`).
    public static func load(_ search: LSLSearch = LSLSearch()) -> Result<LSLLibrary, NotFound> {
        var attempts: [(String, SharedLibrary.Failure)] = []
        for candidate in search.candidates {
            do {
                let library = try LSLLibrary(SharedLibrary.open(candidate.name).get())
                library.quietUnlessConfigured()
                return .success(library)
            } catch {
                attempts.append((candidate.label, error))
            }
        }
        return .failure(NotFound(attempts: attempts, emptyPlaces: search.emptyPlaces))
    }

    /// liblsl from `path` (as `$HRVMON_LIBLSL` gives it) and nowhere else.
    public static func load(path: String) -> Result<LSLLibrary, NotFound> {
        load(LSLSearch(environment: { $0 == pathVariable ? path : nil }))
    }

    /// liblsl's version as major × 100 + minor (1.16 is 116).
    public var version: Int { Int(libraryVersion()) }

    /// LSL's clock, the one its timestamps are on: seconds of the monotonic clock (CLOCK_MONOTONIC
    /// on Linux), the same on every process of the machine.
    public var now: Double { localClock() }

    /// Where liblsl reads its configuration (lsl_api.cfg), in its order: the first readable one.
    public static var configurationFiles: [String] {
        [Environment.value("LSLAPICFG"), "lsl_api.cfg", Environment.value("HOME").map { $0 + "/lsl_api/lsl_api.cfg" }, "/etc/lsl_api/lsl_api.cfg"]
            .compactMap { $0 }
    }

    /// liblsl logs at INFO level on stderr unless its configuration says otherwise, which would
    /// write over the dashboard: without a configuration file of the user's, it is told to log only
    /// what is fatal (with liblsl's defaults otherwise). A user's file is read as it is.
    func quietUnlessConfigured() {
        guard !Self.configurationFiles.contains(where: { FileSystem.isAllowed($0, .read) }) else { return }
        configure("[log]\nlevel = -3\n")
    }

    /// Configures liblsl with the text of an lsl_api.cfg instead of its files; it reads its
    /// configuration once, when first used (the first outlet).
    public func configure(_ content: String) {
        setConfigContent(content)
    }

    /// liblsl's explanation of its last failure.
    var lastFailure: String { lastError().map { String(cString: $0) } ?? "no reason given" }
}
