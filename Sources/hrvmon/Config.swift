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
            values to start from.
            """)

    @OptionGroup var config: ConfigOptions

    @Flag(help: "Print a configuration file with every key, commented.")
    var template = false

    func run() throws {
        let settings = try config.load()
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
                output.write("\(definition.key) = \(definition.value(in: settings))\n    \(definition.help)\n    allowed: \(definition.allowed)\n")
            }
        }
        output.flush()
    }
}
