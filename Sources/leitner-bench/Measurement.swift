import Glibc
import LeitnerCore

/// One measurement of a built store, in a process of its own so that memory figures are the box's.
enum Measurement {
    static func run(store: String, grades: Int, logLines: Int) throws {
        let baseline = Timing.memory()
        var box: Box?
        var afterOpen = baseline
        var openTimes: [Double] = []
        for attempt in 0..<3 {
            box?.close()
            box = nil
            openTimes.append(try Timing.secondsThrowing { box = try Box(options: BoxOptions(storePath: store)) })
            if attempt == 0 { afterOpen = Timing.memory() }
        }
        let opened = box!
        var prepared: TestSummary?
        let prepareTime = try Timing.secondsThrowing { prepared = try opened.prepare().test }
        print("box: open and index               \(Timing.ms(openTimes.dropFirst().min()!)) (first, cold-ish: \(Timing.ms(openTimes[0])))")
        print("box: prepare (queue of \(prepared!.remaining), levels \(prepared!.levels.map(\.name).joined(separator: ",")))  \(Timing.ms(prepareTime))")
        let statusTimes = try (0..<1000).map { _ in try Timing.secondsThrowing { _ = try opened.status() } }
        print("box: status                       p50 \(Timing.ms(Timing.percentile(statusTimes, 0.5)))  p99 \(Timing.ms(Timing.percentile(statusTimes, 0.99)))")
        var gradeTimes: [Double] = []
        var correct = true
        for _ in 0..<grades {
            guard let card = try opened.next().card else { break }
            correct.toggle()
            gradeTimes.append(try Timing.secondsThrowing {
                _ = try opened.grade(id: card.id, correct: correct, answerMs: 1000)
            })
        }
        if !gradeTimes.isEmpty {
            print("box: grade, durable (\(gradeTimes.count))         p50 \(Timing.ms(Timing.percentile(gradeTimes, 0.5)))  p99 \(Timing.ms(Timing.percentile(gradeTimes, 0.99)))")
        }
        try StatsMeasurement.run(opened, logLines: logLines)
        let end = Timing.memory()
        print("box: memory  resident after the first open \((afterOpen.rss - baseline.rss) / 1024) MiB above a \(baseline.rss / 1024) MiB baseline; after the grades \((end.rss - baseline.rss) / 1024) MiB; peak \(end.peak / 1024) MiB")
        opened.close()
    }
}
