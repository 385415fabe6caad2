import Glibc
import Testing
@testable import LeitnerCore
@testable import LeitnerSystem
import LeitnerTestSupport

extension TemporaryDirectory {
    /// Writes a file with `mode` and returns its full path.
    @discardableResult
    func write(_ relative: String, _ text: String, mode: mode_t) -> String {
        write(relative, text)
        chmod(path + "/" + relative, mode)
        return path + "/" + relative
    }
}

@Suite struct ConfigurationLocatorTests {
    @Test func xdgDefaults() {
        let locator = ConfigurationLocator(
            environment: ["XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_RUNTIME_DIR": "/run/user/7"],
            uid: 7, home: "/home/a")
        #expect(locator.userConfigurationPath == "/c/leitner/leitner.conf")
        #expect(locator.defaultStorePath == "/d/leitner")
        #expect(locator.defaultSocketPath == "/run/user/7/leitner/leitnerd.sock")
    }

    @Test func homeDefaultsWithoutXDG() {
        let locator = ConfigurationLocator(environment: [:], uid: 1234, home: "/home/a")
        #expect(locator.userConfigurationPath == "/home/a/.config/leitner/leitner.conf")
        #expect(locator.defaultStorePath == "/home/a/.local/share/leitner")
        // docs/configuration.md: without XDG_RUNTIME_DIR, /tmp/leitner-UID/leitnerd.sock.
        #expect(locator.defaultSocketPath == "/tmp/leitner-1234/leitnerd.sock")
        #expect(locator.fallbackSocketDirectory == "/tmp/leitner-1234")
    }

    /// The XDG rule: empty or relative values are ignored.
    @Test func relativeXDGValuesAreIgnored() {
        let locator = ConfigurationLocator(
            environment: ["XDG_CONFIG_HOME": "conf", "XDG_DATA_HOME": "", "XDG_RUNTIME_DIR": "run"],
            uid: 5, home: "/")
        #expect(locator.userConfigurationPath == "/.config/leitner/leitner.conf")
        #expect(locator.defaultStorePath == "/.local/share/leitner")
        #expect(locator.defaultSocketPath == "/tmp/leitner-5/leitnerd.sock")
    }

    @Test func homeFromEnvironmentOrPasswordDatabase() {
        #expect(ConfigurationLocator(environment: ["HOME": "/h/x"]).home == "/h/x")
        #expect(ConfigurationLocator(environment: ["HOME": "rel"]).home.hasPrefix("/"))
        #expect(ConfigurationLocator(environment: [:]).uid == getuid())
    }

    @Test func executablesOnPath() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        directory.write("bin/xdg-open", "#!/bin/sh\n", mode: 0o755)
        directory.write("bin/plain", "", mode: 0o644)
        let locator = ConfigurationLocator(environment: ["PATH": "relative:/nonexistent:\(directory.path)/bin"],
                                           uid: 1, home: "/")
        #expect(locator.executableOnPath("xdg-open") == "\(directory.path)/bin/xdg-open")
        #expect(locator.executableOnPath("plain") == nil)
        #expect(locator.executableOnPath("missing") == nil)
        #expect(Configuration(defaultsFor: locator).viewer == "xdg-open")
        #expect(Configuration(defaultsFor: ConfigurationLocator(environment: [:], uid: 1, home: "/")).viewer == nil)
    }

    /// docs/configuration.md: the fallback directory is created 0700, and refused when another user owns it.
    @Test func privateDirectoryIsCreatedAndChecked() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let locator = ConfigurationLocator(environment: [:], uid: getuid(), home: "/")
        let socketDirectory = directory.path + "/leitner-\(getuid())"
        #expect(throws: ConfigurationError.cannotUseDirectory(path: socketDirectory, reason: "No such file or directory")) {
            try locator.preparePrivateDirectory(socketDirectory, create: false)
        }
        try locator.preparePrivateDirectory(socketDirectory, create: true)
        #expect(try FileSystem.status(socketDirectory, in: nil).st_mode & 0o7777 == 0o700)
        chmod(socketDirectory, 0o755)
        try locator.preparePrivateDirectory(socketDirectory, create: false)
        #expect(try FileSystem.status(socketDirectory, in: nil).st_mode & 0o7777 == 0o700)

        let other = ConfigurationLocator(environment: [:], uid: getuid() + 1, home: "/")
        #expect(throws: ConfigurationError.cannotUseDirectory(
            path: socketDirectory, reason: "owned by uid \(getuid()), not \(getuid() + 1)")) {
            try other.preparePrivateDirectory(socketDirectory, create: true)
        }
        let file = directory.write("plain", "", mode: 0o644)
        #expect(throws: ConfigurationError.cannotUseDirectory(path: file, reason: "not a directory")) {
            try locator.preparePrivateDirectory(file, create: true)
        }
        symlink(socketDirectory, directory.path + "/link")
        #expect(throws: ConfigurationError.cannotUseDirectory(path: directory.path + "/link", reason: "not a directory")) {
            try locator.preparePrivateDirectory(directory.path + "/link", create: false)
        }
        #expect(ConfigurationError.cannotUseDirectory(path: "/tmp/x", reason: "r").description == "cannot use '/tmp/x': r")
    }
}
