// swift-tools-version:6.1
import PackageDescription

// Modules by layer; docs/ARCHITECTURE.md draws the graph, and ArchitectureTests checks that it,
// this file and every `import` agree.
let numerics = Target.Dependency.product(name: "RealModule", package: "swift-numerics")
let argumentParser = Target.Dependency.product(name: "ArgumentParser", package: "swift-argument-parser")

let package = Package(
    name: "hrvmon",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hrvmon", targets: ["hrvmon"]),
        .library(name: "HRV", targets: ["HRV"]),
        .library(name: "HeartRateProtocol", targets: ["HeartRateProtocol"]),
        .library(name: "Simulation", targets: ["Simulation"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
    ],
    targets: [
        // MARK: The domain, pure: bytes, RR ticks and an injected clock in, values out.

        // Bytes of the GATT Heart Rate Service (0x2A37, 0x2A38).
        .target(name: "HeartRateProtocol"),
        // Bytes of Polar's Measurement Data service (PMD): control-point requests and replies,
        // ECG and accelerometer frames, sample times.
        .target(name: "PolarMeasurementData"),
        // RR maths: ring buffer, artifact correction, rolling metrics, baselines, stress, breathing.
        .target(name: "HRV", dependencies: [numerics]),
        // Seeded scenario simulator producing RR ticks with ground truth.
        .target(name: "Simulation", dependencies: [numerics]),
        // Reading recorded RR files (text, CSV) into intervals with line provenance.
        .target(name: "Recordings", dependencies: ["HRV"]),
        // The user's configuration file: keys, defaults, validation.
        .target(name: "Settings", dependencies: ["HRV"]),
        // A live session's composition: packets in, beats, metrics and verdicts out; the events a
        // running session reports (link, sensor, notes).
        .target(name: "LivePipeline", dependencies: ["HeartRateProtocol", "HRV", "SelfReport"]),
        // What the wearer reports: check-ins and their tags, answers about stress episodes, the
        // DASS-21 questionnaire and its scores.
        .target(name: "SelfReport"),
        // The session file format, written and read; the resting history's records.
        .target(name: "SessionLog", dependencies: ["HeartRateProtocol", "HRV", "Recordings", "Settings", "SelfReport", "LivePipeline"]),
        // A session in the formats of HRV research tools: Kubios RR text, EDF+, BIDS physio and
        // events, each with every beat as received and as corrected.
        .target(name: "Exports", dependencies: ["HRV", "SessionLog"]),

        // MARK: The operating system's edge.

        // The only module that calls the C library for the operating system (and zlib): files, descriptors,
        // sockets, signals, clocks, the terminal, child processes, environment, XDG paths and the
        // poll(2) event loop, with errors as `Errno` values.
        .target(name: "Platform", dependencies: ["CZlib"]),
        // zlib, for closed session files kept as gzip (module map only; zlib1g is on every Debian).
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdbus-1, the D-Bus client library (module map only).
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // libbluetooth, BlueZ's HCI library: the kernel's adapters for `hrvmon doctor` (module map only).
        .systemLibrary(name: "CBluetooth", pkgConfig: "bluez", providers: [.apt(["libbluetooth-dev"])]),
        // A small typed layer over libdbus: messages, values, signals, fds, driven by Platform's loop.
        .target(name: "DBus", dependencies: ["Platform", "CDBus"]),
        // org.bluez over D-Bus: the object tree, discovery, the heart-rate link and its recovery.
        .target(name: "BlueZ", dependencies: ["Platform", "PolarMeasurementData", "LivePipeline", "DBus"]),
        // The kernel's Bluetooth adapters through libbluetooth's HCI calls, as typed Swift values.
        .target(name: "BluetoothHCI", dependencies: ["Platform", "CBluetooth"]),
        // liblsl, the Lab Streaming Layer's library, loaded at run time when present: stream
        // outlets with their stream info, LSL's clock.
        .target(name: "LabStreamingLayer", dependencies: ["Platform"]),
        // libpq, PostgreSQL's client library (module map only).
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // A study's PostgreSQL through libpq's asynchronous API on Platform's loop: TLS verified
        // against the study's CA, SCRAM-SHA-256 with channel binding, failures told apart.
        .target(name: "StudyDatabase", dependencies: ["Platform", "CPostgres"]),

        // MARK: The product's parts, each a library the commands put together.

        // How numbers, durations, states, session events and tables are written for people, shared
        // by the text output, the dashboard and the HTML report.
        .target(name: "Presentation", dependencies: ["Platform", "HRV", "LivePipeline", "SessionLog", numerics]),
        // The user's data directory: session files, the resting history, the last sensor.
        .target(name: "UserData", dependencies: ["Platform", "HRV", "Settings", "SelfReport", "SessionLog"]),
        // Offline analysis of a recorded RR file, or of session files (replayed through the live
        // pipeline): the summary, the step series, the stress verdicts, sessions and days in review.
        .target(
            name: "Analysis",
            dependencies: ["Platform", "HRV", "Recordings", "Settings", "SelfReport", "LivePipeline", "SessionLog", "Presentation", "UserData"]),
        // A research study: its schema and roles, invites, consent, and sending sessions exactly once.
        .target(name: "Study", dependencies: ["Platform", "SessionLog", "UserData", "Analysis", "StudyDatabase"]),
        // The live terminal dashboard: state, rendering, keys, the breathing pacer bar.
        .target(
            name: "Dashboard", dependencies: ["Platform", "HeartRateProtocol", "HRV", "SelfReport", "LivePipeline", "Presentation"]),
        // The HTML report of one session or of days: pages, SVG charts.
        .target(name: "Report", dependencies: ["Platform", "HRV", "Settings", "SelfReport", "SessionLog", "Presentation", numerics]),
        // `hrvmon doctor`'s checks of the whole chain: kernel, bus, bluetoothd, adapter, rfkill,
        // permissions, directories, the sensor.
        // The desktop session's idle time (GNOME's Mutter, the freedesktop ScreenSaver, logind)
        // over D-Bus: input at the desk as evidence of sitting.
        .target(name: "DesktopIdle", dependencies: ["Platform", "DBus"]),
        .target(name: "Doctor", dependencies: ["Platform", "SessionLog", "Presentation", "DBus", "BlueZ", "BluetoothHCI", "DesktopIdle"]),
        // Running a session: a link or the demo feeding the pipeline, and its outputs (JSON Lines,
        // text, dashboard, session file, notes inbox, desktop notifications, LSL streams).
        .target(
            name: "LiveSession",
            dependencies: [
                "Platform", "HeartRateProtocol", "PolarMeasurementData", "HRV", "Simulation", "Settings", "SelfReport", "LivePipeline",
                "SessionLog", "Presentation", "UserData", "DBus", "BlueZ", "LabStreamingLayer", "Dashboard", "DesktopIdle",
            ]),
        // What must hold for any input to a parser of outside data: scripts/fuzz.sh fuzzes it, the
        // test suite replays the corpora in Fuzz/corpus through it.
        .target(name: "FuzzChecks", dependencies: ["HeartRateProtocol", "PolarMeasurementData", "HRV", "Recordings", "Settings", "SessionLog", "Exports"]),

        // MARK: The commands: each parses its arguments and hands over to the libraries.

        .executableTarget(
            name: "hrvmon",
            dependencies: [
                "Platform", "HRV", "Simulation", "Recordings", "Settings", "SelfReport", "SessionLog", "Exports",
                "Presentation", "UserData", "Analysis", "DBus", "BlueZ", "BluetoothHCI", "LabStreamingLayer", "Dashboard", "Report", "Doctor",
                "LiveSession", "Study", argumentParser, numerics,
            ]),

        // MARK: Tests: one target per module, sharing TestSupport.

        // The fixtures (bundle resources), running the built binary, the fake bluetoothd and
        // notification daemon on a private bus, a real terminal, headless Chromium, the demo
        // replayed, a pylsl inlet.
        .target(
            name: "TestSupport",
            dependencies: ["HRV", "Simulation", "Recordings", "Settings", "LivePipeline", "SessionLog", "Dashboard", "LiveSession"],
            path: "Tests/TestSupport",
            resources: [
                .copy("Fixtures"), .copy("FakeBlueZ"), .copy("FakeDesktop"), .copy("ReferenceReaders"), .copy("LSLInlet"), .copy("PrivatePostgres"),
            ]),
        .testTarget(name: "HeartRateProtocolTests", dependencies: ["HeartRateProtocol", "Simulation"]),
        .testTarget(name: "PolarMeasurementDataTests", dependencies: ["PolarMeasurementData"]),
        .testTarget(name: "HRVTests", dependencies: ["HRV", "Simulation", "TestSupport"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "RecordingsTests", dependencies: ["HRV", "Simulation", "Recordings"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "TestSupport"]),
        .testTarget(name: "LivePipelineTests", dependencies: ["HRV", "LivePipeline", "TestSupport"]),
        .testTarget(name: "SelfReportTests", dependencies: ["SelfReport"]),
        .testTarget(name: "SessionLogTests", dependencies: ["HeartRateProtocol", "HRV", "Recordings", "SelfReport", "LivePipeline", "SessionLog"]),
        .testTarget(
            name: "ExportsTests",
            dependencies: ["HeartRateProtocol", "HRV", "Settings", "LivePipeline", "SessionLog", "Exports", "TestSupport"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "DBusTests", dependencies: ["CDBus", "DBus"]),
        .testTarget(name: "DesktopIdleTests", dependencies: ["DBus", "DesktopIdle"]),
        .testTarget(name: "BlueZTests", dependencies: ["DBus", "BlueZ"]),
        .testTarget(name: "BluetoothHCITests", dependencies: ["Platform", "BluetoothHCI"]),
        .testTarget(name: "LabStreamingLayerTests", dependencies: ["Platform", "LabStreamingLayer", "TestSupport"]),
        .testTarget(name: "StudyDatabaseTests", dependencies: ["Platform", "StudyDatabase", "TestSupport"]),
        .testTarget(name: "StudyTests", dependencies: ["Study"]),
        .testTarget(name: "PresentationTests", dependencies: ["HRV", "Presentation"]),
        .testTarget(name: "UserDataTests", dependencies: ["Platform", "HRV", "SessionLog", "UserData"]),
        .testTarget(
            name: "AnalysisTests", dependencies: ["Platform", "HRV", "Recordings", "SessionLog", "SelfReport", "Analysis", "TestSupport"]),
        .testTarget(name: "DashboardTests", dependencies: ["Platform", "HRV", "SelfReport", "LivePipeline", "Dashboard", "Simulation", "TestSupport"]),
        .testTarget(name: "ReportTests", dependencies: ["Platform", "SelfReport", "SessionLog", "Report", "TestSupport"]),
        .testTarget(name: "DoctorTests", dependencies: ["Platform", "DBus", "BlueZ", "BluetoothHCI", "Doctor"]),
        .testTarget(
            name: "LiveSessionTests",
            dependencies: ["HeartRateProtocol", "HRV", "PolarMeasurementData", "Simulation", "Settings", "LivePipeline", "SessionLog", "LiveSession", "TestSupport"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzChecks", "TestSupport"]),
        // The commands end to end: the built binary run as a user runs it, against the fakes. It
        // depends on the executable so that `swift build --build-tests` builds it.
        .testTarget(name: "hrvmonTests", dependencies: ["Simulation", "SessionLog", "LiveSession", "hrvmon", "TestSupport"]),
        // The module graph: Package.swift, docs/ARCHITECTURE.md and the sources' imports agree.
        .testTarget(name: "ArchitectureTests", dependencies: ["TestSupport"]),
    ]
)
