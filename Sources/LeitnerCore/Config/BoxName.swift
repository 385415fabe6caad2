/// Names of boxes (R29): `leitnerctl --box NAME`, `LEITNER_BOX=NAME`, `leitnerd --box NAME`.
/// A name becomes a file name three times over (`NAME.conf`, `boxes/NAME`, `NAME.sock`) and a
/// systemd instance name (`leitnerd@NAME.service`), so it follows the rules of card ids (R20),
/// which already keep out `/`, spaces, control characters and a leading `.` or `-`.
public enum BoxName {
    /// Names that would share a file with the default box: `leitner` would read the default
    /// box's `leitner.conf`, `leitnerd` would listen on its `leitnerd.sock` and log to its
    /// `leitnerd.log`.
    public static let reserved: Set<String> = ["leitner", "leitnerd"]

    /// Why `name` cannot name a box, or nil when it can.
    public static func problem(_ name: String) -> String? {
        if let reason = CardID.problem(name) { return reason }
        if reserved.contains(name) {
            return "is reserved: it names the default box's own files (leitner.conf, leitnerd.sock); name no box to use that one"
        }
        return nil
    }

    /// True when `name` can name a box.
    public static func isValid(_ name: String) -> Bool { problem(name) == nil }
}
