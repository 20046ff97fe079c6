import CFFmpeg
import Foundation
import Logging

/// What an app preview is made to.
package struct AppStorePreviewOptions: Sendable {
    package var previewClass: AppStorePreviewClass
    /// A video shorter than 15 s holds its last frame until 15 s instead of being refused.
    package var holdsLast: Bool
    /// A video longer than 30 s keeps its first 30 s instead of being refused.
    package var trims: Bool
    /// The sound (any file FFmpeg reads with an audio stream), or nil for a silent track.
    package var audio: URL?

    package init(previewClass: AppStorePreviewClass, holdsLast: Bool = false, trims: Bool = false, audio: URL? = nil) {
        self.previewClass = previewClass
        self.holdsLast = holdsLast
        self.trims = trims
        self.audio = audio
    }
}

/// A preview written.
package struct AppStorePreviewSummary: Sendable, Equatable {
    package var url: URL
    package var previewClass: AppStorePreviewClass
    /// Seconds.
    package var duration: Double
    /// How long the source was, in seconds (before holding or trimming).
    package var sourceDuration: Double
}

/// Why a video cannot become an app preview: what it is, and what to do.
package enum AppStorePreviewError: Error, CustomStringConvertible, Equatable, Sendable {
    case wrongShape(file: String, width: Int, height: Int, previewClass: AppStorePreviewClass)
    case tooShort(file: String, seconds: Double)
    case tooLong(file: String, seconds: Double)
    case startsFlat(file: String, colour: String)
    case recorder(RecorderError)

    package var description: String {
        switch self {
        case let .wrongShape(file, width, height, previewClass):
            let off = previewClass.aspectDifference(width: width, height: height) * 100
            let nearest = AppStorePreviewClass.nearest(width: width, height: height)
            let instead = nearest.fits(width: width, height: height) ? "; it fits --class \(nearest.rawValue)" : ""
            return "\(file) is \(width)x\(height), \(String(format: "%.1f", off))% off the shape of \(previewClass.rawValue) previews "
                + "(\(previewClass.size)), and a preview is never letterboxed: record it on a device of that shape "
                + "(\(Self.deviceHint(previewClass)))\(instead)."
        case let .tooShort(file, seconds):
            return "\(file) lasts \(String(format: "%.1f", seconds)) s; an app preview lasts 15 to 30 s: "
                + "add --hold-last to hold its last frame until 15 s, or record a longer flow."
        case let .tooLong(file, seconds):
            return "\(file) lasts \(String(format: "%.1f", seconds)) s; an app preview lasts 15 to 30 s: "
                + "add --trim to keep its first 30 s, or record a shorter flow."
        case let .startsFlat(file, colour):
            return
                "\(file) starts on a \(colour == "a single colour" ? "flat" : colour) frame; App Store review wants the first frame in the app: "
                + "record it again (Showreel's recordings start on the app's first drawn screen)."
        case let .recorder(error):
            return error.description
        }
    }

    /// The device profile whose screen has the class's shape.
    static func deviceHint(_ previewClass: AppStorePreviewClass) -> String {
        let profile =
            switch previewClass.portrait {
            case .iphone55: "the phone-5.5 profile; phone-small has it too"
            case .ipad13: "the tablet-13 profile"
            default: "the phone-6.9 profile; phone has it too"
            }
        return previewClass.isLandscape ? profile + ", turned landscape before recording (setOrientation)" : profile
    }
}

