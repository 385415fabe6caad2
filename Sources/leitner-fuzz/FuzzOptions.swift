import Glibc

/// The command line of leitner-fuzz (docs/protocol.md, "Fuzzing").
struct FuzzOptions {
    /// `--seed N`: the seed that fixes every call the run makes; a random one when absent.
    var seed: UInt64
    /// `--budget SECONDS`: how long the random calls go on after the edge calls.
    var budget: Double = 30
    /// `--programs DIR`: where `leitnerd` is; the directory of this program by default.
    var programs: String
    /// `--keep`: leave the temporary store in place after a run without failure.
    var keep = false
    /// `--http`: fuzz leitner-web's HTTP instead of the daemon's Varlink (`HTTPFuzzSession`).
    var http = false

    static let usage = "Usage: leitner-fuzz [--http] [--seed N] [--budget SECONDS] [--programs DIR] [--keep]"

    /// Why a command line was refused: printed with the usage line, exit 64.
    struct ArgumentError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses the arguments after the program name.
    /// - Throws: `ArgumentError`.
    static func parse(_ arguments: [String], programDirectory: String) throws(ArgumentError) -> FuzzOptions {
        var options = FuzzOptions(seed: FuzzOptions.freshSeed(), programs: programDirectory)
        var index = 0
        func value(_ option: String) throws(ArgumentError) -> String {
            index += 1
            guard index < arguments.count else { throw ArgumentError(description: "option '\(option)' needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else { throw ArgumentError(description: "not a seed: '\(text)'") }
                options.seed = seed
            case "--budget":
                let text = try value(argument)
                guard let budget = Double(text), budget >= 0, budget <= 1e7 else {
                    throw ArgumentError(description: "not a number of seconds: '\(text)'")
                }
                options.budget = budget
            case "--programs":
                options.programs = try value(argument)
            case "--keep":
                options.keep = true
            case "--http":
                options.http = true
            default:
                throw ArgumentError(description: "unknown argument '\(argument)'")
            }
            index += 1
        }
        return options
    }

    /// A seed of nine digits from the system's generator, so that each run without `--seed`
    /// differs and its seed is short to type.
    static func freshSeed() -> UInt64 {
        var system = SystemRandomNumberGenerator()
        return UInt64.random(in: 0..<1_000_000_000, using: &system)
    }
}
