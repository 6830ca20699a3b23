// swift-tools-version:6.1
import PackageDescription

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
        // The only module that calls the C library for the operating system: files, descriptors,
        // signals, clocks, the terminal, child processes, XDG paths and the poll(2) event loop,
        // with errors as `Errno` values.
        .target(name: "Platform"),
        // Bytes of the GATT Heart Rate Service; no I/O, no clocks.
        .target(name: "HeartRateProtocol"),
        // RR maths: ring buffer, artifact correction, rolling metrics. No I/O.
        .target(name: "HRV", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // Seeded scenario simulator producing RR ticks with ground truth.
        .target(name: "Simulation", dependencies: [.product(name: "RealModule", package: "swift-numerics")]),
        // Reading recorded RR files (text, CSV) into intervals with line provenance.
        .target(name: "Recordings", dependencies: ["HRV"]),
        // What is kept on disk for the user: resting history and session files (reading them back).
        .target(name: "SessionLog", dependencies: ["HRV", "HeartRateProtocol", "Recordings", "LivePipeline", "Settings"]),
        // The user's configuration file: keys, defaults, validation.
        .target(name: "Settings", dependencies: ["HRV"]),
        // libdbus-1, the D-Bus client library (module map only).
        .systemLibrary(
            name: "CDBus", pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // libbluetooth, BlueZ's HCI library: the kernel's adapters for `hrvmon doctor` (module map only).
        .systemLibrary(
            name: "CBluetooth", pkgConfig: "bluez",
            providers: [.apt(["libbluetooth-dev"])]
        ),
        // The kernel's Bluetooth adapters through libbluetooth's HCI calls, as typed Swift values.
        // Its own module, so the C headers' socket declarations stay out of the command's module.
        .target(name: "BluetoothHCI", dependencies: ["CBluetooth", "Platform"]),
        // A small typed layer over libdbus: messages, values, signals, fds, driven by Platform's event loop.
        .target(name: "DBus", dependencies: ["CDBus", "Platform"]),
        // org.bluez over D-Bus: the object tree, discovery, connection, notifications, reconnection.
        .target(name: "BlueZ", dependencies: ["DBus", "LivePipeline", "Platform"]),
        // Composition of a live session: packets in, beats, metrics and verdicts out; the events a
        // running session reports (link, sensor, notes). No I/O.
        .target(name: "LivePipeline", dependencies: ["HRV", "HeartRateProtocol"]),
        // How numbers, durations, states, session events and tables are written for people, shared
        // by the text output, the dashboard and the HTML report.
        .target(name: "Presentation", dependencies: ["HRV", "LivePipeline", "SessionLog", "Platform"]),
        // The user's data directory: session files, the resting history, the last sensor.
        .target(name: "UserData", dependencies: ["HRV", "SessionLog", "Settings", "Platform"]),
        // Offline analysis of a recorded RR file or session file (replayed through the live
        // pipeline): the summary, the step series, the stress verdicts.
        .target(name: "Analysis", dependencies: ["HRV", "LivePipeline", "Recordings", "Settings", "SessionLog", "Presentation", "Platform"]),
        // The live terminal dashboard: state, rendering, keys, the breathing pacer bar.
        .target(name: "Dashboard", dependencies: ["HRV", "HeartRateProtocol", "LivePipeline", "SessionLog", "Settings", "Presentation", "Platform"]),
        // The HTML report of one session or of days: pages, SVG charts, the session replayed.
        .target(name: "Report", dependencies: ["HRV", "LivePipeline", "SessionLog", "Settings", "Presentation", "UserData", "Platform", .product(name: "RealModule", package: "swift-numerics")]),
        // `hrvmon doctor`'s checks of the whole chain: kernel, bus, bluetoothd, adapter, rfkill,
        // permissions, directories, the sensor.
        .target(name: "Doctor", dependencies: ["BluetoothHCI", "DBus", "BlueZ", "Settings", "UserData", "Platform"]),
        // Running a session: the link or a simulated strap feeding the pipeline, and the outputs
        // (JSON lines, text, dashboard, session file, notes inbox, desktop notifications).
        .target(name: "LiveSession", dependencies: ["HRV", "HeartRateProtocol", "LivePipeline", "Simulation", "SessionLog", "Settings", "UserData", "Dashboard", "Presentation", "DBus", "BlueZ", "Platform"]),
        // What must hold for any input to a parser of outside data: scripts/fuzz.sh fuzzes it, the
        // test suite replays the corpora in Fuzz/corpus through it.
        .target(name: "FuzzChecks", dependencies: ["HRV", "HeartRateProtocol", "Recordings", "SessionLog", "Settings"]),
        // The commands: each parses its arguments and hands over to the libraries.
        .executableTarget(
            name: "hrvmon",
            dependencies: [
                "HRV", "HeartRateProtocol", "Simulation", "Recordings", "Settings", "SessionLog", "DBus", "BlueZ", "LivePipeline",
                "BluetoothHCI", "Platform", "Presentation", "UserData", "Analysis", "Dashboard", "Report", "Doctor", "LiveSession",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        // What the test targets share: the fixtures (resources), running the built binary, the fake
        // bluetoothd and notification daemon on a private bus, a real terminal, headless Chromium.
        .target(
            name: "TestSupport", dependencies: ["HRV", "Recordings", "LivePipeline", "SessionLog", "Settings", "Simulation", "Dashboard", "LiveSession"], path: "Tests/TestSupport",
            resources: [.copy("Fixtures"), .copy("FakeBlueZ"), .copy("FakeNotifications")]
        ),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "HeartRateProtocolTests", dependencies: ["HeartRateProtocol", "Simulation"]),
        .testTarget(name: "HRVTests", dependencies: ["HRV", "Recordings", "Simulation", "TestSupport"]),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "HRV", "Simulation"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "HRV", "TestSupport"]),
        .testTarget(name: "SessionLogTests", dependencies: ["SessionLog", "HRV", "LivePipeline", "Settings"]),
        .testTarget(name: "LivePipelineTests", dependencies: ["LivePipeline", "HRV", "HeartRateProtocol", "TestSupport"]),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation", "HRV", "LivePipeline"]),
        .testTarget(name: "UserDataTests", dependencies: ["UserData", "HRV", "SessionLog", "Settings", "Platform"]),
        .testTarget(name: "AnalysisTests", dependencies: ["Analysis", "HRV", "Recordings", "Settings", "SessionLog", "TestSupport"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "CDBus", "Platform"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "LivePipeline", "Platform"]),
        .testTarget(name: "BluetoothHCITests", dependencies: ["BluetoothHCI", "Platform"]),
        .testTarget(name: "DashboardTests", dependencies: ["Dashboard", "LiveSession", "HRV", "LivePipeline", "Settings", "Simulation", "Platform", "TestSupport"]),
        .testTarget(name: "ReportTests", dependencies: ["Report", "HRV", "SessionLog", "Settings", "Presentation", "TestSupport"]),
        .testTarget(name: "DoctorTests", dependencies: ["Doctor", "BlueZ", "BluetoothHCI", "DBus", "Platform"]),
        .testTarget(name: "LiveSessionTests", dependencies: ["LiveSession", "HeartRateProtocol", "Simulation", "Platform", "TestSupport"]),
        // The commands end to end: the built binary run as a user runs it, against the fakes.
        .testTarget(name: "hrvmonTests", dependencies: ["hrvmon", "TestSupport", "Simulation"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzChecks", "TestSupport"]),
    ]
)
