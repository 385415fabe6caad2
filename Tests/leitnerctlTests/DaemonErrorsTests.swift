import Testing
import LeitnerCore
import LeitnerProtocol
import LeitnerVarlink
import LeitnerSystem
@testable import leitnerctl

/// leitnerctl says what a store failure means from its errno alone: the reason is the C
/// library's words, for people, and is never searched.
@Suite struct DaemonErrorsTests {
    func said(_ errno: Errno?, reason: String = "cannot write: whatever the C library says") -> String {
        let error = BoxError.storeFailure(path: "/store/1/hola", reason: reason, errno: errno?.rawValue, operation: "write")
        return DaemonErrors.message(VarlinkCallError(name: error.varlinkName, parameters: error.varlinkParameters))
    }

    @Test func theErrnoDecides() {
        #expect(said(.readOnlyFileSystem).hasPrefix("the store is read-only: nothing was changed ('/store/1/hola': cannot write: "))
        #expect(said(.noSpace).hasPrefix("the store's disk is full: nothing was changed"))
        #expect(said(.quotaExceeded).hasPrefix("the store's disk is full: nothing was changed"))
        #expect(said(.permission).hasPrefix("no permission to change the store: nothing was changed"))
        #expect(said(.notPermitted).hasPrefix("no permission to change the store: nothing was changed"))
        #expect(said(.noEntry) == "the store failed: '/store/1/hola': cannot write: whatever the C library says")
    }

    /// The words alone decide nothing: an older daemon, which sends no errno, is said plainly.
    @Test func theReasonTextDecidesNothing() {
        #expect(said(nil, reason: "cannot write: No space left on device")
                == "the store failed: '/store/1/hola': cannot write: No space left on device")
        #expect(said(nil, reason: "cannot write: Read-only file system").hasPrefix("the store failed: "))
        #expect(said(.noSpace, reason: "cannot write: Read-only file system").hasPrefix("the store's disk is full"))
    }
}
