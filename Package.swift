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
        .target(name: "SessionLog", dependencies: ["HRV", "HeartRateProtocol", "Recordings"]),
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
        .target(name: "BlueZ", dependencies: ["DBus", "Platform"]),
        // Composition of a live session: packets in, beats, metrics and verdicts out. No I/O.
        .target(name: "LivePipeline", dependencies: ["HRV", "HeartRateProtocol"]),
        // What must hold for any input to a parser of outside data: scripts/fuzz.sh fuzzes it, the
        // test suite replays the corpora in Fuzz/corpus through it.
        .target(name: "FuzzChecks", dependencies: ["HRV", "HeartRateProtocol", "Recordings", "SessionLog", "Settings"]),
        .executableTarget(
            name: "hrvmon",
            dependencies: [
                "HRV", "HeartRateProtocol", "Simulation", "Recordings", "Settings", "SessionLog", "DBus", "BlueZ", "LivePipeline", "BluetoothHCI", "Platform",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "RealModule", package: "swift-numerics"),
            ]
        ),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "HeartRateProtocolTests", dependencies: ["HeartRateProtocol", "Simulation"]),
        .testTarget(
            name: "HRVTests", dependencies: ["HRV", "Recordings", "Simulation"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "RecordingsTests", dependencies: ["Recordings", "HRV", "Simulation"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "SettingsTests", dependencies: ["Settings", "HRV"]),
        .testTarget(name: "SessionLogTests", dependencies: ["SessionLog", "HRV"]),
        .testTarget(name: "CLITests", dependencies: ["hrvmon", "BluetoothHCI", "Platform"]),
        .testTarget(name: "MonitorTests", dependencies: ["hrvmon", "Simulation", "Platform"]),
        .testTarget(name: "FuzzCorpusTests", dependencies: ["FuzzChecks"]),
        .testTarget(name: "DBusTests", dependencies: ["DBus", "BlueZ", "LivePipeline", "HRV", "HeartRateProtocol"]),
    ]
)
