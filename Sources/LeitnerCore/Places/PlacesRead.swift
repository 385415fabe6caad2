import Synchronization
import LeitnerSystem

/// The places' ledger kept across restarts (`PlacesLedger.fileName`, or without it the one this
/// device published beside its log, `PublishedHistory.places`), read and decoded at the open on a
/// thread of its own while the store scans the levels, as the notes' first look is (`NoteLook`).
/// A year's history leaves tens of thousands of leech counts in it — 78,000 in the bench's, 1.9 MB
/// — and decoding them was most of the first `Status` after every start, with or without the
/// local state (docs/performance.md, "A store copied, then opened").
///
/// The thread only reads and decodes. Which file holds is judged by the box when it takes them
/// (`Box.takeKeptPlaces`), against the log as it is then, as for a file it reads itself; the
/// published file is decoded only when the local one did not hold as the open began, and read
/// by the box when it is needed after all.
final class PlacesRead: Sendable {
    /// A file decoded, with the check of the log's bytes before its offset that it holds.
    typealias Decoded = (ledger: PlacesLedger, check: UInt32)

    /// The files as the thread found them.
    struct Files: Sendable {
        /// The local file; nil when missing, unreadable, or not one this build wrote for this day clock.
        var local: Decoded?
        /// The published file, the same way, when it was read (nil outside: not read).
        var published: Decoded??
    }

    private let files = Mutex<Files?>(nil)
    /// Rung once `files` is set.
    private let done: EventDescriptor

    /// Starts the thread, from the open, once the store's directories and log are open. Nil
    /// when no thread or descriptor can be had: the box then reads the files itself.
    /// - Parameter clock: the day clock's mark the ledger's dates must have (`Box.keptDatesClock`).
    static func start(store: Store, clock: String) -> PlacesRead? {
        guard let done = try? EventDescriptor() else { return nil }
        let read = PlacesRead(done: done)
        let stateFD = store.stateFD, devicesFD = store.devicesFD, device = store.device, logSize = store.log.size
        guard DetachedThread.start({
            read.run(stateFD: stateFD, devicesFD: devicesFD, device: device, logSize: logSize, clock: clock)
        }) == nil else { return nil }
        return read
    }

    private init(done: EventDescriptor) {
        self.done = done
    }

    deinit {
        done.close()
    }

    private func run(stateFD: FileDescriptor, devicesFD: FileDescriptor, device: String, logSize: Int, clock: String) {
        let local = (try? FileSystem.readFile(PlacesLedger.fileName, in: stateFD, limit: PlacesLedger.fileLimit))
            .flatMap { PlacesLedger.decoded($0, clock: clock) }
        var found = Files(local: local, published: nil)
        if !(local.map { PlacesRead.holds($0, device: device, devicesFD: devicesFD, logSize: logSize) } ?? false) {
            found.published = .some(PublishedHistory.read(PublishedHistory.places, of: device, in: devicesFD, limit: PlacesLedger.fileLimit)
                .flatMap { PlacesLedger.decoded($0, clock: clock) })
        }
        files.withLock { $0 = found }
        done.signal()
    }

    /// True when `device`'s log, `logSize` bytes long, still holds the bytes the ledger was read
    /// up to (`PeerReadMarks.check`).
    static func holds(_ decoded: Decoded, device: String, devicesFD: FileDescriptor, logSize: Int) -> Bool {
        decoded.ledger.logOffset <= logSize
            && PeerReadMarks.withLog(device, in: devicesFD, { PeerReadMarks.check($0, before: decoded.ledger.logOffset) }) == decoded.check
    }

    /// The files, waited for: at the ledger's first use, or when the box closes or its open fails
    /// before (the thread reads through the store's descriptors).
    func take() -> Files {
        while true {
            if let found = files.withLock({ $0 }) { return found }
            // Interrupted by a signal: asked again.
            _ = try? Poll.readable([done.descriptor], milliseconds: nil)
        }
    }
}
