import LeitnerSystem

/// The other devices' files (docs/sync.md): their day records join this device's in the box's
/// day record, their review logs join its log in `Log`, `Calendar` and `Stats`. They are looked
/// at before every request — one `fstat` of `devices/` (listed again only when an entry came or
/// went, `DirectoryStamp`) and two `fstatat` per device (three until a browser device's file is
/// seen) — and read again only when they changed.
extension Store {
    /// The names of the other devices with a directory in `.leitner/devices/`, sorted. Names that
    /// are not device ids (a sync tool's temporary, a migration's staging directory) are not
    /// devices.
    func peerNames() -> [String] {
        let stamp = DirectoryStamp(devicesFD)
        if let stamp, let seen = peerNames(seenAt: stamp) { return seen }
        var names: [String] = []
        try? FileSystem.forEachEntry(devicesFD) { name, kind in
            if kind == .directory || kind == .unknown, name != device, DeviceID.problem(name) == nil { names.append(name) }
        }
        names.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        notePeerNames(names, at: stamp)
        return names
    }

    /// Reads again the day records of the devices whose file changed; true when the merged day
    /// record must be made again (a device came, went, or its file changed).
    func refreshPeerDays() -> Bool {
        let names = peerNames()
        var changed = peerDeviceNames != Set(names)
        var seen: [String: PeerDevice] = [:]
        for name in names {
            var peer = self.peer(named: name) ?? PeerDevice(name: name)
            let path = sharedPath + "/" + Store.devicesDirectoryName + "/" + name
            let directory = try? FileDescriptor.openDirectory(name, relativeTo: devicesFD)
            defer { directory?.close() }
            let daysStat = directory.flatMap { try? FileSystem.status(DayRecordFile.name, in: $0) }
            let signature = daysStat.map(PeerDevice.Signature.init)
            if signature != peer.daysSignature || self.peer(named: name) == nil {
                changed = true
                peer.daysSignature = signature
                peer.days = DayRecord()
                peer.daysProblem = nil
                if let directory, signature != nil {
                    do {
                        let bytes = try FileSystem.readFile(DayRecordFile.name, in: directory)
                        // A torn last line (a sync cut short) is left out, as at home.
                        peer.days = try DayRecord.parse(String(decoding: bytes, as: UTF8.self),
                                                        fileName: path + "/" + DayRecordFile.name).record
                    } catch {
                        peer.daysProblem = "\(error)"
                    }
                }
            }
            peer.logSignature = directory.flatMap { try? FileSystem.status(ReviewLog.fileName, in: $0) }.map(PeerDevice.Signature.init)
            // Once a browser, always: the file is written once, before the browser's first line.
            if !peer.isBrowser, let directory { peer.isBrowser = FileSystem.exists(Store.browserFileName, in: directory) }
            seen[name] = peer
        }
        notePeers(seen)
        return changed
    }
}
