import ArgumentParser
import Foundation
import ShowreelRecorder
import ShowreelReport

/// `showreel reel`: the passing flows' videos of a run joined into one MP4 for a client.
struct ReelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reel",
        abstract: "Join a run's passing videos into one MP4 with a title card and a chapter per flow.",
        discussion:
            "Reads <folder>/manifest.json (written by `showreel run`) and keeps its order. Packets are copied without re-encoding when every video has the same codec and size."
    )

    @Argument(help: "A run's output folder (with manifest.json).")
    var folder = "Recordings"

    @Option(help: "The reel's file (default: <folder>/reel.mp4).")
    var output: String?

    func run() async throws {
        try await reportingFailures {
            let source = URL(fileURLWithPath: folder, isDirectory: true).standardizedFileURL
            let manifest: RunManifest
            do { manifest = try RunManifest.load(from: source.appendingPathComponent(RunManifest.fileName)) } catch {
                throw CLIFailure(message: "\(error) Run `showreel run` into \(folder) first.", exitCode: CLIFailure.Code.usage)
            }
            let target = output.map { URL(fileURLWithPath: $0) } ?? source.appendingPathComponent("reel.mp4")
            try Self.makeReel(from: manifest, folder: source, to: target, options: RecordingOptions())
        }
    }

    /// Writes the reel of `manifest`'s passing entries (videos relative to `folder`).
    static func makeReel(from manifest: RunManifest, folder: URL, to target: URL, options: RecordingOptions) throws {
        let clips = manifest.entries.filter { $0.status == .passed }.compactMap { entry in
            entry.video.map { ReelClip(title: entry.name, subtitle: nil, video: folder.appendingPathComponent($0)) }
        }
        guard !clips.isEmpty else {
            throw CLIFailure(message: "No passing flow has a video, so there is no reel to make.", exitCode: 1)
        }
        let summary: ReelSummary
        do { summary = try Reel.write(clips, to: target, options: options) } catch {
            throw CLIFailure(message: error.description, exitCode: CLIFailure.Code.writeFailed)
        }
        Console.out(
            String(
                format: "%@: %d chapters, %.1f s, %@", target.path, summary.chapters.count, summary.duration,
                summary.streamCopied ? "frames copied" : "encoded once"))
    }
}
