import Foundation

/// A screen class App Store Connect takes app previews for, with its exact size: portrait, or
/// the same screen on its side (App Store Connect takes either shape; record a landscape one on a
/// device turned with `setOrientation` before the recording starts).
package enum AppStorePreviewClass: String, CaseIterable, Sendable, Codable {
    /// 6.9" and 6.5" iPhones: 886x1920.
    case iphone69 = "iphone-6.9"
    /// 5.5" iPhones: 1080x1920.
    case iphone55 = "iphone-5.5"
    /// 12.9" and 13" iPads: 1200x1600.
    case ipad13 = "ipad-13"
    /// The same screens on their side: 1920x886, 1920x1080, 1600x1200.
    case iphone69Landscape = "iphone-6.9-landscape"
    case iphone55Landscape = "iphone-5.5-landscape"
    case ipad13Landscape = "ipad-13-landscape"

    /// The class's screen upright (itself for a portrait class).
    package var portrait: AppStorePreviewClass {
        switch self {
        case .iphone69, .iphone69Landscape: .iphone69
        case .iphone55, .iphone55Landscape: .iphone55
        case .ipad13, .ipad13Landscape: .ipad13
        }
    }

    /// Whether the preview is wider than tall.
    package var isLandscape: Bool { self != portrait }

    /// Width in pixels.
    package var width: Int { isLandscape ? portraitHeight : portraitWidth }

    /// Height in pixels.
    package var height: Int { isLandscape ? portraitWidth : portraitHeight }

    private var portraitWidth: Int {
        switch portrait {
        case .iphone55: 1080
        case .ipad13: 1200
        default: 886
        }
    }

    private var portraitHeight: Int { portrait == .ipad13 ? 1600 : 1920 }

    /// Width over height.
    package var aspect: Double { Double(width) / Double(height) }

    /// The size as "886x1920".
    package var size: String { "\(width)x\(height)" }

    /// How far `width` x `height` is from this class's shape, as a fraction (0.01 is 1%).
    package func aspectDifference(width: Int, height: Int) -> Double {
        guard width > 0, height > 0 else { return .infinity }
        return abs(Double(width) / Double(height) / aspect - 1)
    }

    /// Whether a `width` x `height` picture scales to this class without bars: within 1% of
    /// its shape.
    package func fits(width: Int, height: Int) -> Bool {
        aspectDifference(width: width, height: height) <= AppStorePreviewRules.aspectTolerance
    }

    /// The class whose shape `width` x `height` is closest to.
    package static func nearest(width: Int, height: Int) -> AppStorePreviewClass {
        allCases.min { $0.aspectDifference(width: width, height: height) < $1.aspectDifference(width: width, height: height) }!
    }

    /// The names, as the CLI lists them: "iphone-6.9, iphone-5.5, ipad-13".
    package static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// App Store Connect's app preview specification, as the encoder meets it and the checker
/// tests it.
package enum AppStorePreviewRules {
    /// Frames a second, constant.
    package static let frameRate = 30
    /// The video's bit rate, bits a second.
    package static let bitRates = 10_000_000...12_000_000
    /// What the encoder aims at: the middle of the range.
    package static let targetBitRate = 11_000_000
    /// Length in seconds.
    package static let durations = 15.0...30.0
    /// At most this many bytes.
    package static let maximumBytes: Int64 = 500_000_000
    /// AAC audio, stereo, at this rate.
    package static let audioSampleRate = 48_000
    package static let audioChannels = 2
    /// A source this close to a class's shape is scaled to it; one further off is refused.
    package static let aspectTolerance = 0.01
    /// A preview's length may be off by this much (a frame and a bit of audio priming).
    package static let durationSlack = 0.05
}
