// swift-tools-version:6.0
import PackageDescription

// No package dependencies: the toolchain only (see README, "Building").
let package = Package(
    name: "leitner",
    products: [
        .library(name: "LeitnerCore", targets: ["LeitnerCore"]),
        .executable(name: "leitnerd", targets: ["leitnerd"]),
        .executable(name: "leitnerctl", targets: ["leitnerctl"]),
        .executable(name: "leitner-bench", targets: ["leitner-bench"]),
    ],
    targets: [
        .target(name: "LeitnerCore"),
        .executableTarget(name: "leitnerd", dependencies: ["LeitnerCore"]),
        .executableTarget(name: "leitnerctl", dependencies: ["LeitnerCore"]),
        .executableTarget(name: "leitner-bench", dependencies: ["LeitnerCore"]),
        .testTarget(name: "LeitnerCoreTests", dependencies: ["LeitnerCore"]),
    ],
    swiftLanguageModes: [.v6]
)
