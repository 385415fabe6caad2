// swift-tools-version:6.1
import PackageDescription

let testHooks: [SwiftSetting] = [.define("LEITNER_TEST_HOOKS", .when(traits: ["TestHooks"]))]

// No package dependencies: the toolchain only (see README, "Building").
// Who imports whom is drawn in docs/architecture.md: LeitnerSystem ← LeitnerVarlink (JSON and
// Varlink, knowing nothing of cards); LeitnerSystem ← LeitnerCore; both ← LeitnerProtocol (the
// box's interface) ← leitnerd; LeitnerProtocol ← LeitnerClient ← leitnerctl, and LeitnerClient ←
// LeitnerWeb ← leitner-web. The daemon links no client code.
let package = Package(
    name: "leitner",
    products: [
        .library(name: "LeitnerCore", targets: ["LeitnerCore"]),
        .executable(name: "leitnerd", targets: ["leitnerd"]),
        .executable(name: "leitnerctl", targets: ["leitnerctl"]),
        .executable(name: "leitner-bench", targets: ["leitner-bench"]),
        .executable(name: "leitner-fuzz", targets: ["leitner-fuzz"]),
        .executable(name: "leitner-web", targets: ["leitner-web"]),
    ],
    // `CrashPoint`, the tests' simulated crash between two system calls, and `JSONFieldReads`,
    // the members the decoders read, are compiled only into test builds (`make check` passes `--traits TestHooks`); the programs never carry it.
    traits: [.trait(name: "TestHooks", description: "Simulated crashes and the record of decoded members, for the unit tests")],
    targets: [
        .target(name: "LeitnerSystem", swiftSettings: testHooks),
        .target(name: "LeitnerCore", dependencies: ["LeitnerSystem"], swiftSettings: testHooks),
        .target(name: "LeitnerVarlink", dependencies: ["LeitnerSystem"], swiftSettings: testHooks),
        .target(name: "LeitnerProtocol", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerVarlink"],
                swiftSettings: testHooks),
        .target(name: "LeitnerClient", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink"]),
        .executableTarget(name: "leitnerd", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink"]),
        // leitnerctl starts for every command, so its release build is linked whole, the C
        // library too (`-static-executable`): no dynamic loader runs before `main`, which was
        // half of its start, 2.2 -> 1.1 ms of CPU (docs/performance.md, "The warm listing's
        // first line, the program linked whole"). lld, because gold prints the C library's
        // caution at each link for the names a static program resolves through NSS modules
        // (`getpwuid_r`, looked up only without HOME), which docs/performance.md explains.
        .executableTarget(name: "leitnerctl",
                          dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerClient"],
                          linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld"],
                                                        .when(platforms: [.linux], configuration: .release))]),
        .executableTarget(name: "leitner-bench", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerWeb"]),
        // Calls the built leitnerd with values generated from its interface text (docs/protocol.md, "Fuzzing"),
        // and leitner-web at each route of its table (LeitnerWeb's `WebRoute`, docs/web.md, "Fuzzing").
        .executableTarget(name: "leitner-fuzz", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerWeb"]),
        // The web door (docs/web.md): HTTP, the session and the pages, a client of the daemon like
        // leitnerctl; LeitnerClient for the statistics report and the day names.
        .target(name: "LeitnerWeb", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerClient"]),
        .executableTarget(name: "leitner-web", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerWeb"]),
        // One test target per module; what several share (a temporary directory) is a target
        // of its own that only the tests link.
        .target(name: "LeitnerTestSupport", dependencies: ["LeitnerSystem"], path: "Tests/Support"),
        .testTarget(name: "LeitnerSystemTests", dependencies: ["LeitnerSystem", "LeitnerTestSupport"],
                    swiftSettings: testHooks),
        .testTarget(name: "LeitnerCoreTests", dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerTestSupport"],
                    swiftSettings: testHooks),
        .testTarget(name: "LeitnerVarlinkTests", dependencies: ["LeitnerSystem", "LeitnerVarlink", "LeitnerTestSupport"],
                    swiftSettings: testHooks),
        .testTarget(name: "LeitnerProtocolTests",
                    dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerTestSupport"],
                    swiftSettings: testHooks),
        .testTarget(name: "LeitnerClientTests",
                    dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerClient", "LeitnerTestSupport"]),
        // The programs' own logic (parsing their command lines, dispatching calls), tested
        // through `@testable import` of the executable modules.
        .testTarget(name: "leitnerdTests", dependencies: ["leitnerd", "LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerTestSupport"]),
        .testTarget(name: "leitnerctlTests", dependencies: ["leitnerctl", "LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink"]),
        .testTarget(name: "LeitnerWebTests",
                    dependencies: ["LeitnerSystem", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerWeb", "LeitnerTestSupport"]),
        // The fuzzer's generators, through `@testable import` of its executable module.
        .testTarget(name: "leitner-fuzzTests", dependencies: ["leitner-fuzz", "LeitnerCore", "LeitnerProtocol", "LeitnerVarlink", "LeitnerWeb"]),
    ],
    swiftLanguageModes: [.v6]
)
