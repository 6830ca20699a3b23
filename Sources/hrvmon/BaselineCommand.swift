import Analysis
import ArgumentParser
import HRV
import Platform
import Presentation
import RealModule
import Recordings
import SessionLog
import UserData

struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Show the personal resting baseline and the data it rests on.",
        discussion: """
            Resting measurements are kept in \(DataDirectory.baselineFile) (one value per day and \
            source). The baseline is the mean of the daily resting ln RMSSD over the last \
            baseline.days days, with its day-to-day spread, once baseline.minimum_days days exist.
            """,
        subcommands: [Show.self, Add.self, Reset.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        // Named by its type (the one command that is): an explicit `commandName` would make
        // `--experimental-dump-help` start to list it as baseline's default subcommand.
        static let configuration = CommandConfiguration(abstract: "Show the baseline (the default).")

        @OptionGroup var config: ConfigOptions

        @Option(help: "Output: text or json.")
        var format: OutputFormat = .text

        func run() throws {
            let loaded = try config.load()
            let settings = loaded.baseline
            let history: BaselineHistory
            do { history = try DataDirectory.loadHistory() } catch { throw badInput(error) }
            let today = DataDirectory.today
            let days = Int(settings.days)
            let daily = history.daily(days: days, today: today)
            let baseline = DataDirectory.personalBaseline(loaded, history: history)
            var output = FileStream.standardOutput
            if format == .json {
                var object = JSONObject()
                object.add("days_with_data", daily.count)
                object.add("window_days", days)
                object.add("minimum_days", Int(settings.minimumDays))
                if let baseline {
                    var values = JSONObject()
                    values.add("resting_hr_bpm", baseline.restingHR)
                    values.add("ln_rmssd_mean", baseline.lnRMSSDMean)
                    values.add("ln_rmssd_sd", baseline.lnRMSSDSD)
                    values.add("rmssd_ms", baseline.restingRMSSD)
                    object.add("baseline", values)
                } else {
                    object.add("baseline", nil as JSONObject?)
                }
                object.add("daily", daily.map { day in
                    var item = JSONObject()
                    item.add("day", day.day)
                    item.add("ln_rmssd", day.lnRMSSD)
                    item.add("resting_hr_bpm", day.restingHR)
                    return item
                })
                output.write(object.serialized + "\n")
            } else {
                output.write("Personal baseline (\(days) days to \(today)): ")
                if let baseline {
                    output.write("resting HR \(Formatting.fixed(baseline.restingHR, digits: 1)) bpm, ln RMSSD \(Formatting.fixed(baseline.lnRMSSDMean, digits: 2)) ± \(Formatting.fixed(baseline.lnRMSSDSD, digits: 2)) (RMSSD \(Formatting.fixed(baseline.restingRMSSD, digits: 0)) ms), from \(Formatting.count(daily.count, "day"))\n")
                } else {
                    output.write("not enough data yet: \(Formatting.count(daily.count, "day")) of the \(Int(settings.minimumDays)) needed; until then each session calibrates on its first minutes at rest\n")
                }
                for day in daily {
                    output.write("  \(day.day)  ln RMSSD \(Formatting.fixed(day.lnRMSSD, digits: 2)) (RMSSD \(Formatting.fixed(Double.exp(day.lnRMSSD), digits: 0)) ms)  resting HR \(Formatting.fixed(day.restingHR, digits: 1)) bpm\n")
                }
            }
            output.flush()
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Record a resting measurement from a recording that starts at rest (e.g. a morning reading).")

        @Argument(help: "RR recording, as for analyze.")
        var file: String

        @Option(help: "Day of the measurement, YYYY-MM-DD (default: today).")
        var day: String?

        @OptionGroup var input: RecordingOptions

        @OptionGroup var config: ConfigOptions

        func run() throws {
            let settings = try config.load()
            let day = self.day ?? DataDirectory.today
            guard CalendarDay(day) != nil else { throw badInput(ValidationError("--day \(day) is not a date YYYY-MM-DD")) }
            let recording: RRRecording
            do {
                recording = try input.read(try InputFile.read(file), source: file)
            } catch {
                throw badInput(error)
            }
            var pipeline = HRVPipeline(configuration: settings.pipeline)
            var analysis = RecordingAnalysis(judge: BeatJudge(detector: StressDetector(configuration: settings.stress)))
            var output = FileStream.standardOutput
            analysis.run(recording.intervals, through: &pipeline, output: &output)
            guard let measured = analysis.judge.detector.baseline else {
                throw badInput(RecordingError(
                    source: file, line: nil,
                    problem: "no resting baseline: it needs \(Int(settings.stress.calibration)) s of good-quality beats at the start",
                    hint: "record at least 3 minutes at rest"))
            }
            do {
                try DataDirectory.updateHistory { $0.record(RestingMeasurement(day: day, measured: measured, source: file)) }
            } catch {
                throw badInput(error)
            }
            print("\(day): ln RMSSD \(Formatting.fixed(measured.lnRMSSDMean, digits: 2)), resting HR \(Formatting.fixed(measured.restingHR, digits: 1)) bpm recorded in \(DataDirectory.baselineFile)")
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Delete every resting measurement.")

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            if !yes, try !confirmDeletion(of: "the baseline", asking: "Delete all resting measurements in \(DataDirectory.baselineFile)?") { return }
            do { try DataDirectory.deleteHistory() } catch { throw badInput(error) }
            print("baseline reset: \(DataDirectory.baselineFile) deleted")
        }
    }
}
