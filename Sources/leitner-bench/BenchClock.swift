import LeitnerCore

/// The system clock moved `days` ahead: each round of the paced Prepare is the first of a new
/// logical date, so that it admits `NewPerDay=` cards again (R23: admissions are once a date).
struct BenchClock: WallClock {
    let days: Int

    func now() -> Int64 { SystemClock().now() + Int64(days) * 86_400_000 }
}
