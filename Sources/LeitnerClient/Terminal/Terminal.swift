import Glibc
import LeitnerSystem

/// The terminal a descriptor is connected to: whether it is one, its size, its modes. Every
/// call goes through `valueOrErrno`.
public struct Terminal: Sendable {
    public let descriptor: FileDescriptor

    public init(_ descriptor: FileDescriptor) { self.descriptor = descriptor }

    /// True when the descriptor is a terminal.
    public var isTerminal: Bool { isatty(descriptor.rawValue) == 1 }

    /// Columns and rows, nil when not a terminal or when the terminal does not say.
    public var size: (columns: Int, rows: Int)? {
        var size = winsize()
        guard (try? nothingOrErrno { ioctl(descriptor.rawValue, UInt(TIOCGWINSZ), &size) }) != nil,
              size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The current modes.
    public func attributes() throws(Errno) -> termios {
        var modes = termios()
        try nothingOrErrno { tcgetattr(descriptor.rawValue, &modes) }
        return modes
    }

    /// Sets the modes, after output already written has been sent (`TCSADRAIN`).
    public func setAttributes(_ modes: termios) throws(Errno) {
        var copy = modes
        try nothingOrErrno { tcsetattr(descriptor.rawValue, TCSADRAIN, &copy) }
    }

    /// `modes` for reading one key at a time: no echo, no line editing, no signals from
    /// Ctrl-C (the program reads it as a key), output processing kept so that `\n` still
    /// starts a new line.
    public static func rawModes(from modes: termios) -> termios {
        var raw = modes
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        raw.c_cflag |= tcflag_t(CS8)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// Waits up to `milliseconds` for input; true when some is there.
    public func waitForInput(milliseconds: Int32) throws(Errno) -> Bool {
        var entry = pollfd(fd: descriptor.rawValue, events: Int16(POLLIN), revents: 0)
        return try valueOrErrno { poll(&entry, 1, milliseconds) } > 0
    }
}
