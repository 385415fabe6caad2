extension ConfigurationLocator {
    /// `leitner-web`'s state directory (docs/web.md, "What is stored where"):
    /// `$XDG_STATE_HOME/leitner`, by default `~/.local/state/leitner`. The paired devices and
    /// the pairing codes live there: state of this machine's user, not of the store, which may be
    /// synced elsewhere.
    public var webStateDirectory: String {
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (home.hasSuffix("/") ? home : home + "/") + ".local/state"
        return base + "/leitner"
    }
}