/// Makes App Store app previews from videos (see `AppStorePreviewRules`): the picture scaled to
/// the class's exact size, every frame on a constant 30 fps clock, a sound track, moov first.
package enum AppStorePreview {
    /// Writes `source` as a preview at `destination` (.mp4, .mov or .m4v), under a hidden partial
    /// name until complete. Refuses a source whose shape is more than 1% off the class's, one
    /// outside 15-30 s (unless `holdsLast` or `trims`), and one that starts on a flat frame.
    @discardableResult
    package static func make(
        from source: URL, to destination: URL, options: AppStorePreviewOptions,
        logger: Logger = Logger(label: "showreel.preview")
    ) throws(AppStorePreviewError) -> AppStorePreviewSummary {
        try make(from: source, to: destination, options: options, checksFirstFrame: true, logger: logger)
    }

    /// `checksFirstFrame: false` lets a flat first frame through: for tests that need a file
    /// breaking that rule alone.
    static func make(
        from source: URL, to destination: URL, options: AppStorePreviewOptions, checksFirstFrame: Bool,
        logger: Logger
    ) throws(AppStorePreviewError) -> AppStorePreviewSummary {
        let name = source.lastPathComponent
        let info: MediaInfo
        do { info = try MediaProbe.probe(source) } catch { throw .recorder(error) }
        let previewClass = options.previewClass
        guard previewClass.fits(width: info.width, height: info.height) else {
            throw .wrongShape(file: name, width: info.width, height: info.height, previewClass: previewClass)
        }
        let rules = AppStorePreviewRules.durations
        if info.duration < rules.lowerBound, !options.holdsLast { throw .tooShort(file: name, seconds: info.duration) }
        if info.duration > rules.upperBound, !options.trims { throw .tooLong(file: name, seconds: info.duration) }
        let length = min(max(info.duration, rules.lowerBound), rules.upperBound)
        let totalTicks = Int64((length * Double(AppStorePreviewRules.frameRate)).rounded())

        let staging = StagedFile(destination)
        do {
            try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .recorder(.cannotCreateFile(file: destination.path, message: error.localizedDescription))
        }
        let claim = staging.claim(logger: logger)
        defer { claim?.release() }
        do {
            if let colour = try write(
                source, to: staging.partial, options: options, totalTicks: totalTicks, checksFirstFrame: checksFirstFrame)
            {
                staging.abandon()
                throw AppStorePreviewError.startsFlat(file: name, colour: colour)
            }
            try staging.commit()
        } catch let error as AppStorePreviewError {
            throw error
        } catch let error as RecorderError {
            staging.abandon()
            throw .recorder(error)
        } catch {
            staging.abandon()
            throw .recorder(.writeFailed(file: destination.path, message: "\(error)"))
        }
        logger.debug("app preview written", metadata: ["file": "\(destination.path)", "class": "\(previewClass.rawValue)"])
        return AppStorePreviewSummary(
            url: destination, previewClass: previewClass,
            duration: Double(totalTicks) / Double(AppStorePreviewRules.frameRate),
            sourceDuration: info.duration)
    }

    /// Encodes the preview; returns the colour of the source's first frame, writing nothing
    /// more, when that frame is flat.
    private static func write(
        _ source: URL, to partial: URL, options: AppStorePreviewOptions,
        totalTicks: Int64, checksFirstFrame: Bool
    ) throws(RecorderError) -> String? {
        let sound = try AppStorePreviewAudio(file: options.audio)
        let input = try MediaInput(url: source)
        let colour = withExtendedLifetime(input) { ColourTags(of: input.stream.pointee.codecpar.pointee) }
        let writer = try AppStorePreviewWriter(url: partial, previewClass: options.previewClass, colour: colour, sound: sound)
        var heldTick: Int64?
        var failure: RecorderError?
        var flat: String?
        let converter = PixelConverter(precise: true)
        try FrameDecoder.forEachTickFrame(source, ticksPerSecond: Double(AppStorePreviewRules.frameRate)) { frame, tick in
            do throws(RecorderError) {
                if heldTick == nil, checksFirstFrame, let pixels = converter.bgraBuffer(from: frame),
                    let colour = PictureUniformity.flatColour(of: pixels)
                {
                    flat = colour
                    return false
                }
                // The picture before this one stays on screen until this one's tick.
                if heldTick != nil { try writer.send(ticks: min(tick, totalTicks) - writer.ticks) }
                guard tick < totalTicks else { return false }
                try writer.setPicture(frame)
                heldTick = tick
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        if let flat { return flat }
        guard heldTick != nil else { throw .noFrames(file: source.path) }
        try writer.send(ticks: totalTicks - writer.ticks)
        try writer.finish()
        return nil
    }
}
