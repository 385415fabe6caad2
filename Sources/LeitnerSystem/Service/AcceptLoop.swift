/// The waiting and accepting of a server's main thread, leitnerd's and leitner-web's: one
/// `poll` on its doorbell, its signals (`SignalDescriptor`) and its listening socket, and the
/// accepting of every connection that waits. What each program does with what woke it (a stop,
/// a reload, a connection to serve or refuse) is its own loop's, around this one.
///
/// When `accept` fails for want of a resource (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`), the
/// waiting clients stay queued in the kernel and the listening socket is left out of the wait
/// for `acceptPause`: polling it again at once would spin while it stays readable, and sleeping
/// would deafen the loop to its signals. Such a failure is logged once in 10 s.
package final class AcceptLoop {
    /// How long accepting pauses when `accept` fails for want of a resource.
    package static let acceptPause: Duration = .milliseconds(100)
    /// How often a failing `accept` is logged at the most.
    static let warningInterval: Duration = .seconds(10)

    /// What wakes the loop from its one `poll`, in the order to attend to them when several are
    /// ready at once: a stop asked for by another thread is seen before the signals are read,
    /// and nothing is accepted once a stop has begun. The passing of a deadline is no source:
    /// what is due is looked at on every pass, whatever woke the loop.
    package enum WakeUpSource: CaseIterable, Sendable {
        /// The doorbell (`Wake`, drained before this is returned): a connection ended, or
        /// another thread asked for something.
        case doorbell
        /// A signal is pending: read them with `nextSignal()`.
        case signal
        /// A client waits to be accepted: accept with `acceptPending`. The listening socket is
        /// polled only while accepting and not paused.
        case newConnection
    }

    package let listener: FileDescriptor
    package let signals: SignalDescriptor
    /// The main thread's doorbell, which connections and other threads ring.
    package let doorbell: Wake
    private let log: ServiceLog
    /// While `accept` lacks a resource: until when the listening socket is not polled.
    private var pausedUntil: MonotonicTime?
    /// When a failing `accept` was last logged.
    private var lastWarning: MonotonicTime?
    /// A connection's doorbell made before `accept` and not used yet. Made first, so that a
    /// server out of descriptors fails at that, leaving the waiting clients queued, rather than
    /// accept a connection it must drop for want of its doorbell.
    private var spare: Wake?

    package init(listener: FileDescriptor, signals: SignalDescriptor, doorbell: Wake, log: ServiceLog) {
        self.listener = listener
        self.signals = signals
        self.doorbell = doorbell
        self.log = log
    }

    /// Sleeps in one `poll` until a source is ready or `deadline` (nil: no limit) has passed,
    /// or the accept pause ends.
    /// - Parameter accepting: false once the program accepts no more (it is stopping).
    /// - Returns: the sources that are ready, in the order to attend to them; none at a deadline.
    package func wait(until deadline: MonotonicTime?, accepting: Bool) throws(Errno) -> [WakeUpSource] {
        if let paused = pausedUntil, MonotonicTime.now >= paused { pausedUntil = nil }
        let listening = accepting && pausedUntil == nil
        let sources = WakeUpSource.allCases.filter { listening || $0 != .newConnection }
        let descriptors = sources.map { source -> FileDescriptor in
            switch source {
            case .doorbell: doorbell.descriptor
            case .signal: signals.descriptor
            case .newConnection: listener
            }
        }
        let until = accepting ? MonotonicTime.earliest(deadline, pausedUntil) : deadline
        let ready = try Poll.readable(descriptors, milliseconds: until?.millisecondsFromNow)
        let woken = zip(sources, ready).compactMap { source, isReady in isReady ? source : nil }
        if woken.contains(.doorbell) { doorbell.drain() }
        return woken
    }

    /// The next pending signal's number; nil when none is pending.
    package func nextSignal() throws(Errno) -> Int32? {
        try signals.next()
    }

    /// Accepts every connection that waits, each with a doorbell of its own, and hands it to
    /// `serve`, which serves it, or refuses and closes it.
    /// - Parameters:
    ///   - nonBlocking: whether the connections' sockets are non-blocking (leitnerd's and
    ///     leitner-web's, which their threads poll with their deadlines) or blocking.
    ///   - hasRoom: whether one more can be served; when not, the rest stay queued in the kernel
    ///     (the listen backlog) until a place frees.
    ///   - serve: returns true when it kept the doorbell (the connection is served),
    ///   false when it closed the connection (the doorbell serves the next one).
    /// - Returns: the error that paused accepting (logged), nil when none waits any more.
    @discardableResult
    package func acceptPending(nonBlocking: Bool, while hasRoom: () -> Bool = { true },
                               _ serve: (FileDescriptor, Wake) -> Bool) -> Errno? {
        while hasRoom() {
            let connectionWake: Wake
            let socket: FileDescriptor
            do throws(Errno) {
                if let made = spare {
                    connectionWake = made
                } else {
                    connectionWake = try Wake()
                    spare = connectionWake
                }
                guard let accepted = try Socket.acceptPending(listener, nonBlocking: nonBlocking) else { return nil }
                socket = accepted
            } catch {
                pause(error)
                return error
            }
            if serve(socket, connectionWake) { spare = nil }
        }
        return nil
    }

    /// Leaves the listening socket out of the wait for `acceptPause`, and logs why once in 10 s.
    private func pause(_ failure: Errno) {
        let now = MonotonicTime.now
        pausedUntil = now + Self.acceptPause
        if lastWarning.map({ now - $0 >= Self.warningInterval }) ?? true {
            log.warning("cannot accept a connection: \(failure), pausing accepts for \(Self.acceptPause.logDescription) (logged once in 10 s)")
            lastWarning = now
        }
    }
}
