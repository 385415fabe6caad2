/// The exit statuses of the programs, each written once. Beyond 0 and 1 they are sysexits(3)'s,
/// which the manual pages list.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// The request failed; the message says why.
    public static let failure: Int32 = 1
    /// `EX_USAGE`: the command line is wrong.
    public static let usage: Int32 = 64
    /// `EX_UNAVAILABLE`: the daemon cannot be reached (or refused the connection).
    public static let unavailable: Int32 = 69
}
