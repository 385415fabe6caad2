import LeitnerSystem

/// The programs an Anki package is read with (docs/anki-import.md, "Reading the files"): a zip
/// extractor (`unzip`, else `bsdtar`), `zstd` and `sqlite3`, all in Debian 12. Reading through
/// the user's own programs keeps the static build free of C libraries; each missing one is named
/// with the Debian package that brings it.
enum AnkiPrograms {
    /// A program, and the Debian package that installs it.
    struct Program {
        var name: String
        var package: String
    }

    static let unzip = Program(name: "unzip", package: "unzip")
    static let bsdtar = Program(name: "bsdtar", package: "libarchive-tools")
    static let zstd = Program(name: "zstd", package: "zstd")
    static let sqlite3 = Program(name: "sqlite3", package: "sqlite3")

    /// The most a program's output may be: a collection's notes as JSON are read whole.
    static let outputLimit = 1 << 30

    /// Runs one of `programs` (the first one installed) with the arguments made for it, and
    /// returns its output.
    /// - Throws: `AnkiPackageError.missingProgram` naming each with its package when none is
    ///   installed; `.programFailed` when it exits other than 0 or is killed.
    static func run(_ programs: [Program], _ arguments: (Program) -> [String], doing what: String) throws(AnkiPackageError) -> [UInt8] {
        for program in programs {
            let result: (termination: ChildProcess.Termination, output: [UInt8])
            do {
                result = try ChildProcess.output(of: program.name, arguments: arguments(program), limit: outputLimit)
            } catch where error == .noEntry {
                continue
            } catch {
                throw .programFailed(program.name, what: what, reason: "\(error)")
            }
            guard result.termination == .exited(0) else {
                throw .programFailed(program.name, what: what, reason: "\(result.termination)")
            }
            return result.output
        }
        throw .missingProgram(programs.map { "'\($0.name)' (Debian package \($0.package))" }.joined(separator: " or "))
    }

    static func run(_ program: Program, _ arguments: [String], doing what: String) throws(AnkiPackageError) -> [UInt8] {
        try run([program], { _ in arguments }, doing: what)
    }
}
