import Analysis
import ArgumentParser
import HRV
import Platform
import Presentation
import Recordings
import SessionLog
import Settings
import UserData

struct Analyze: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Analyse a recorded RR file with the same pipeline as live monitoring.",
        discussion: """
            FILE holds one RR interval per line (milliseconds unless --unit says otherwise; blank \
            lines and # comments ignored), or delimited text (comma, semicolon or tab) whose header \
            names the RR column: rr, rr_ms, rri, rr_interval, IBI, "RR (ms)", "RR-interval [ms]" \
            (Polar Sensor Logger), rr_s or "RR [s]" (seconds), rr_1024 (1/1024 s); HRV Logger's \
            and Polar Sensor Logger's exports read as they are. --column NAME or --column N \
            chooses another column (N counts from 1, also in files without a header). Semicolon \
            and tab files may write decimal commas (812,5). The column used is named in the \
            output. Use - for standard input.

            Zero, negative or non-numeric values are errors (exit status 2, naming the line). \
            Single values outside 100 to 4000 ms (15 to 600 bpm) cannot be one heartbeat: they are kept in the \
            timeline, counted as 'implausible' artifacts and left out of the metrics; with \
            --no-correction every value is used as given.
            """)

    @Argument(help: "RR recording, session (id, unique id prefix or file), or - for standard input.")
    var file: String

    @Option(help: "Output: text, json (one object; JSON Lines with --series) or csv.")
    var format: OutputFormat = .text

    @OptionGroup var input: RecordingOptions

    @Flag(name: .customLong("no-correction"), help: "Analyse the intervals exactly as given, without artifact correction.")
    var noCorrection = false

    @Flag(help: "Print the rolling windows over time instead of the whole-recording summary.")
    var series = false

    @Option(parsing: .unconditional, help: "With --series: seconds between rows (0: a row per beat).")
    var step: Double = 5

    @Option(name: .customLong("rmssd-window"), parsing: .unconditional, help: "Rolling RMSSD window, seconds (default: window.rmssd_seconds, 60).")
    var rmssdWindow: Double?

    @Option(name: .customLong("sdnn-window"), parsing: .unconditional, help: "Rolling SDNN window, seconds (default: window.sdnn_seconds, 300).")
    var sdnnWindow: Double?

    enum BaselineChoice: String, ExpressibleByArgument, CaseIterable {
        /// Personal when there are enough days of data, otherwise the session calibration.
        case auto
        case session
        case personal
    }

    @Option(help: "Resting baseline for stress: auto (personal when there is enough data), session or personal.")
    var baseline: BaselineChoice = .auto

    @Option(name: .customLong("exercise"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "A breathing exercise taken during the recording, START:END in seconds from the first beat (repeatable); its effect is reported.",
        valueName: "start:end"))
    var exercises: [ExerciseSpan] = []

    @OptionGroup var resonanceSteps: ResonanceSteps

    @Option(name: .customLong("resonance-start"), parsing: .unconditional, help: "With --resonance-steps: seconds from the first interval's start to the first step's start (default 0).")
    var resonanceStart: Double?

    @OptionGroup var config: ConfigOptions

    func validate() throws {
        try validateResonance()
        for (name, value) in [("--rmssd-window", rmssdWindow), ("--sdnn-window", sdnnWindow)] {
            guard let value else { continue }
            guard value >= 5, value <= 3600 else { throw ValidationError("\(name) must be 5–3600 seconds") }
        }
        guard step >= 0 else { throw ValidationError("--step must be 0 or more seconds, not \(Formatting.fixed(step, digits: 0))") }
        for span in exercises where span.end <= span.start {
            throw ValidationError(
                "--exercise \(span.text): the end (\(Formatting.fixed(span.end, digits: 0)) s) must come after the start (\(Formatting.fixed(span.start, digits: 0)) s)")
        }
    }

    func run() throws {
        let source: InputFile
        let start: [UInt8]
        do {
            source = try InputFile(opening: file == "-" ? file : SessionStore.find(file))
            start = try source.peek(64)
        } catch {
            throw badInput(error)
        }
        if Self.isSessionFile(start) || Gzip.begins(start) {
            return try replay(source)
        }
        let settings = try config.load()
        var pipeline = HRVPipeline(configuration: pipelineConfiguration(settings.pipeline))
        var analysis = RecordingAnalysis(
            judge: try BeatJudge(
                settings: settings, baseline: try personalBaseline(settings),
                effects: exercises.map { ExerciseEffect(start: $0.start, end: $0.end) }),
            writer: series ? SeriesWriter(format: format, step: step) : nil)
        analysis.resonance = resonanceSteps.schedule(start: resonanceStart ?? 0, defaultRates: nil).map(ResonanceAssessment.init)
        var output = FileStream.standardOutput
        // The file streams through in pieces: memory stays the same whatever its size.
        var reader = RRStreamReader(source: source.path, unit: input.unit, column: input.column)
        var progress = ProgressLine("reading \(source.path)", total: source.size)
        let layout: (layout: RRRecording.Layout, unit: RRUnit)
        do {
            layout = try analysis.run(reading: source, with: &reader, through: &pipeline, output: &output) { progress.update($0) }
            progress.finish()
        } catch {
            progress.finish()
            output.flush()
            throw badInput(error)
        }
        if !series {
            let summary = AnalysisSummary(source: source.path, layout: layout.layout, unit: layout.unit, pipeline: pipeline, analysis: analysis)
            output.write(rendered(summary, resonance: analysis.resonance))
        }
        output.flush()
    }
}

