import LeitnerCore
import LeitnerSystem

/// The daemon's log (`ServiceLog`): `leitnerd: …` on standard error, `<N>…` to the journal, and
/// each line with its time in a file, the log of a daemon leitnerctl started (docs/daemon.md).
/// Capitalized as the namespace it replaces: a `log` would shadow the C library's logarithm.
let Log = ServiceLog(program: "leitnerd", clock: { DayClock.rfc3339(SystemClock().now()) })
