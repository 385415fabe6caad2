import Glibc
import LeitnerClient
import LeitnerSystem

/// Plays a card's audio side with `[Client] Player=` (by default the first of pw-play,
/// paplay, aplay, ffplay, mpv on `PATH`): one sound at a time, stopped when the next starts
/// or the review ends.
final class AudioPlayer {
    let command: String?
    private var playing: pid_t?

    init(command: String?) { self.command = command }

    /// Starts playing the file at `path`, stopping what played before.
    /// - Returns: nil, or one line saying why nothing plays.
    func play(_ path: String) -> String? {
        stop()
        guard let command, !command.isEmpty else {
            return "no audio player: install pipewire-bin, pulseaudio-utils, alsa-utils, ffmpeg or mpv, or set Player="
        }
        // The path is appended as one argument, whatever it holds.
        do {
            playing = try DetachedProcess.spawn("/bin/sh", arguments: ["-c", command + " \"$1\"", "sh", path],
                                                logPath: "/dev/null")
            return nil
        } catch {
            return "cannot start the player '\(command)': \(error)"
        }
    }

    /// Stops the sound playing, if any, and collects its process.
    func stop() {
        guard let pid = playing else { return }
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
