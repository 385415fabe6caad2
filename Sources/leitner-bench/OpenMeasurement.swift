import LeitnerCore

/// Opening a box (the store ready to serve: locked, indexed, repaired, its test loaded) beside
/// its floor, the names-only `readdir` walk of the level directories, taken in turns in the same
/// run so that both see the same machine; the cache warm for both.
enum OpenMeasurement {
    static func run(store: String, rounds: Int) throws {
        // Warm the cache and the box's own files once, untimed.
        try Box(options: BoxOptions(storePath: store, device: BenchDevice.name)).close()
        var opens: [Double] = []
        var walks: [Double] = []
        for _ in 0..<max(1, rounds) {
            walks.append(Floors.readdirWalk(store, statEach: false))
            var box: Box?
            opens.append(try Timing.secondsThrowing { box = try Box(options: BoxOptions(storePath: store, device: BenchDevice.name)) })
            box?.close()
        }
        let open = Timing.percentile(opens, 0.5), walk = Timing.percentile(walks, 0.5)
        print("box: open and index, \(opens.count) rounds  min \(Timing.ms(opens.min()!))  p50 \(Timing.ms(open)); "
              + "floor: readdir, names only  min \(Timing.ms(walks.min()!))  p50 \(Timing.ms(walk)); \(Timing.ratio(open, walk)) at p50")
    }
}
