// swift-tools-version: 6.1
//
// Caffe — localized order confirmations, receipts and watch complications,
// rendered by ZeroMQ workers on Linux.

import PackageDescription

let package = Package(
    name: "caffe",
    products: [
        .library(name: "ZeroMQ", targets: ["ZeroMQ"]),
        .library(name: "CaffeProtocol", targets: ["CaffeProtocol"]),
        .library(name: "CaffeTransport", targets: ["CaffeTransport"]),
        .library(name: "CaffeClient", targets: ["CaffeClient"]),
        .library(name: "Localization", targets: ["Localization"]),
        .library(name: "RichText", targets: ["RichText"]),
        .library(name: "GrammarAgreement", targets: ["GrammarAgreement"]),
        .library(name: "CaffeCore", targets: ["CaffeCore"]),
        .library(name: "CaffeWorker", targets: ["CaffeWorker"]),
        .executable(name: "caffe", targets: ["caffe"]),
        .executable(name: "caffe-sim", targets: ["caffe-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // MARK: ZeroMQ

        .systemLibrary(
            name: "CZeroMQ",
            pkgConfig: "libzmq",
            providers: [.apt(["libzmq3-dev"])]
        ),
        .target(
            name: "ZeroMQ",
            dependencies: ["CZeroMQ"]
        ),
        .target(
            name: "ZeroMQTestKit",
            dependencies: ["ZeroMQ"]
        ),
        // Counts heap allocations per thread by standing in for malloc (tests only).
        .target(name: "CMallocCounter"),
        // Bytes in use on the C heap (glibc's mallinfo2), for caches bounded in bytes.
        .target(name: "CHeapUsage"),
        // Harness code for running, feeding and probing workers (the process launcher, the worker's
        // command line, HTTP probes, order sources, the replay server): the tests and the
        // simulator link it, `caffe` does not.
        .target(
            name: "WorkerTestKit",
            dependencies: [
                "CaffeClient", "CaffeProtocol", "CaffeTransport", "ZeroMQ",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(name: "CaffeTestKit", dependencies: ["CMallocCounter", "WorkerTestKit"]),

        // MARK: Wire protocol

        .target(
            name: "CaffeProtocol",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf")
            ],
            exclude: ["Proto"]
        ),
        // The protocol over ZeroMQ: libzmq's messages as its frames.
        .target(
            name: "CaffeTransport",
            dependencies: ["CaffeProtocol", "ZeroMQ"]
        ),
        // A Swift client of workers: publishing a source's orders with replay, consuming outputs,
        // calling the RPC methods.
        .target(
            name: "CaffeClient",
            dependencies: [
                "CaffeProtocol", "CaffeTransport", "ZeroMQ",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: Localization

        .target(
            name: "Localization",
            // The toolchain's ICU 76 (symbols prefixed `swift_`), the same ICU Foundation uses.
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),

        // MARK: Rich text

        .target(name: "RichText"),

        // MARK: Grammar agreement

        .target(
            name: "GrammarAgreement",
            dependencies: ["Localization", "RichText"],
            // Lexicons/<language>.tsv, each with a README naming its sources and license.
            resources: [.copy("Lexicons")]
        ),

        // MARK: Formatting core

        .target(
            name: "CaffeCore",
            dependencies: [
                "CHeapUsage",
                "CaffeProtocol",
                "Localization",
                "RichText",
                "GrammarAgreement",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),

        // MARK: Worker

        // The worker's books and decisions, no I/O: intake, gap recovery, deliveries, the
        // checkpoint ledger, fair queues, where to render.
        .target(
            name: "CaffeBooks",
            dependencies: ["CaffeProtocol"]
        ),
        .target(
            name: "CaffeWorker",
            dependencies: [
                "CaffeBooks",
                "CHeapUsage",
                "CaffeCore",
                "CaffeProtocol",
                "CaffeTransport",
                "Localization",
                "RichText",
                "ZeroMQ",
                // Only for the few Linux calls Glibc does not export (naming threads).
                "CZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        // MARK: Executables

        .executableTarget(
            name: "caffe",
            dependencies: [
                "CaffeBooks",
                "CaffeClient",
                "CaffeCore",
                "CaffeWorker",
                "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                "CaffeProtocol",
                "CaffeTransport",
                "Localization",
                "RichText",
                "GrammarAgreement",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),

        // MARK: Simulator

        .target(
            name: "CTransportBaseline",
            path: "Simulator/Sources/CTransportBaseline",
            linkerSettings: [.linkedLibrary("zmq")]
        ),
        .target(
            name: "CICUFloor",
            path: "Simulator/Sources/CICUFloor",
            // The toolchain's ICU 76, the library the core formats with.
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        .target(
            name: "CaffeSimulator",
            dependencies: [
                "ZeroMQ", "CaffeProtocol", "CaffeTransport", "Localization", "RichText", "GrammarAgreement",
                "CaffeCore",
                "CaffeBooks", "CaffeClient",
                "WorkerTestKit", "CTransportBaseline", "CICUFloor",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Simulator/Sources/CaffeSimulator"
        ),
        .executableTarget(
            name: "caffe-sim",
            dependencies: [
                "CaffeSimulator",
                "CaffeClient",
                "WorkerTestKit",
                "CaffeCore",
                "CaffeProtocol",
                "CaffeTransport",
                "ZeroMQ",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Simulator/Sources/caffe-sim"
        ),

        // MARK: Tests

        .testTarget(
            name: "ZeroMQTests",
            dependencies: ["ZeroMQ", "ZeroMQTestKit"]
        ),
        // Fully populated protocol messages for the protocol's and the transport's tests.
        .target(
            name: "CaffeProtocolFixtures",
            dependencies: ["CaffeProtocol", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
            path: "Tests/Support/CaffeProtocolFixtures"
        ),
        .testTarget(
            name: "CaffeProtocolTests",
            dependencies: [
                "CaffeProtocol",
                "CaffeProtocolFixtures",
                "CaffeTestKit",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "CaffeTransportTests",
            dependencies: [
                "CaffeProtocol",
                "CaffeProtocolFixtures",
                "CaffeTransport",
                "ZeroMQ",
                "ZeroMQTestKit",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "LocalizationTests",
            dependencies: ["Localization", "CaffeTestKit"]
        ),
        .testTarget(
            name: "RichTextTests",
            dependencies: ["RichText", "CaffeTestKit"],
            exclude: ["Fixtures/README.md", "Fixtures/extract_commonmark.py"],
            resources: [.copy("Fixtures/commonmark-spec.json"), .copy("Fixtures/commonmark-inline.json")]
        ),
        .testTarget(
            name: "GrammarAgreementTests",
            dependencies: ["GrammarAgreement", "Localization", "RichText", "CaffeTestKit"],
            resources: [.copy("Evaluation")]
        ),
        .testTarget(
            name: "CaffeCoreTests",
            dependencies: [
                "CaffeCore",
                "CaffeProtocol",
                "CaffeTestKit",
                "Localization",
                "RichText",
                "GrammarAgreement",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            exclude: ["Goldens"]
        ),
        .testTarget(
            name: "CaffeBooksTests",
            dependencies: ["CaffeBooks", "CaffeProtocol"]
        ),
        .testTarget(
            name: "CaffeClientTests",
            dependencies: [
                "CaffeClient", "CaffeWorker", "CaffeCore", "CaffeProtocol", "CaffeTestKit", "WorkerTestKit", "ZeroMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "CaffeWorkerTests",
            dependencies: [
                "CaffeBooks",
                "CaffeClient",
                "CaffeWorker",
                "WorkerTestKit",
                "CaffeSimulator",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                "CaffeCore",
                "CaffeProtocol",
                "CaffeTestKit",
                "CaffeTransport",
                "ZeroMQ",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        .testTarget(
            name: "CaffeSimulatorTests",
            dependencies: [
                "CaffeSimulator", "CaffeClient", "CaffeCore", "CaffeTestKit", "WorkerTestKit", "CaffeProtocol",
                "CaffeTransport",
                "ZeroMQ",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
            ],
            path: "Simulator/Tests/CaffeSimulatorTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Settings shared by every Swift target.
for target in package.targets
where target.type != .system && !["CTransportBaseline", "CICUFloor", "CMallocCounter"].contains(target.name) {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
