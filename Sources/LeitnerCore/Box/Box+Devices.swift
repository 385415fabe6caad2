import LeitnerSystem

/// The other devices' review logs in what the box tells of its history (docs/sync.md, "What each
/// machine sees"): `Log` merges every device's log in time order; `Stats` and `Calendar` add up
/// running totals kept per device, since an undo takes back a grade of its own device's log only.
extension Box {
    /// A reader of another device's log as it is now, from `offset` on; nil when the device has
    /// no log.
    func peerLogReader(_ name: String, since: Int64? = nil, limit: Int? = nil, from offset: Int = 0) throws(BoxError) -> ReviewLogReader? {
        let path = store.sharedPath + "/" + Store.devicesDirectoryName + "/" + name
        guard let directory = try? FileDescriptor.openDirectory(name, relativeTo: store.devicesFD) else { return nil }
        defer { directory.close() }
        guard let st = try? FileSystem.status(ReviewLog.fileName, in: directory), st.isRegularFile else { return nil }
        return try ReviewLogReader(stateDirectory: directory, path: path + "/" + ReviewLog.fileName, end: Int(st.st_size),
                                   since: since, limit: limit, from: offset)
    }

    /// Every device's log merged, as `Log` gives it.
    func mergedLogReader(since: Int64?, limit: Int?) throws(BoxError) -> MergedLogReader {
        var readers = [(device: store.device, reader: try store.log.reader(since: since, limit: limit))]
        var shared = [store.device: StoreMigration.sharedHistoryLength(in: store.deviceFD)]
        for name in store.peerNames() {
            guard let reader = try peerLogReader(name, since: since, limit: limit) else { continue }
            readers.append((name, reader))
            if let directory = try? FileDescriptor.openDirectory(name, relativeTo: store.devicesFD) {
                shared[name] = StoreMigration.sharedHistoryLength(in: directory)
                directory.close()
            }
        }
        return MergedLogReader(readers: readers, limit: limit, sharedHistory: shared)
    }

    /// Brings the other devices' running totals up to date with their logs, from where each was
    /// read to. A device's log only grows (it has one writer); a shorter one than was read (a
    /// person cut it, or a backup came back) is read again from its start.
    func updatePeerTotals(tallies: Bool, graded: Bool) throws(BoxError) {
        let names = store.peerNames()
        let dayClock = options.dayClock
        for name in names {
            if tallies {
                var tally = statistics.peerTallies[name] ?? ReviewTally()
                if let size = store.peerLogSize(name), tally.logOffset > size { tally = ReviewTally() }
                if let reader = try peerLogReader(name, from: tally.logOffset) {
                    while try reader.next(upTo: 4096, { entry, end in
                        tally.take(entry, dayClock: dayClock)
                        tally.logOffset = end
                    }) > 0 {}
                }
                statistics.peerTallies[name] = tally
            }
            if graded {
                var days = statistics.peerGradedDays[name] ?? keptGradedDays(of: name)
                if let size = store.peerLogSize(name), days.logOffset > size { days = GradedDays() }
                if let reader = try peerLogReader(name, from: days.logOffset) {
                    while try reader.nextLines(upTo: 4096, { line, end in days.read(line, end: end, dayClock: dayClock) }) > 0 {}
                }
                keepGradedDays(days, of: name)
                statistics.peerGradedDays[name] = days
            }
        }
        for name in statistics.peerTallies.keys where !names.contains(name) { statistics.peerTallies[name] = nil }
        for name in statistics.peerGradedDays.keys where !names.contains(name) { statistics.peerGradedDays[name] = nil }
    }
}
