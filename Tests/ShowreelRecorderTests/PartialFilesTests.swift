import Foundation
import Logging
import ShowreelGraphics
import ShowreelRecorder
import ShowreelTestSupport
import ShowreelWire
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Partial files a killed writer left are removed by the next recording into their folder; a
/// partial file some live process still writes (or finishes) is never touched.
@Suite("Stale partial files")
struct PartialFilesTests {
    static let logger = Logger(label: "test.partials")

    @Test("only the partial files no live process holds are removed: a killed writer's, not a running one's")
    func removesOnlyDeadWriters() async throws {
        let workspace = try Workspace()
        let folder = workspace.file("videos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func touch(_ name: String) -> URL {
            let url = folder.appendingPathComponent(name)
            FileManager.default.createFile(atPath: url.path, contents: Data("x".utf8))
            return url
        }
        for name in [".dead.partial.mov", ".dead.steps.mov", ".live.steps.mov", "shown.partial.mov", ".notes.txt", "done.mov"] {
            _ = touch(name)
        }
        // Held in this process, as a recording's writer holds its file.
        let live = try #require(WriterLock(folder.appendingPathComponent(".live.partial.mov"), creating: true))
        // Held by another process (util-linux's flock), which is then killed with SIGKILL.
        let other = touch(".other.partial.mp4")
        let holder = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/flock"), ["--shared", "--no-fork", other.path, "/bin/sleep", "300"],
            environment: workspace.environment, in: workspace, name: "holder")
        // Killed below; on an early exit the ChildProcess's deinit kills it.
        try await eventually("the other process's lock") { Self.isHeld(other) }

        let removed = PartialFiles.removeStale(in: folder, logger: Self.logger)
        #expect(removed == [".dead.partial.mov", ".dead.steps.mov"])
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == [".live.partial.mov", ".live.steps.mov", ".notes.txt", ".other.partial.mp4", "done.mov", "shown.partial.mov"])

        holder.signal(SIGKILL)
        _ = try await holder.waitForExit()
        live.release()
        // A process another test forks at this moment holds this process's open files until it
        // execs (they close on exec): the locks are free once no one holds them, soon.
        let (held, other2) = (folder.appendingPathComponent(".live.partial.mov"), other)
        try await eventually("the released locks") { !Self.isHeld(held) && !Self.isHeld(other2) }
        let second = PartialFiles.removeStale(in: folder, logger: Self.logger)
        #expect(second == [".live.partial.mov", ".live.steps.mov", ".other.partial.mp4"])
    }

    @Test("a staged recording claims its partial file: a cleaning meanwhile leaves it, and the video is whole")
    func recordingKeepsItsClaim() async throws {
        let workspace = try Workspace()
        let video = workspace.file("clip.mov")
        let info = DisplayInfo(udid: "test", deviceName: "Test", profile: StepTracksTests.profile, clock: .virtual)
        let session = try RecordingSession(url: video, info: info, options: RecordingOptions(scale: 1))
        let partial = workspace.file(".clip.partial.mov")
        #expect(FileManager.default.fileExists(atPath: partial.path))
        #expect(PartialFiles.removeStale(in: workspace.url, logger: Self.logger).isEmpty)
        #expect(Self.isHeld(partial))
        session.receive(.frame(Frame(pixels: PixelBuffer(width: 320, height: 240), presentationTime: .zero)))
        session.receive(.end(stopTime: .seconds(1), reason: .stopRequested))
        let summary = try await offPool { try session.finish() }
        #expect(abs(summary.duration.seconds - 1) < 0.05)
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        #expect(!Self.isHeld(video), "the claim ends with the recording")
    }

    /// Whether some process holds a lock on `url` (an exclusive one cannot be had).
    static func isHeld(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return flock(fd, LOCK_EX | LOCK_NB) != 0
    }
}
