import Foundation

/// A picture or a video for a device's photo library, as `simctl addmedia` takes a file: its
/// name (whose extension says what it is) and its bytes (base64 in JSON).
public struct MediaFile: Codable, Sendable, Equatable {
    public var name: String
    public var data: Data
    public init(name: String, data: Data) { self.name = name; self.data = data }

    /// The extensions a library takes: pictures, then videos.
    package static let photoExtensions = ["png", "jpg", "jpeg"]
    package static let videoExtensions = ["mov", "mp4", "m4v"]

    /// What a library takes, as error messages say it.
    package static let takenKinds = "a picture (.png, .jpg, .jpeg) or a video (.mov, .mp4, .m4v)"

    /// Whether the file is a video (by its extension); nil for an extension the library does not take.
    package var isVideo: Bool? { Self.isVideo(name: name) }

    /// Whether a file named `name` is a video; nil when it is neither a picture nor a video.
    package static func isVideo(name: String) -> Bool? {
        let ext = (name as NSString).pathExtension.lowercased()
        if photoExtensions.contains(ext) { return false }
        if videoExtensions.contains(ext) { return true }
        return nil
    }

    /// Checks the name and the size; that the bytes decode is the device's to check.
    func validate() throws(AutomationInputError) {
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else {
            throw .outOfRange(field: "name", message: "must be a file name such as photo.png, got '\(name)'")
        }
        guard isVideo != nil else {
            throw .outOfRange(field: "name", message: "must name \(Self.takenKinds), got '\(name)'")
        }
        guard !data.isEmpty, data.count <= AutomationLimits.maxMediaBytes else {
            throw .outOfRange(
                field: "data", message: "must be 1 byte to \(AutomationLimits.maxMediaBytes >> 20) MiB, got \(data.count) bytes (\(name))")
        }
    }
}

extension MediaFile: AutomationBody {}

extension DeviceAction {
    /// `simctl addmedia`: a picture or a video into the device's photo library.
    package static func addMedia(_ file: MediaFile) -> DeviceAction { .system(.addMedia(file)) }
}

extension AutomationAPI.Routes {
    /// `simctl addmedia`: one file a request.
    package static let addMedia = Route(.post, "/v1/media")
}

extension AutomationLimits {
    /// The largest picture or video a library takes.
    package static let maxMediaBytes = 50 << 20
    /// The body that carries it: base64 is a third larger, and a little JSON around it.
    package static let maxMediaBodyBytes = (maxMediaBytes / 3 + 1) * 4 + (64 << 10)
}