extension Analyze {
    /// Session files are JSON Lines (or, closed, gzip: `Gzip.begins`); RR files never start with `{`.
    static func isSessionFile(_ bytes: [UInt8]) -> Bool {
        bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") } == UInt8(ascii: "{")
    }

    /// The pipeline settings with this command's overrides.
    func pipelineConfiguration(_ configured: HRVPipeline.Configuration) -> HRVPipeline.Configuration {
        var configuration = configured
        if let rmssdWindow { configuration.rmssdWindow = rmssdWindow }
        if let sdnnWindow { configuration.sdnnWindow = sdnnWindow }
        if noCorrection { configuration.correction = nil }
        return configuration
    }

    /// A session file through the live pipeline again, with the settings and baseline it ran
    /// with (options given here override them); the file SESSION named is `input`'s path, for messages.
    func replay(_ input: InputFile) throws {
        if series { throw badInput(ValidationError("--series reads RR files; a session file holds its series as metrics lines (`hrvmon export --format csv`)")) }
        if !exercises.isEmpty { throw badInput(ValidationError("--exercise is for RR files; a session file records its exercises")) }
        let path = input.path
        let session: SessionFile
        do { session = try SessionFileReader.read(input: input, source: path) } catch { throw badInput(error) }
        session.reportTornLine(of: path, "replaying")
        var settings = config.path == nil ? try badInputOnFailure { try SessionReplay.settings(of: session, source: path) } : try config.load()
        settings.pipeline = pipelineConfiguration(settings.pipeline)
        let baseline: Baseline? = switch self.baseline {
        case .auto: session.header.baseline
        case .session: nil
        case .personal: try personalBaseline(settings)
        }
        var measures = RecordingVariability()
        var resonance = resonanceAssessment(of: session)
        let replayed = try badInputOnFailure {
            try SessionReplay.replay(session, settings: settings, baseline: baseline) { event in
                if case .placed(let beat) = event {
                    measures.add(beat)
                    resonance?.add(beat)
                }
            }
        }
        let device = session.header.deviceName ?? session.header.deviceAddress ?? "an unknown sensor"
        var summary = AnalysisSummary(
            source: path,
            input: "session \(session.header.id) from \(device), \(Formatting.count(replayed.recording.rawBeats, "RR interval")) in 1/1024 s",
            correction: replayed.configuration.correction, totals: replayed.recording, variability: measures.finish(),
            detections: replayed.detections, judge: replayed.judge)
        summary.motionSeconds = AnalysisSummary.motionSeconds(of: session)
        summary.ecgCheck = ECGCheck(session)
        var output = FileStream.standardOutput
        output.write(rendered(summary, resonance: resonance))
        output.flush()
    }

    /// The personal baseline when chosen and available; nil means calibrate on the session.
    func personalBaseline(_ settings: Settings) throws -> Baseline? {
        guard baseline != .session else { return nil }
        let personal = try badInputOnFailure { try DataDirectory.personalBaseline(settings) }
        if baseline == .personal && personal == nil {
            throw badInput(ValidationError(
                "--baseline personal: not enough resting data yet (see `hrvmon baseline`); use --baseline session"))
        }
        return personal
    }
}

/// `--exercise START:END`.
struct ExerciseSpan: ExpressibleByArgument {
    var start: Double
    var end: Double
    /// As the user wrote it.
    var text: String

    /// Two seconds from the first beat; their order is checked by the command, with its message.
    init?(argument: String) {
        let parts = argument.split(separator: ":").map { Double($0) }
        guard parts.count == 2, let start = parts[0], let end = parts[1], start >= 0, start.isFinite, end.isFinite else { return nil }
        self.start = start
        self.end = end
        text = argument
    }
}

