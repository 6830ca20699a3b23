import ArgumentParser
import Platform
import Settings

struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show every setting, its value, what it allows and what it does.",
        discussion: """
            Settings live in \(ConfigOptions.defaultPath) (or --config PATH): one `key = value` per \
            line, # comments. With --template, prints a complete commented file of the current \
            values to start from. A value that is not the default shows the default beside it; \
            --reset KEY removes the key's lines from the file (and the note `hrvmon stress tune` wrote \
            above them), so it takes its default again.
            """)

    @OptionGroup var config: ConfigOptions

    @Flag(help: "Print a configuration file with every key, commented.")
    var template = false

    @Option(help: ArgumentHelp("Remove KEY from the configuration file: back to its default.", valueName: "key"))
    var reset: String?

    func validate() throws {
        if let reset, !SettingDefinition.all.contains(where: { $0.key == reset }) {
            throw ValidationError("unknown key '\(reset)'; known keys: \(SettingDefinition.all.map(\.key).joined(separator: ", "))")
        }
    }

    func run() throws {
        let settings = try config.load()
        if let reset { return try resetKey(reset) }
        let defaults = Settings()
        var output = FileStream.standardOutput
        for definition in SettingDefinition.all {
            if template {
                output.write("# \(definition.help)\n# Allowed: \(definition.allowed).\n")
                if case .list = definition.kind {
                    output.write("# \(definition.key) = Walk for five minutes, away from the screen.\n\n")
                } else {
                    output.write("\(definition.key) = \(definition.value(in: settings))\n\n")
                }
            } else {
                let value = definition.value(in: settings), standard = definition.value(in: defaults)
                output.write("\(definition.key) = \(value)\(value == standard ? "" : " (default \(standard))")\n    \(definition.help)\n    allowed: \(definition.allowed)\n")
            }
        }
        output.flush()
    }

    /// Removes `key`'s lines from the file, which is rewritten whole or not at all.
    private func resetKey(_ key: String) throws {
        let path = config.resolvedPath
        let standard = SettingDefinition.all.first { $0.key == key }!.value(in: Settings())
        guard let changed = SettingsFile.resetting(key, in: try config.text()) else {
            print("\(key) is not set in \(path): it has its default, \(standard)")
            return
        }
        try config.write(changed)
        print("\(key) = \(standard) again (its default): its lines are gone from \(path)")
    }
}
