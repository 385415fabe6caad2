import Glibc
import Testing
@testable import LeitnerSystem
import LeitnerTestSupport

/// `Errno` is what every failed system call becomes, and its text is what a `StoreFailure`'s
/// reason ends with (docs/store-format.md): it must be the C library's words, whole.
@Suite struct ErrnoTests {
    @Test func descriptionIsTheCLibrarysText() {
        #expect(Errno.noEntry.description == "No such file or directory")
        #expect(Errno.isDirectory.description == "Is a directory")
        #expect(Errno.tooManyLinks.description == "Too many levels of symbolic links")
        #expect(Errno.noSpace.description == "No space left on device")
        #expect(Errno.permission.description == "Permission denied")
        #expect("\(Errno(rawValue: EFBIG))" == "File too large")
    }

    /// The text is copied out of `strerror`'s buffer byte for byte: no terminating NUL, nothing cut.
    @Test(arguments: [EPERM, ENOENT, EINTR, EAGAIN, EEXIST, ENOTDIR, EISDIR, EINVAL, ENOSPC, ELOOP, ENOTEMPTY, ESPIPE])
    func descriptionMatchesStrerrorForEveryCode(_ code: Int32) {
        let expected = String(cString: strerror(code))
        let text = Errno(rawValue: code).description
        #expect(text == expected)
        #expect(!text.utf8.contains(0))
        #expect(!text.isEmpty)
    }

    /// A code the C library does not know still gets a text naming the number.
    @Test func anUnknownCodeIsNamedByItsNumber() {
        #expect(Errno(rawValue: 4321).description.contains("4321"))
    }

    #if LEITNER_TEST_HOOKS
    /// -1 is no `errno`: in test builds it is the simulated crash of the atomicity tests
    /// (docs/rules.md, R18), and its text says so rather than "Unknown error -1".
    @Test func minusOneIsTheSimulatedCrash() {
        #expect(Errno(rawValue: -1).description == "simulated crash")
        #expect(CrashPoint.crashed == Errno(rawValue: -1))
        #expect(CrashPoint.crashed.description == "simulated crash")
    }
    #endif

    @Test func namedConstantsHaveTheirCodes() {
        #expect(Errno.noEntry.rawValue == ENOENT)
        #expect(Errno.exists.rawValue == EEXIST)
        #expect(Errno.notEmpty.rawValue == ENOTEMPTY)
        #expect(Errno.wouldBlock.rawValue == EAGAIN)
        #expect(Errno.wouldBlock.rawValue == EWOULDBLOCK)
        #expect(Errno.interrupted.rawValue == EINTR)
        #expect(Errno.notDirectory.rawValue == ENOTDIR)
        #expect(Errno.isDirectory.rawValue == EISDIR)
        // What O_NOFOLLOW answers for a link, not EMLINK.
        #expect(Errno.tooManyLinks.rawValue == ELOOP)
        #expect(Errno.noSpace.rawValue == ENOSPC)
        #expect(Errno.permission.rawValue == EACCES)
    }

    @Test func equalityIsByCode() {
        #expect(Errno(rawValue: ENOENT) == .noEntry)
        #expect(Errno(rawValue: ENOENT) != .exists)
        let named: [Errno] = [.noEntry, .exists, .notEmpty, .wouldBlock, .interrupted, .notDirectory,
                              .isDirectory, .tooManyLinks, .noSpace, .permission]
        #expect(Set(named.map(\.rawValue)).count == named.count, "no two names share a code")
    }

    @Test func currentReadsTheThreadsErrno() {
        errno = EACCES
        #expect(Errno.current == .permission)
        errno = ENOSPC
        #expect(Errno.current == .noSpace)
    }

    /// Callers catch it as any error and find the code again (the store's `catch` clauses do).
    @Test func isAnErrorThatCanBeCaughtAndMatched() {
        func fail() throws { throw Errno.exists }
        do {
            try fail()
            Issue.record("nothing thrown")
        } catch let error as Errno {
            #expect(error == .exists)
        } catch {
            Issue.record("thrown as \(type(of: error))")
        }
    }

    // MARK: valueOrErrno / nothingOrErrno

    @Test func aResultOtherThanMinusOneIsReturned() throws {
        #expect(try valueOrErrno { Int32(0) } == 0)
        #expect(try valueOrErrno { 42 } == 42)
        // Only -1 means failure: any other result, negative or not, is the call's value.
        #expect(try valueOrErrno { Int64(-2) } == -2)
    }

    @Test func minusOneThrowsTheErrnoItLeft() {
        var calls = 0
        #expect(throws: Errno.noSpace) {
            try valueOrErrno { () -> Int in
                calls += 1
                errno = ENOSPC
                return -1
            }
        }
        #expect(calls == 1, "an error other than EINTR is not retried")
    }

    /// A signal arriving in the middle of a call makes it fail with EINTR: it is simply made again.
    @Test func interruptedCallsAreRetriedUntilTheyAnswer() throws {
        var calls = 0
        let result = try valueOrErrno { () -> Int32 in
            calls += 1
            if calls < 4 {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 4)
    }

    @Test func anInterruptedCallThatThenFailsThrowsTheLaterError() {
        var calls = 0
        #expect(throws: Errno.noEntry) {
            try valueOrErrno { () -> Int in
                calls += 1
                errno = calls == 1 ? EINTR : ENOENT
                return -1
            }
        }
        #expect(calls == 2)
    }

    @Test func aRealFailingCallThrowsItsErrno() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: Errno.noEntry) {
            try valueOrErrno { open(dir.path + "/missing", O_RDONLY) }
        }
        #expect(throws: Errno.exists) {
            try valueOrErrno { mkdir(dir.path, 0o755) }
        }
    }

    @Test func nothingOrErrnoThrowsOnlyOnMinusOne() throws {
        var calls = 0
        try nothingOrErrno { () -> Int32 in
            calls += 1
            return 5
        }
        #expect(calls == 1)
        #expect(throws: Errno.notEmpty) {
            try nothingOrErrno { () -> Int32 in
                errno = ENOTEMPTY
                return -1
            }
        }
        var interrupted = 0
        try nothingOrErrno { () -> Int32 in
            interrupted += 1
            if interrupted == 1 { errno = EINTR; return -1 }
            return 0
        }
        #expect(interrupted == 2)
    }
}
