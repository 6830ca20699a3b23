import ArgumentParser
import Platform
import Presentation

/// Every option whose value is a number is parsed `.unconditional`: its value may begin with "-",
/// so `--speed -5` is refused by the option's own rule, as `--speed=-5` is, rather than as a
/// missing value (OptionParsingTests finds every such option and checks it).
@main
struct Hrvmon: ParsableCommand {
    static let version = Program.version

    static let configuration = CommandConfiguration(
        commandName: "hrvmon",
        abstract: "Heart-rate variability and stress monitor for Bluetooth heart-rate straps.",
        version: version,
        subcommands: [
            Analyze.self, Scan.self, Monitor.self, Check.self, Demo.self, Simulate.self, Breathe.self, Resonance.self, BaselineCommand.self,
            Config.self, Stress.self,
            Sessions.self, History.self, Note.self, CheckInCommand.self, Label.self, DASS21Command.self, Remind.self, Export.self, Delete.self, Report.self, Doctor.self, StudyCommand.self,
        ]
    )

    /// Usage errors and bad input both exit with status 2, the Unix convention scripts test for
    /// (ArgumentParser's own default is 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                FileStream.printError(fullMessage(for: error))
                exit(withError: ExitCode(2))
            }
            exit(withError: error)
        }
    }
}
