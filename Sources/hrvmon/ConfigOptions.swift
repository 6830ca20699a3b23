import ArgumentParser
import Platform
import Settings

/// `--config PATH`, shared by the commands that read settings.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: "Configuration file (default: $XDG_CONFIG_HOME/hrvmon/config).")
    var path: String?

    /// The settings from the file: defaults when the default file does not exist; exit status 2
    /// when the file is unreadable or invalid.
    func load() throws -> Settings {
        do {
            return try read() ?? Settings()
        } catch {
            throw badInput(error)
        }
    }

    /// The file's settings, nil when none was named and the default file does not exist; throws
    /// what is wrong with an unreadable or invalid file.
    func read() throws -> Settings? {
        guard self.path != nil || FileSystem.exists(resolvedPath) else { return nil }
        return try SettingsFile.parse(String(decoding: try InputFile.read(resolvedPath), as: UTF8.self), source: resolvedPath)
    }

    /// The file's text; empty when it does not exist yet.
    func text() throws -> String {
        FileSystem.exists(resolvedPath) ? String(decoding: try badInputOnFailure { try InputFile.read(resolvedPath) }, as: UTF8.self) : ""
    }

    /// Replaces the file with `text`, whole or not at all (its missing directories made, 0700 as
    /// XDG asks).
    func write(_ text: String) throws {
        for (index, character) in resolvedPath.enumerated() where character == "/" && index > 0 {
            _ = FileSystem.makeDirectory(String(resolvedPath.prefix(index)), permissions: 0o700)
        }
        if let failure = AtomicFile.write(Array(text.utf8), to: resolvedPath) {
            FileStream.printError("hrvmon: cannot write \(resolvedPath): \(failure)")
            throw ExitCode(1)
        }
    }

    /// The file named, or the default one.
    var resolvedPath: String { path ?? Self.defaultPath }

    /// `$XDG_CONFIG_HOME/hrvmon/config`, `~/.config/hrvmon/config` when unset.
    static var defaultPath: String { defaultDirectory + "/config" }

    /// `$XDG_CONFIG_HOME/hrvmon`, `~/.config/hrvmon` when unset.
    static var defaultDirectory: String { XDGDirectory.config + "/hrvmon" }
}
