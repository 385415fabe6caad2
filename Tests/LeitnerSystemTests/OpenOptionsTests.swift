import Glibc
import Testing
@testable import LeitnerSystem
import LeitnerTestSupport

/// The typed options of `FileDescriptor.open` are the flags of open(2) they name, so that a
/// caller needs no C constant and gets the kernel's errors as before.
@Suite struct OpenOptionsTests {
    @Test func theOptionsAreTheFlags() {
        let options: FileDescriptor.OpenOptions = [.create, .exclusive, .truncate, .append, .noFollow, .nonBlocking, .directory]
        #expect(options.rawValue == O_CREAT | O_EXCL | O_TRUNC | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_DIRECTORY)
    }

    @Test func exclusiveRefusesAnExistingNameAndNoFollowALink() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let directory = try FileDescriptor.openDirectory(dir.path)
        defer { directory.close() }
        let made = try FileDescriptor.open("a", relativeTo: directory, .writeOnly, options: [.create, .exclusive])
        try made.writeAll(Array("one".utf8))
        made.close()
        #expect(throws: Errno.exists) { try FileDescriptor.open("a", relativeTo: directory, .writeOnly, options: [.create, .exclusive]) }
        #expect(symlink("a", dir.path + "/link") == 0)
        #expect(throws: Errno.tooManyLinks) { try FileDescriptor.open("link", relativeTo: directory, .readOnly, options: .noFollow) }
        let read = try FileDescriptor.open("a", relativeTo: directory, .readOnly)
        defer { read.close() }
        #expect(try read.readAll() == Array("one".utf8))
        #expect(try read.status().kind == .file && read.status().isRegularFile)
        #expect(try FileSystem.status("link", in: directory).kind == .symlink)
        #expect(try directory.status().isDirectory)
    }
}
