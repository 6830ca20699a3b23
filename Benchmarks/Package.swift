// swift-tools-version:6.1
// Benchmarks for hrvmon, kept as a separate package so `swift build` / `swift test` of the main
// package never resolve or compile package-benchmark.
//
//     cd Benchmarks && swift package --allow-writing-to-package-directory benchmark
import PackageDescription

let package = Package(
    name: "hrvmon-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "hrvmon", path: ".."),
        // MallocInterposer only: counts mallocs without jemalloc (and leaves the RuntimeInterposer
        // trait off).
        .package(url: "https://github.com/ordo-one/package-benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "HRVBenchmarks",
            dependencies: [
                .product(name: "HRV", package: "hrvmon"),
                .product(name: "Simulation", package: "hrvmon"),
                .product(name: "Benchmark", package: "package-benchmark"),
            ],
            path: "Benchmarks/HRVBenchmarks",
            plugins: [
                .plugin(name: "BenchmarkPlugin", package: "package-benchmark"),
            ]
        ),
    ]
)
