import ShowreelRender

/// The device's photo library: the pictures and videos added from outside (`simctl addmedia`),
/// newest first, as apps see them through the system's picker (`Screen.pickPhoto`).
public final class PhotoLibrary {
    /// One picture or video: its file's name, what it is, its size and a square thumbnail.
    public struct Asset: Sendable {
        public enum Kind: String, Sendable, Codable { case photo, video }
        public let name: String
        public let kind: Kind
        /// The picture's size in pixels (a video's first frame).
        public let pixelWidth: Int
        public let pixelHeight: Int
        /// A square crop of the middle of the picture, `Asset.thumbnailSide` pixels a side.
        public let thumbnail: PixelBuffer

        /// The asset of `picture` (a photo, or a video's first frame), its thumbnail cut from it.
        public init(name: String, kind: Kind, picture: PixelBuffer) {
            self.name = name
            self.kind = kind
            pixelWidth = picture.width
            pixelHeight = picture.height
            thumbnail = Self.thumbnail(of: picture)
        }

        /// Thumbnails' side in pixels: a grid cell at 3x, sharp enough for any profile.
        public static let thumbnailSide = 300

        /// The middle square of `picture`, scaled to `thumbnailSide` (as the Photos grid crops).
        static func thumbnail(of picture: PixelBuffer) -> PixelBuffer {
            let side = thumbnailSide
            let thumbnail = PixelBuffer(width: side, height: side, zeroed: false)
            let canvas = Canvas(pixels: thumbnail, scale: 1)
            canvas.clear(.black)
            let factor = max(Double(side) / Double(picture.width), Double(side) / Double(picture.height))
            let width = Double(picture.width) * factor, height = Double(picture.height) * factor
            canvas.draw(picture, in: Rect(x: (Double(side) - width) / 2, y: (Double(side) - height) / 2, width: width, height: height))
            canvas.finish()
            return thumbnail
        }
    }

    /// Newest first, as the picker shows them.
    public private(set) var assets: [Asset] = []

    public init() {}

    /// Adds an asset at the top of the library.
    public func add(_ asset: Asset) { assets.insert(asset, at: 0) }
}
