import ArgumentParser
import Glibc
import Settings

/// `--config PATH`, shared by the commands that read settings.
struct ConfigOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: "Configuration file (default: $XDG_CONFIG_HOME/hrvmon/config).")
    var path: String?

    /// The settings from the file: defaults when the default file does not exist; exit status 2
    /// when the file is unreadable or invalid.
    func load() throws -> Settings {
        let path = self.path ?? Self.defaultPath
        guard self.path != nil || access(path, F_OK) == 0 else { return Settings() }
        do {
            return try SettingsFile.parse(String(decoding: try InputFile.read(path), as: UTF8.self), source: path)
        } catch {
            throw badInput(error)
        }
    }

    /// `$XDG_CONFIG_HOME/hrvmon/config`, `~/.config/hrvmon/config` when unset.
    static var defaultPath: String { XDGDirectory.config + "/hrvmon/config" }
}
