import ArgumentParser
import Foundation

/// How an App Store preview is fitted to 15-30 s and what it sounds like: `preview`'s options,
/// and `run`'s for `--app-store-previews`.
struct PreviewFittingOptions: ParsableArguments {
    @Flag(help: "App Store previews: hold the last frame of a video shorter than 15 s until 15 s.")
    var holdLast = false

    @Flag(help: "App Store previews: keep the first 30 s of a video longer than 30 s.")
    var trim = false

    @Option(help: "App Store previews: a sound file for the audio track (default: silence).")
    var audio: String?

    /// The sound file, checked to exist (a usage error otherwise).
    func audioFile() throws -> URL? {
        guard let audio else { return nil }
        guard FileManager.default.fileExists(atPath: audio) else {
            throw CLIFailure(message: "The --audio file \(audio) does not exist.", exitCode: CLIFailure.Code.usage)
        }
        return URL(fileURLWithPath: audio)
    }
}
