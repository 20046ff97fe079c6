import ArgumentParser
import Foundation
import ShowreelFlows
import ShowreelRecorder
import ShowreelReport

/// `showreel preview`: App Store app previews made from videos or a run's folder, and any file
/// checked against the same rules.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Make App Store app previews from videos or a run, or check files against Apple's rules.",
        discussion: """
            A preview is the class's exact size (iphone-6.9: 886x1920, iphone-5.5: 1080x1920, \
            ipad-13: 1200x1600; each with -landscape: the same on its side, 1920x886, 1920x1080, 1600x1200), H.264 High at a constant 30 fps and 11 Mbps, an AAC stereo 48 kHz track \
            (silent unless --audio), 15 to 30 s, moov first, and opens on the app. A video within 1% of \
            the class's shape is scaled to it; one further off is refused, never letterboxed; one too \
            short or too long is refused unless --hold-last or --trim. Given a run's folder, every \
            passing video whose device has the class's shape gets a preview in <folder>/app-store-previews/. \
            Exit status: 0 when every preview was made (with --check: every file meets every rule), 1 \
            when one was refused or could not be made (with --check: a file breaks a rule, one line \
            per rule), 64 for a usage error.
            """)

    @Argument(help: "Videos, or a run's output folder (with manifest.json); with --check, the files to check.")
    var inputs: [String]

    @Option(name: .customLong("class"), help: "The App Store preview class (its exact size is in the discussion above).")
    var previewClass: AppStorePreviewClass?

    @Option(help: "Where the previews go (default: beside each video; for a run, <folder>/app-store-previews).")
    var output: String?

    @OptionGroup var fitting: PreviewFittingOptions

    @Flag(help: "Check the files against the preview rules instead of making previews (any file, not only Showreel's).")
    var check = false

    func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name a video or a run's folder (with --check: the files to check).") }
        if !check, previewClass == nil {
            throw ValidationError("Choose the preview's --class: \(AppStorePreviewClass.names).")
        }
    }

    func run() async throws {
        try await reportingFailures {
            for input in inputs where !FileManager.default.fileExists(atPath: input) {
                throw CLIFailure(message: "\(input) does not exist: name a video or a run's folder.", exitCode: CLIFailure.Code.usage)
            }
            if check { return try checkFiles() }
            try makePreviews()
        }
    }

    private func checkFiles() throws {
        var broken = 0
        for input in inputs {
            let url = URL(fileURLWithPath: input)
            do {
                let problems = try AppStorePreviewCheck.problems(of: url, previewClass: previewClass)
                if problems.isEmpty { Console.out("\(input): meets the App Store app preview rules") }
                for problem in problems { Console.out("\(input): \(problem.message)") }
                if !problems.isEmpty { broken += 1 }
            } catch {
                Console.out("\(input): cannot be read as a video: \(error.description)")
                broken += 1
            }
        }
        if broken > 0 { throw ExitCode(1) }
    }

    private func makePreviews() throws {
        guard let previewClass else { return }
        let options = AppStorePreviewOptions(
            previewClass: previewClass, holdsLast: fitting.holdLast, trims: fitting.trim,
            audio: try fitting.audioFile())
        var made = 0, refused = 0
        for input in inputs {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: input, isDirectory: &isFolder)
            let sources = isFolder.boolValue ? try runVideos(in: input, previewClass: previewClass) : [(URL(fileURLWithPath: input), nil)]
            let defaultFolder =
                isFolder.boolValue
                ? URL(fileURLWithPath: input).appendingPathComponent(AppStorePreviewPlan.folder)
                : URL(fileURLWithPath: input).deletingLastPathComponent()
            let folder = output.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? defaultFolder
            for (video, cell) in sources {
                let target = folder.appendingPathComponent(
                    AppStorePreviewPlan.fileName(video: video.path, cell: cell, previewClass: previewClass))
                do {
                    let summary = try AppStorePreview.make(from: video, to: target, options: options)
                    Console.out(String(format: "%@: %@, %.1f s", target.path, previewClass.size, summary.duration))
                    made += 1
                } catch {
                    Console.status("error: \(error.description)")
                    refused += 1
                }
            }
        }
        if refused > 0 {
            Console.status("\(refused) of \(made + refused) \(made + refused == 1 ? "preview was" : "previews were") not made.")
            throw ExitCode(1)
        }
    }

    /// The passing videos of the run in `folder` whose device has the class's shape.
    private func runVideos(in folder: String, previewClass: AppStorePreviewClass) throws -> [(URL, RunCell?)] {
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        let manifest: RunManifest
        do { manifest = try RunManifest.load(from: root.appendingPathComponent(RunManifest.fileName)) } catch {
            throw CLIFailure(message: "\(error) Name a video, or a folder `showreel run` wrote.", exitCode: CLIFailure.Code.usage)
        }
        var videos: [(URL, RunCell?)] = []
        for entry in manifest.entries where entry.status == .passed {
            guard let video = entry.video else { continue }
            let url = root.appendingPathComponent(video)
            guard let info = try? MediaProbe.probe(url), previewClass.fits(width: info.width, height: info.height) else {
                Console.status("\(video): not of the \(previewClass.rawValue) shape, skipped")
                continue
            }
            videos.append((url, entry.cell))
        }
        guard !videos.isEmpty else {
            throw CLIFailure(
                message: "No passing video in \(folder) has the shape of \(previewClass.rawValue) previews (\(previewClass.size)): "
                    + "run the flows on a device of that shape (--device), or choose another --class.", exitCode: 1)
        }
        return videos
    }
}

extension AppStorePreviewClass: ExpressibleByArgument {}
