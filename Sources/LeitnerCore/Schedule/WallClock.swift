/// The source of the current time, injected so that tests control the day.
public protocol WallClock: Sendable {
    /// Milliseconds since the Unix epoch.
    func now() -> Int64
}
