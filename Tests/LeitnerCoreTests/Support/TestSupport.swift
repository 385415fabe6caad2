import Glibc
import Synchronization
@testable import LeitnerCore

/// A clock the test moves by hand.
final class ManualClock: WallClock {
    private let millis: Mutex<Int64>

    /// Starts at local noon of `date` (TZ is whatever the process has; tests use dates, not zones).
    init(_ date: String, hour: Int = 12) {
        let day = LogicalDate(date)!
        millis = Mutex(DayClock(dayStartsAt: 0).start(of: day) + Int64(hour) * 3_600_000)
    }

    func now() -> Int64 { millis.withLock { $0 } }

    func advance(hours: Int = 0, days: Int = 0) {
        millis.withLock { $0 += Int64(hours) * 3_600_000 + Int64(days) * 86_400_000 }
    }
}

/// A fresh temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/leitner-test-XXXXXX".utf8CString)
        let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(result != nil, "mkdtemp failed")
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func remove() {
        if let fd = try? FileDescriptor.openDirectory("/tmp") {
            try? FileSystem.removeTree(String(path.dropFirst(5)), in: fd)
            fd.close()
        }
    }

    /// Writes a file (creating parent directories).
    func write(_ relative: String, _ text: String) {
        let parts = relative.split(separator: "/")
        var dir = path
        for part in parts.dropLast() {
            dir += "/" + part
            mkdir(dir, 0o755)
        }
        let fd = Glibc.open(path + "/" + relative, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        Glibc.close(fd)
    }

    func exists(_ relative: String) -> Bool { access(path + "/" + relative, F_OK) == 0 }

    /// `mv` inside the directory.
    func move(_ from: String, _ to: String) {
        precondition(rename(path + "/" + from, path + "/" + to) == 0, "rename \(from) \(to) failed")
    }

    /// Every path below the directory, sorted, with file contents: a snapshot to compare.
    func snapshot(excluding: String = ".leitner") -> [String] {
        var result: [String] = []
        func walk(_ relative: String) {
            guard let fd = try? FileDescriptor.openDirectory(path + relative) else { return }
            defer { fd.close() }
            for entry in ((try? FileSystem.list(fd)) ?? []).sorted(by: { $0.name < $1.name }) {
                let child = relative + "/" + entry.name
                if child == "/" + excluding { continue }
                if entry.kind == .directory {
                    result.append(child + "/")
                    walk(child)
                } else if entry.kind == .symlink {
                    // Never read through a link (one may lead to /etc) nor open a FIFO (it blocks).
                    result.append(child + " -> " + ((try? FileSystem.linkTarget(entry.name, in: fd)) ?? "?"))
                } else if entry.kind == .file {
                    let bytes = (try? FileSystem.readFile(atPath: path + child)) ?? []
                    result.append(child + " = " + String(decoding: bytes, as: UTF8.self))
                } else {
                    result.append(child + " (\(entry.kind))")
                }
            }
        }
        walk("")
        return result
    }
}

extension Box {
    /// Opens a box on `directory` with the test clock.
    static func open(_ directory: TemporaryDirectory, clock: ManualClock, onFail: OnFailPolicy = .first,
                     cycle: CycleTable = .standard, seeds: SeedSequence = SeedSequence()) throws -> Box {
        try Box(options: BoxOptions(storePath: directory.path, cycle: cycle, onFail: onFail,
                                    dayClock: DayClock(), clock: clock, seedSource: { seeds.next() }))
    }

    @discardableResult
    func addText(_ front: String, _ back: String, id: String? = nil, level: String? = nil) throws -> Card {
        try add(front: Asset(name: "front.txt", text: front), back: Asset(name: "back.txt", text: back),
                id: id, level: level)
    }
}

/// The shuffle seeds a test's box draws (R11), from a seed of the test's own, so that a run can
/// be repeated: a failing run names its seed.
final class SeedSequence: Sendable {
    let seed: UInt64
    private let generator: Mutex<SeededGenerator>

    init(seed: UInt64 = SeedSequence.randomSeed()) {
        self.seed = seed
        generator = Mutex(SeededGenerator(seed: seed))
    }

    func next() -> UInt64 { generator.withLock { $0.next() } }

    static func randomSeed() -> UInt64 {
        var random = SystemRandomNumberGenerator()
        return random.next()
    }
}
