import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

/// Reading a store's own files the way a user with `cat` would, independent of the box's code.
extension TemporaryDirectory {
    /// The text of a file below the directory, "" when it is missing.
    func read(_ relative: String) -> String {
        String(decoding: (try? FileSystem.readFile(atPath: path + "/" + relative)) ?? [], as: UTF8.self)
    }

    /// `.leitner/devices/here/days` as its lines.
    var dayLines: [String] { read(".leitner/devices/here/days").split(separator: "\n").map(String.init) }

    /// The review log's lines, each split at its tabs.
    var logLines: [[String]] {
        read(".leitner/devices/here/log").split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The review log's size in bytes.
    var logSize: Int { read(".leitner/devices/here/log").utf8.count }

    /// The level directory a card is in on disk (every level looked at), nil when in none.
    func levelOnDisk(_ id: String) -> [String] {
        Level.allCases.map(\.name).filter { exists("\($0)/\(id)/") }
    }

    func makeDirectory(_ relative: String) {
        precondition(mkdir(path + "/" + relative, 0o755) == 0, "mkdir \(relative) failed")
    }

    func symlink(_ target: String, at relative: String) {
        precondition(Glibc.symlink(target, path + "/" + relative) == 0, "symlink \(relative) failed")
    }

    func removeFile(_ relative: String) {
        precondition(unlink(path + "/" + relative) == 0, "unlink \(relative) failed")
    }

    /// `rm -r` of a directory below this one.
    func removeTree(_ relative: String) {
        let parts = relative.split(separator: "/")
        let parent = ([path] + parts.dropLast().map(String.init)).joined(separator: "/")
        let fd = try! FileDescriptor.openDirectory(parent)
        defer { fd.close() }
        try! FileSystem.removeTree(String(parts.last!), in: fd)
    }

    /// A card made by hand: `id/front.txt`, `id/back.txt` in `level`.
    func writeCard(_ id: String, level: String, front: String = "f", back: String = "b") {
        write("\(level)/\(id)/front.txt", front)
        write("\(level)/\(id)/back.txt", back)
    }

    /// Copies the whole directory, as it is on disk now, to a fresh one: what a `kill -9`
    /// (or a copy with a file-sync tool) would leave. The lock file is left out, and `leavingOut`
    /// (a path below the directory, as `.leitner/local.here`: a copy without its local state).
    func copy(leavingOut: String? = nil) -> TemporaryDirectory {
        let target = TemporaryDirectory()
        let left = leavingOut.map { "/" + $0 }
        func walk(_ relative: String) {
            guard let fd = try? FileDescriptor.openDirectory(path + relative) else { return }
            defer { fd.close() }
            for entry in (try? FileSystem.list(fd)) ?? [] {
                let child = relative + "/" + entry.name
                if child == "/.leitner/local.here/lock" || child == left { continue }
                if entry.kind == .directory {
                    mkdir(target.path + child, 0o755)
                    walk(child)
                } else if entry.kind == .file {
                    let bytes = (try? FileSystem.readFile(atPath: path + child)) ?? []
                    let out = open(target.path + child, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                    _ = bytes.withUnsafeBytes { Glibc.write(out, $0.baseAddress, $0.count) }
                    close(out)
                }
            }
        }
        walk("")
        return target
    }
}

extension Box {
    /// The open test's queue, in order (the box's own view, for checking R8/R11 order).
    var queueNow: [String] { test?.queue ?? [] }

    /// Grades every card of the queue correct until the test completes; returns how many grades.
    @discardableResult
    func passAll() throws -> Int {
        var count = 0
        while let card = try next().card {
            _ = try grade(id: card.id, correct: true, answerMs: 500)
            count += 1
        }
        return count
    }
}

/// Expects `body` to throw exactly `expected`.
func expectBoxError<T>(_ expected: BoxError, sourceLocation: SourceLocation = #_sourceLocation,
                       _ body: () throws -> T) {
    do {
        _ = try body()
        Issue.record("expected \(expected), got no error", sourceLocation: sourceLocation)
    } catch let error as BoxError {
        #expect(error == expected, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
    }
}

/// Expects `body` to throw a `BoxError` that `matches` accepts.
func expectBoxError<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> T,
                       matches: (BoxError) -> Bool) {
    do {
        _ = try body()
        Issue.record("expected an error, got none", sourceLocation: sourceLocation)
    } catch let error as BoxError {
        #expect(matches(error), "\(error)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected a BoxError, got \(error)", sourceLocation: sourceLocation)
    }
}

/// A box on a fresh temporary store with a manual clock; closed and removed at the end.
final class BoxFixture {
    let dir = TemporaryDirectory()
    let clock: ManualClock
    let onFail: OnFailPolicy
    let cycle: CycleTable
    /// The shuffle seeds of the box's tests, kept across reopens.
    let seeds: SeedSequence
    private(set) var box: Box

    /// Pacing and leeches (R23, R24): off by default, as a box before R23.
    let places: PlacesSettings
    /// How far the log runs past the history published beside it before a stop publishes it
    /// again (`BoxOptions.publishEvery`): a MiB by default, as a daemon.
    let publishEvery: Int

    init(_ date: String = "2026-03-02", onFail: OnFailPolicy = .first, cycle: CycleTable = .standard,
         seed: UInt64 = SeedSequence.randomSeed(), places: PlacesSettings = PlacesSettings(), publishEvery: Int = 1 << 20) throws {
        clock = ManualClock(date)
        self.onFail = onFail
        self.cycle = cycle
        self.places = places
        self.publishEvery = publishEvery
        seeds = SeedSequence(seed: seed)
        box = try Box.open(dir, clock: clock, onFail: onFail, cycle: cycle, seeds: seeds, places: places, publishEvery: publishEvery)
    }

    private var isOpen = true

    /// Closes the box (once: a box's close is not idempotent) — the daemon stops.
    func close() {
        if isOpen { box.close() }
        isOpen = false
    }

    /// Stops the box as `kill -9` would: every mutating call from here on fails, so nothing is
    /// synced or checkpointed; only the descriptors close, as at exit.
    func kill() {
        guard isOpen else { return }
        CrashPoint.arm(after: 1)
        box.close()
        CrashPoint.disarm()
        isOpen = false
    }

    /// Closes the box when open and opens the store again (a daemon restart).
    func reopen() throws {
        close()
        box = try Box.open(dir, clock: clock, onFail: onFail, cycle: cycle, seeds: seeds, places: places, publishEvery: publishEvery)
        isOpen = true
    }

    deinit {
        close()
        dir.remove()
    }
}

extension String {
    /// The string with the first occurrence of `target` replaced (by bytes: no Foundation).
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), wanted = Array(target.utf8)
        guard bytes.count >= wanted.count,
              let start = (0...(bytes.count - wanted.count)).first(where: { bytes[$0..<$0 + wanted.count].elementsEqual(wanted) })
        else { return self }
        return String(decoding: bytes[..<start] + Array(replacement.utf8) + bytes[(start + wanted.count)...], as: UTF8.self)
    }
}
