import Glibc
import Synchronization
@testable import LeitnerCore
import LeitnerTestSupport

/// A clock the test moves by hand.
final class ManualClock: WallClock {
    private let millis: Mutex<Int64>

    /// Starts at local noon of `date` (TZ is whatever the process has; tests use dates, not zones).
    init(_ date: String, hour: Int = 12) {
        let day = LogicalDate(date)!
        millis = Mutex(DayClock(dayStartsAt: 0).start(of: day) + Int64(hour) * 3_600_000)
    }

    func now() -> Int64 { millis.withLock { $0 } }

    func advance(hours: Int = 0, days: Int = 0, minutes: Int = 0) {
        millis.withLock { $0 += Int64(hours) * 3_600_000 + Int64(days) * 86_400_000 + Int64(minutes) * 60_000 }
    }
}

/// Where the tests' boxes keep their files (docs/store-format.md): every test box is the device
/// `here`; a test of several devices names the others itself.
enum TestBox {
    static let device = "here"
    /// The device's review log and day record, relative to the store.
    static let log = ".leitner/devices/here/log"
    static let days = ".leitner/devices/here/days"
    /// The device's private state directory, relative to the store.
    static let local = ".leitner/local.here"
}

extension Box {
    /// Opens a box on `directory` with the test clock; it publishes its log's history beside it
    /// (`BoxOptions.publishEvery`) once the log is `publishEvery` bytes past it, a MiB as a daemon.
    static func open(_ directory: TemporaryDirectory, clock: ManualClock, onFail: OnFailPolicy = .first,
                     cycle: CycleTable = .standard, seeds: SeedSequence = SeedSequence(),
                     places: PlacesSettings = PlacesSettings(), publishEvery: Int = 1 << 20) throws -> Box {
        var options = BoxOptions(storePath: directory.path, device: TestBox.device, cycle: cycle, onFail: onFail,
                                 dayClock: DayClock(), clock: clock, seedSource: { seeds.next() })
        options.newPerDay = places.newPerDay
        options.leechAfter = places.leechAfter
        options.suspendLeeches = places.suspendLeeches
        options.publishEvery = publishEvery
        return try Box(options: options)
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

#if !LEITNER_TEST_HOOKS
#error("the core's tests simulate crashes: build them with `swift test --traits TestHooks` (make check does)")
#endif
