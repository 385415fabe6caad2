import Glibc
import LeitnerClient
import LeitnerSystem

/// Plays a card's audio side with `[Client] Player=` (by default the first of pw-play,
/// paplay, aplay, ffplay, mpv on `PATH`): one sound at a time, stopped when the next starts
/// or the review ends. A player that cannot play (no sound device, no sound server) says why
/// on its standard error and ends at once: that is kept, and said on the review's message line
/// (`ended()`), so that a key that plays never does nothing without a word.
final class AudioPlayer {
    let command: String?
    /// The player started last and not yet seen to end: its process, the file its standard error
    /// goes to, and whether a key asked for it (else the review played it by itself).
    private var playing: (pid: pid_t, log: String, asked: Bool)?
    /// What the players said when they could not play, each said once when the review played by
    /// itself (`AutoSpeak=`, an audio side shown), not at every card.
    private var said: Set<String> = []

    init(command: String?) { self.command = command }

    /// The name of the file in the review's private directory that a player's standard error
    /// goes to.
    static let logName = "player.log"

    /// The name of the program the command runs (`Player=`'s first word, without its directory).
    var program: String {
        command?.split(separator: " ").first.flatMap { $0.split(separator: "/").last }.map(String.init) ?? ""
    }

    /// Starts playing the file at `path`, stopping what played before; the player's standard
    /// error goes to `log`, emptied first.
    /// - Parameter asked: a key asked for it: what stops it from playing is said every time.
    /// - Returns: nil, or one line saying why nothing plays.
    func play(_ path: String, log: String, asked: Bool) -> String? {
        stop()
        guard let command, !command.isEmpty else {
            return "no audio player: install pipewire-bin, pulseaudio-utils, alsa-utils, ffmpeg or mpv, or set Player="
        }
        // The path is appended as one argument, whatever it holds.
        do {
            try FileDescriptor.open(log, flags: O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: 0o600).close()
            let pid = try DetachedProcess.spawn("/bin/sh", arguments: ["-c", command + " \"$1\"", "sh", path], logPath: log)
            playing = (pid, log, asked)
            return nil
        } catch {
            return "cannot start the player '\(command)': \(error)"
        }
    }

    /// Whether a player started is still to be seen ending (`ended()`).
    var isPlaying: Bool { playing != nil }

    /// Looks at the player without waiting: once it has ended having failed (an exit status
    /// other than 0), or having written on its standard error (ffplay ends with 0 when it found
    /// no sound device, and says so there), one line saying what it said; else nil.
    func ended() -> String? {
        guard let (pid, log, asked) = playing, let status = DetachedProcess.exitStatus(of: pid) else { return nil }
        playing = nil
        let words = lastLine(of: log)
        guard status != 0 || words != nil else { return nil }
        let note = status == 0 ? "no sound? \(program) said: \(words ?? "")"
            : "no sound: \(program) failed (exit status \(status))" + (words.map { ": " + $0 } ?? "")
        guard asked || said.insert(note).inserted else { return nil }
        return note + " (Player= picks the program)"
    }

    /// The last line that is not blank of the file at `path` (its last 4 KiB), if any.
    private func lastLine(of path: String) -> String? {
        guard let bytes = try? FileSystem.readFile(atPath: path, limit: 1 << 20) else { return nil }
        let line = String(decoding: bytes.suffix(4096), as: UTF8.self).split(whereSeparator: \.isNewline)
            .last { !$0.allSatisfy(\.isWhitespace) }
        return line.map { String($0.drop(while: \.isWhitespace)) }
    }

    /// Stops the sound playing, if any, and collects its process.
    func stop() {
        guard let (pid, _, _) = playing else { return }
        playing = nil
        // Its own session (DetachedProcess): the group is the shell and the player it started.
        // Half a second to end, then it is killed: the review does not hang on a stuck player.
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) != 0 { return }
            usleep(10_000)
        }
        kill(-pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}
