import Analysis
import ArgumentParser
import Platform
import Presentation
import SelfReport
import SessionLog
import Settings
import UserData

struct Stress: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The stress detector and your answers: what another threshold would have flagged.",
        subcommands: [StressTune.self])
}

struct StressTune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Show what another stress.onset_margin_sd would have done to the episodes you answered about; set it only when told.",
        discussion: """
            Once \(StressTuning.minimumAnswered) stress episodes are answered yes or no (`hrvmon label`, the \
            dashboard's s, the notification's buttons), every session with an answer is replayed through the \
            live pipeline with its own settings and stress.onset_margin_sd at each value: confirmed episodes \
            kept, denied ones dropped, not-sure ones apart, and episodes the recorded session did not flag. \
            Nothing changes unless you say so: --apply VALUE, or yes to the question on a terminal. The value \
            is then a line of the configuration file, shown by `hrvmon config` and taken back by \
            `hrvmon config --reset \(StressTuning.key)`.
            """)

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Set \(StressTuning.key) to VALUE in the configuration file, after showing what it would have done.", valueName: "value"))
    var apply: Double?

    @OptionGroup var config: ConfigOptions

    func run() throws {
        let settings = try config.load()
        let current = settings.stress.onsetMargin
        let tuning = StressTuning(sessions: try labelledSessions())
        let answers = tuning.answers
        print("Your answers: \(answers[.yes] ?? 0) confirmed, \(answers[.no] ?? 0) denied, \(answers[.unsure] ?? 0) not sure, in \(Formatting.count(tuning.sessions.count, "session")).")
        if let shortfall = tuning.shortfall {
            print(shortfall)
            if apply != nil { throw badInput(ValidationError("--apply needs \(StressTuning.minimumAnswered) answered episodes to show what the value would do; nothing changed")) }
            return
        }
        if let apply { try checkApplicable(apply, settings: settings) }
        let values = apply.map { Array(Set([current, $0])).sorted() }
            ?? StressTuning.values(current: current, lowest: settings.stress.releaseMargin)
        let outcomes = try values.map { value in
            do { return try tuning.outcome(onsetMargin: value) } catch { throw badInput(error) }
        }
        print("Replayed through the detector with \(StressTuning.key) at each value (yours: \(SettingDefinition.format(current))):\n")
        print(StressTuning.table(outcomes, current: current), terminator: "")
        if let apply, let outcome = outcomes.first(where: { $0.value == apply }) {
            try write(outcome, replacing: current)
        } else if let suggestion = StressTuning.suggestion(outcomes, current: current) {
            let value = SettingDefinition.format(suggestion.value)
            print("\n\(value) makes the most right calls: \(suggestion.confirmedKept) of \(suggestion.confirmed) confirmed kept, \(suggestion.deniedDropped) of \(suggestion.denied) denied dropped.")
            if Terminal.isTerminal(.input) {
                print("Set \(StressTuning.key) to \(value)? [y/N] ", terminator: "")
                if let answer = readLine(), answer.lowercased().hasPrefix("y") { try write(suggestion, replacing: current) } else { print("unchanged") }
            } else {
                print("To use it: hrvmon stress tune --apply \(value)")
            }
        } else {
            print("\nNo value makes more right calls than yours (\(SettingDefinition.format(current))): nothing to change.")
        }
    }

    /// Every session file with an answer about one of its episodes, read for replaying. Reads
    /// every file's overview: the session index can answer this at merge.
    private func labelledSessions() throws -> [StressTuning.Session] {
        try SessionStore.all().compactMap { path in
            guard let overview = try? SessionFileReader.read(path: path, detail: .overview), !overview.labels.isEmpty else { return nil }
            do {
                return try StressTuning.Session(file: try SessionFileReader.read(path: path, detail: .beats), source: path)
            } catch {
                throw badInput(error)
            }
        }
    }

    /// A value the configuration file can take: in the key's range and not below the release margin.
    private func checkApplicable(_ value: Double, settings: Settings) throws {
        let definition = SettingDefinition.all.first { $0.key == StressTuning.key }!
        guard case .number(let range, _) = definition.kind, range.contains(value), value >= settings.stress.releaseMargin else {
            throw badInput(ValidationError(
                "--apply \(SettingDefinition.format(value)): \(StressTuning.key) takes \(definition.allowed), not below stress.release_margin_sd (\(SettingDefinition.format(settings.stress.releaseMargin)))"))
        }
    }

    /// Sets the value in the configuration file with a note of what it did and how to undo it.
    private func write(_ outcome: StressTuning.Outcome, replacing current: Double) throws {
        let path = config.resolvedPath, value = SettingDefinition.format(outcome.value)
        let note = [
            "set by `hrvmon stress tune` on \(WallClock.day(WallClock.now())), was \(SettingDefinition.format(current)):",
            "\(outcome.confirmedKept) of \(outcome.confirmed) confirmed episodes kept, \(outcome.deniedDropped) of \(outcome.denied) denied dropped.",
            "Undo: hrvmon config --reset \(StressTuning.key)",
        ]
        let changed = SettingsFile.setting(StressTuning.key, to: value, in: try config.text(), note: note)
        do { _ = try SettingsFile.parse(changed, source: path) } catch { throw badInput(error) }
        try config.write(changed)
        print("\(StressTuning.key) = \(value) in \(path) (was \(SettingDefinition.format(current))); undo: hrvmon config --reset \(StressTuning.key)")
    }
}
