/// Where a wrongly answered card goes (`[Schedule] OnFail=`, R9).
public enum OnFailPolicy: String, Sendable {
    /// Back to level 1 (the default).
    case first
    /// One level down, never below 1.
    case previous
}
