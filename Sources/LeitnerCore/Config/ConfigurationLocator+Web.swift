extension ConfigurationLocator {
    /// `leitner-web`'s secret token (docs/web.md): `$XDG_STATE_HOME/leitner/web-token`, by
    /// default `~/.local/state/leitner/web-token`. State of this machine's user, not of the store,
    /// which may be synced elsewhere.
    public var webTokenPath: String {
        let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (home.hasSuffix("/") ? home : home + "/") + ".local/state"
        return base + "/leitner/web-token"
    }
}
