import SessionLog

/// A session as BIDS physiological recording and events (bids-specification, "Physiological
/// recordings" and "Task events"), in the `beh` datatype of `sub-<subject>/ses-<session>/`:
///
/// - `*_physio.tsv.gz`, no header: `rr_ms`, `nn_ms`, `nn_class` at 4 Hz (`Tachogram`), `n/a`
///   where no interval is (gaps);
/// - `*_physio.json`: `SamplingFrequency`, `StartTime` (0: the events' time zero), `Columns`,
///   each column's description and units;
/// - `*_events.tsv`: every received beat (`rr`) and every corrected beat (`nn`) exactly, and the
///   gaps, notes, stress and activity episodes, exercises and suggestions; `*_events.json`
///   describes its columns;
/// - with an ECG recorded (`--ecg`), `*_recording-ecg_physio.tsv.gz` and `.json`: its own
///   recording, one column `cardiac` in µV at 130 Hz (`ECGGrid`), `StartTime` its first sample's
///   grid point in seconds after time zero, `n/a` where no sample is;
/// - `sub-*_ses-*_scans.tsv`: the local start date and time of time zero (`acq_time`);
/// - and at the dataset's root, `dataset_description.json` (`datasetDescription`).
public enum BIDSPhysio {
    public struct File: Sendable {
        /// Relative to the dataset's root.
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            (self.path, self.bytes) = (path, bytes)
        }
    }

    /// Labels are letters and digits only (BIDS); `isLabel` tells whether one is.
    public static func isLabel(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// The session's label: its id without the characters a label cannot have (`20261121-174531` → `20261121174531`).
    public static func sessionLabel(_ id: String) -> String {
        let label = String(id.unicodeScalars.filter { isLabel(String($0)) }.map(Character.init))
        return label.isEmpty ? "1" : label
    }

    public static func files(_ timeline: ExportTimeline, subject: String, task: String) -> [File] {
        let session = sessionLabel(timeline.header.id)
        let directory = "sub-\(subject)/ses-\(session)/"
        let stem = "sub-\(subject)_ses-\(session)_task-\(task)"
        let physio = "beh/\(stem)_physio.tsv.gz"
        var files = [
            File(path: directory + physio, bytes: StoredGzip.encode(Array(physioTable(timeline).utf8))),
            File(path: directory + "beh/\(stem)_physio.json", bytes: Array(physioSidecar(timeline).utf8)),
            File(path: directory + "beh/\(stem)_events.tsv", bytes: Array(eventsTable(timeline).utf8)),
            File(path: directory + "beh/\(stem)_events.json", bytes: Array(eventsSidecar().utf8)),
        ]
        var scans = "filename\tacq_time\n\(physio)\t\(timeline.localZero.iso)\n"
        if let ecg = ECGGrid(timeline) {
            let recording = "beh/\(stem)_recording-ecg_physio"
            files.append(File(path: directory + recording + ".tsv.gz", bytes: StoredGzip.encode(Array(ecgTable(ecg).utf8))))
            files.append(File(path: directory + recording + ".json", bytes: Array(ecgSidecar(ecg, timeline).utf8)))
            scans += "\(recording).tsv.gz\t\(timeline.localZero.iso)\n"
        }
        files.append(File(path: directory + "sub-\(subject)_ses-\(session)_scans.tsv", bytes: Array(scans.utf8)))
        return files
    }

    static func ecgTable(_ ecg: ECGGrid) -> String {
        var text = ""
        text.reserveCapacity(ecg.values.count * 5)
        for value in ecg.values { text += (value.map { String($0) } ?? "n/a") + "\n" }
        return text
    }

    /// `StartTime`: seconds from time zero (the events' and the other recording's) to the first row.
    static func ecgSidecar(_ ecg: ECGGrid, _ timeline: ExportTimeline) -> String {
        var json = JSONObject()
        json.add("SamplingFrequency", ECGGrid.rate)
        json.addRaw("StartTime", ExportNumber.text(Double(ecg.first) / Double(ECGGrid.rate)))
        json.addStrings("Columns", ["cardiac"])
        json.add("cardiac", column(
            "The strap's single-lead chest ECG as it sent it, each row the sample nearest its time on the \(ECGGrid.rate) Hz grid; n/a where none was recorded",
            units: "uV"))
        json.add("ManufacturersModelName", timeline.header.deviceName)
        json.add("SoftwareVersions", timeline.header.program)
        return json.serialized + "\n"
    }

    /// The BIDS version these files follow.
    public static let bidsVersion = "1.10.0"

    /// The dataset's `dataset_description.json`, at its root: what makes a directory a BIDS
    /// dataset. `version`: the exporting hrvmon's; `name`: the dataset's (a study's, for `study pull`).
    public static func datasetDescription(version: String, name: String = "hrvmon sessions") -> File {
        var generator = JSONObject()
        generator.add("Name", "hrvmon")
        generator.add("Version", version)
        generator.add("Description", "hrvmon export --format bids: RR intervals from a Bluetooth heart-rate strap, as received and as corrected")
        var json = JSONObject()
        json.add("Name", name)
        json.add("BIDSVersion", bidsVersion)
        json.add("DatasetType", "raw")
        json.add("GeneratedBy", [generator])
        return File(path: "dataset_description.json", bytes: Array((json.serialized + "\n").utf8))
    }

    static func physioTable(_ timeline: ExportTimeline) -> String {
        let raw = Tachogram.raw(timeline)
        let corrected = Tachogram.corrected(timeline)
        var text = ""
        text.reserveCapacity(raw.count * 24)
        for (received, placed) in zip(raw, corrected) {
            text += received.map { timeline.raw[$0].interval.exactMilliseconds } ?? "n/a"
            text += "\t"
            text += placed.map { ExportNumber.milliseconds(timeline.corrected[$0].beat.milliseconds) + "\t" + String(timeline.corrected[$0].classCode) } ?? "n/a\tn/a"
            text += "\n"
        }
        return text
    }

    static func physioSidecar(_ timeline: ExportTimeline) -> String {
        var json = JSONObject()
        json.add("SamplingFrequency", Tachogram.rate)
        json.add("StartTime", 0)
        json.addStrings("Columns", ["rr_ms", "nn_ms", "nn_class"])
        json.add("rr_ms", column(
            "The RR interval the sample lies in, as the sensor sent it (1/1024 s, exact in ms); held from the beat that starts it to the beat that ends it; n/a in a gap",
            units: "ms"))
        json.add("nn_ms", column("The interval of hrvmon's artifact-corrected timeline the sample lies in, held likewise", units: "ms"))
        var levels = JSONObject()
        for (code, name) in ExportTimeline.classNames.enumerated() { levels.add(String(code), name) }
        var classes = column("How hrvmon's artifact correction produced the nn_ms interval", units: nil)
        classes.add("Levels", levels)
        json.add("nn_class", classes)
        json.add("ManufacturersModelName", timeline.header.deviceName)
        json.add("SoftwareVersions", timeline.header.program)
        return json.serialized + "\n"
    }

    private static func column(_ description: String, units: String?) -> JSONObject {
        var object = JSONObject()
        object.add("Description", description)
        if let units { object.add("Units", units) }
        return object
    }

    static let eventColumns = [
        "onset", "duration", "trial_type", "seq", "rr_1024", "rr_ms", "hr_bpm", "contact", "received_unix", "nn_ms", "class",
        "after_gap", "text",
    ]

    static func eventsTable(_ timeline: ExportTimeline) -> String {
        var rows: [(onset: Double, order: Int, cells: [String])] = []
        func row(_ onset: Double, _ order: Int, _ fields: [String: String]) {
            rows.append((onset, order, eventColumns.map { fields[$0] ?? "n/a" }))
        }
        for beat in timeline.raw {
            row(beat.onset, 0, [
                "onset": ExportNumber.text(beat.onset), "duration": "0", "trial_type": "rr", "seq": String(beat.beat.sequence),
                "rr_1024": String(beat.beat.ticks), "rr_ms": beat.interval.exactMilliseconds, "hr_bpm": String(beat.beat.heartRate),
                "contact": beat.beat.contact, "received_unix": ExportNumber.text(beat.beat.time), "after_gap": beat.followsGap ? "1" : "0",
            ])
        }
        for beat in timeline.corrected {
            row(beat.onset, 1, [
                "onset": ExportNumber.text(beat.onset), "duration": "0", "trial_type": "nn", "nn_ms": ExportNumber.milliseconds(beat.beat.milliseconds),
                "class": beat.beat.kind, "after_gap": beat.beat.followsGap ? "1" : "0",
            ])
        }
        for event in timeline.events {
            let text = String(event.text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
            row(event.onset, 2, [
                "onset": ExportNumber.text(event.onset), "duration": ExportNumber.text(event.duration), "trial_type": event.kind.rawValue,
                "text": text.isEmpty ? "n/a" : text,
            ])
        }
        rows.sort { ($0.onset, $0.order) < ($1.onset, $1.order) }
        return ([eventColumns] + rows.map(\.cells)).map { $0.joined(separator: "\t") + "\n" }.joined()
    }

    static let kindDescriptions = [
        "gap": "the link was lost: no beat arrived over the span",
        "note": "the user's note",
        "stress": "a stress episode hrvmon detected",
        "activity": "a span hrvmon judged physical activity, not stress",
        "exercise": "a breathing exercise, from start to stop",
        "suggestion": "hrvmon suggested a breathing exercise",
    ]

    static func eventsSidecar() -> String {
        let descriptions: [(String, String, String?)] = [
            ("trial_type", "rr: a beat as received; nn: a beat of the corrected timeline; the others: what happened over the span", nil),
            ("seq", "rr: the beat's number in the session (1, 2, …)", nil),
            ("rr_1024", "rr: the interval as the sensor sent it, in its unit of 1/1024 s", nil),
            ("rr_ms", "rr: the same interval in milliseconds, exact", "ms"),
            ("hr_bpm", "rr: the heart rate field of the notification that carried the beat", "bpm"),
            ("contact", "rr: the sensor's skin contact flag: detected, not_detected or unsupported", nil),
            ("received_unix", "rr: when the notification arrived, back-dated by the intervals after this one in it (Unix time)", "s"),
            ("nn_ms", "nn: the corrected interval", "ms"),
            ("class", "nn: normal, or the correction that produced the interval", nil),
            ("after_gap", "1: no successive difference is formed with the beat before (a gap precedes it)", nil),
            ("text", "the note's text; the exercise's pattern; the suggestion's pattern and reason; the episode's peak level", nil),
        ]
        var json = JSONObject()
        for (name, description, units) in descriptions {
            var object = column(description, units: units)
            if name == "trial_type" {
                var levels = JSONObject()
                levels.add("rr", "a beat as received")
                levels.add("nn", "a beat of hrvmon's corrected timeline")
                for kind in ExportTimeline.Event.Kind.allCases { levels.add(kind.rawValue, kindDescriptions[kind.rawValue]!) }
                object.add("Levels", levels)
            } else if name == "class" {
                var levels = JSONObject()
                for name in ExportTimeline.classNames { levels.add(name, name) }
                object.add("Levels", levels)
            }
            json.add(name, object)
        }
        return json.serialized + "\n"
    }
}
