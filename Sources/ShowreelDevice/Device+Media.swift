import Foundation
import Logging
import ShowreelRecorder
import ShowreelRender
import ShowreelUI
import ShowreelWire

/// The device's photo library (`simctl addmedia`): files kept in the device's folder, pictures
/// and videos' first frames decoded for the picker's thumbnails.
extension Device {
    /// Where the library's files are kept, with the device's other state.
    package nonisolated var mediaFolder: URL { registry.directory(for: udid).appendingPathComponent("media", isDirectory: true) }

    /// Adds a picture or a video to the library: it is kept under its name (numbered when the
    /// name is taken) and shows first in the picker. A file that does not decode is refused,
    /// naming it, and not kept.
    package func addMedia(_ file: MediaFile) throws {
        try ensureBooted()
        guard let isVideo = file.isVideo else {
            throw DeviceError.invalidRequest("\(file.name) is not \(MediaFile.takenKinds).")
        }
        try FileManager.default.createDirectory(at: mediaFolder, withIntermediateDirectories: true)
        let url = Self.freeName(for: file.name, in: mediaFolder)
        try file.data.write(to: url)
        do {
            scene.photos.add(try Self.asset(at: url, isVideo: isVideo))
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw DeviceError.invalidRequest(
                "\(file.name) could not be read as a \(isVideo ? "video" : "picture") (\(error)): add PNG or JPEG pictures and MOV or MP4 videos."
            )
        }
        logger.info("added \(url.lastPathComponent) to the photo library")
        renderIfNeeded()
    }

    /// The names of the library's pictures and videos, newest first.
    package func mediaNames() -> [String] { scene.photos.assets.map(\.name) }

    /// The library's asset for the file at `url`: the picture, or the video's first frame.
    nonisolated static func asset(at url: URL, isVideo: Bool) throws -> PhotoLibrary.Asset {
        guard let first = try FrameDecoder.decodeFrames(url, limit: 1).first else {
            throw DeviceError.invalidRequest("no picture in it")
        }
        return PhotoLibrary.Asset(name: url.lastPathComponent, kind: isVideo ? .video : .photo, picture: first.pixels)
    }

    /// The library a device booted again finds in its folder, oldest first (files that no longer
    /// decode are left out).
    nonisolated static func keptMedia(in folder: URL) -> [PhotoLibrary.Asset] {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.creationDateKey])) ?? []
        return files.sorted { $0.lastPathComponent < $1.lastPathComponent }.compactMap { url in
            MediaFile.isVideo(name: url.lastPathComponent).flatMap { try? asset(at: url, isVideo: $0) }
        }
    }

    /// `name` in `folder`, or "name 2.ext", "name 3.ext", ... when it is taken.
    nonisolated static func freeName(for name: String, in folder: URL) -> URL {
        let base = (name as NSString).deletingPathExtension, ext = (name as NSString).pathExtension
        var url = folder.appendingPathComponent(name)
        var number = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = folder.appendingPathComponent("\(base) \(number).\(ext)")
            number += 1
        }
        return url
    }
}
