// swift-tools-version: 6.1
//
// Caffe's fuzzers: one libFuzzer executable per parser of untrusted input, built apart from the
// main package so that its build never needs the sanitizer runtimes. Build and run them from the
// repository root with `make fuzz-smoke` (CI) or `make fuzz FUZZ_SECONDS=…` (see CONTRIBUTING.md):
// they must be built with `-sanitize=fuzzer,address`, which provides the libFuzzer driver.

import PackageDescription

/// A library of the main package.
func caffe(_ name: String) -> Target.Dependency { .product(name: name, package: "caffe") }
let protobuf = Target.Dependency.product(name: "SwiftProtobuf", package: "swift-protobuf")

/// Each fuzzer: its executable target and the libraries it reaches.
let fuzzers: [(name: String, dependencies: [Target.Dependency])] = [
    ("fuzz-strings", ["CatalogFuzzing"]),
    ("fuzz-stringsdict", ["CatalogFuzzing"]),
    ("fuzz-xcstrings", ["CatalogFuzzing"]),
    ("fuzz-import", [caffe("Localization")]),
    ("fuzz-markdown", [caffe("RichText")]),
    ("fuzz-json5", [caffe("RichText"), caffe("GrammarAgreement")]),
    ("fuzz-agreement", ["CatalogFuzzing", caffe("GrammarAgreement"), caffe("Localization"), caffe("RichText")]),
    ("fuzz-events", ["WireFuzzing", caffe("CaffeProtocol"), protobuf]),
    ("fuzz-requests", ["WireFuzzing", caffe("CaffeProtocol"), protobuf]),
    ("fuzz-render", ["WireFuzzing", caffe("CaffeCore"), caffe("CaffeProtocol"), protobuf]),
]

/// lld, because SwiftPM defines an executable's `main` with `--defsym`, which gold applies only
/// after it has pulled libFuzzer's own `main` out of the runtime archive (a duplicate definition
/// it then fails to report); lld applies it first, so our `main` (``FuzzDriver``) is the one.
let linkerSettings: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "caffe-fuzz",
    dependencies: [
        // `name:` because a path dependency is otherwise known by its folder's name, which differs
        // between checkouts and worktrees.
        .package(name: "caffe", path: ".."),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
    ],
    targets: [
        // libFuzzer's driver entry point; the runtime itself comes with `-sanitize=fuzzer`.
        .systemLibrary(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CLibFuzzer"]
        ),
        .target(
            name: "CatalogFuzzing",
            dependencies: [
                "FuzzSupport",
                caffe("Localization"),
                caffe("GrammarAgreement"),
            ]
        ),
        .target(
            name: "WireFuzzing",
            dependencies: [
                "FuzzSupport",
                caffe("CaffeProtocol"),
                protobuf,
            ]
        ),
        // Writes the protocol seed corpora from the test fixtures (Seeds/README.md).
        .executableTarget(
            name: "fuzz-seeds",
            dependencies: [
                "FuzzSupport",
                "WireFuzzing",
                caffe("CaffeProtocol"),
                protobuf,
            ],
            linkerSettings: linkerSettings
        ),
    ]
        + fuzzers.map { fuzzer in
            .executableTarget(
                name: fuzzer.name,
                dependencies: ["FuzzSupport"] + fuzzer.dependencies,
                linkerSettings: linkerSettings
            )
        },
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(contentsOf: [
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
    ])
    target.swiftSettings = settings
}
