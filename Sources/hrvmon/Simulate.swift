import ArgumentParser
import HRV
import Platform
import SessionLog
import Simulation

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Generate a realistic RR recording for a scenario, with its ground truth.",
        discussion: """
            SCENARIO is a preset (\(Scenario.presets.keys.sorted().joined(separator: ", "))) or a \
            list of segments: kind:duration[:hr=BPM][:rmssd=MS][:br=BREATHS_PER_MIN], with kinds \
            \(SegmentKind.allCases.map(\.rawValue).joined(separator: ", ")), and optional \
            ectopic=N/min, ectopic-at=TIME (repeatable), missed=N, extra=N, and a subject resonance for paced breathing segments, resonance=BREATHS_PER_MIN or flat with resonance-q=Q (docs/science.md). Example: rest:10m,stress:5m:hr=85,breathing:3m:br=6,ectopic=0.5/min

            The same scenario and seed always give the same beats. Intervals are whole strap ticks \
            (1/1024 s), written in milliseconds exactly (781.25), so analyze reads them back unchanged.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// One RR in ms per line, the Kubios / Elite HRV import format.
        case rr
        case csv
        case jsonl
    }

    @Option(help: "Preset name or segment list.")
    var scenario = "demo"

    @Option(parsing: .unconditional, help: "Random seed.")
    var seed: UInt64 = 1

    @Option(help: "Output: rr (ms per line), csv or jsonl.")
    var format: Format = .rr

    @Option(help: "Also write the ground truth (segment spans, artifact beats) as JSON to this file.")
    var truth: String?

    func run() throws {
        let parsed: Scenario
        do {
            parsed = try Scenario(presetOrSpec: scenario)
        } catch {
            throw badInput(error)
        }
        let (beats, groundTruth) = Simulator(scenario: parsed, seed: seed).run()
        if let truth {
            var file = try OutputFile.create(truth)
            file.write(Self.truthJSON(groundTruth, beats: beats, scenario: scenario, seed: seed).serialized + "\n")
            file.close()
        }
        var output = FileStream.standardOutput
        switch format {
        case .rr:
            output.write("# hrvmon simulate --scenario \(scenario) --seed \(seed)\n")
        case .csv:
            output.write("t_s,rr_1024,rr_ms,segment,label\n")
        case .jsonl:
            break
        }
        for beat in beats {
            let milliseconds = RRInterval(ticks: beat.rrTicks).exactMilliseconds
            let segment = parsed.segments[beat.segmentIndex].kind.rawValue
            switch format {
            case .rr:
                output.write(milliseconds + "\n")
            case .csv:
                output.write("\(beat.seconds),\(beat.rrTicks),\(milliseconds),\(segment),\(beat.label.rawValue)\n")
            case .jsonl:
                var object = JSONObject()
                object.add("type", "rr")
                object.add("t", beat.seconds)
                object.add("rr_1024", Int(beat.rrTicks))
                object.add("rr_ms", RRInterval(ticks: beat.rrTicks).milliseconds)
                object.add("segment", segment)
                object.add("label", beat.label.rawValue)
                output.write(object.serialized + "\n")
            }
        }
        output.flush()
    }

    /// The spans as commanded, each with what its normal beats realised (hr, rmssd_ms, sdnn_ms).
    static func truthJSON(_ truth: GroundTruth, beats: [SimulatedBeat], scenario: String, seed: UInt64) -> JSONObject {
        let realised = RealisedSegment.measure(beats, truth: truth)
        var object = JSONObject()
        object.add("scenario", scenario)
        object.addRaw("seed", String(seed))  // the full UInt64: Int(seed) traps above Int.max
        object.add("spans", truth.spans.map { span in
            var item = JSONObject()
            item.add("kind", span.kind.rawValue)
            item.add("start_s", span.start)
            item.add("end_s", span.end)
            if let measured = realised.first(where: { $0.start == span.start && $0.end == span.end }) {
                item.add("hr", measured.heartRate)
                item.add("rmssd_ms", measured.rmssd)
                item.add("sdnn_ms", measured.sdnn)
            }
            return item
        })
        var artifacts = JSONObject()
        for label in BeatLabel.allCases where label != .normal {
            artifacts.addIntegers(label.rawValue, truth.artifactBeatIndices[label] ?? [])
        }
        object.add("artifact_beats", artifacts)
        return object
    }
}
