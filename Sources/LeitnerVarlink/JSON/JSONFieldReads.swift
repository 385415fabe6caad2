#if LEITNER_TEST_HOOKS
import Synchronization

/// The members a decoder read, by dotted path (`card.front.text`), so that a unit test can check
/// them against the interface text: a decoder that reads a member the interface does not
/// declare would decode nothing from a real daemon. Compiled only into test builds; bound to
/// one task, so that tests running beside each other do not mix their records.
package final class JSONFieldReads: Sendable {
    @TaskLocal package static var current: JSONFieldReads?

    private let paths = Mutex<[String]>([])

    package init() {}

    /// Notes that the member at `path` was read.
    func record(_ path: String) {
        paths.withLock { $0.append(path) }
    }

    /// Every path read, in order.
    package var recorded: [String] { paths.withLock { $0 } }
}
#endif
