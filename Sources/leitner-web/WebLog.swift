import LeitnerSystem

/// leitner-web's log (`ServiceLog`): `leitner-web: …` on standard error, `<N>…` to the journal.
/// A request's text is never put in a line as it came: it could forge lines.
let WebLog = ServiceLog(program: "leitner-web")
