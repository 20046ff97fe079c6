import Foundation
import ShowreelRender
import ShowreelTestSupport
import Testing

@testable import ShowreelRecorder

/// The App Store's landscape preview classes: the portrait sizes on their side.
@Suite("App Store previews in landscape")
struct LandscapePreviewTests {
    @Test("each landscape class is its portrait class on its side; a landscape video's nearest class is landscape")
    func classes() {
        for previewClass in AppStorePreviewClass.allCases where previewClass.isLandscape {
            #expect(previewClass.width == previewClass.portrait.height && previewClass.height == previewClass.portrait.width)
        }
        #expect(AppStorePreviewClass.iphone69Landscape.size == "1920x886")
        #expect(AppStorePreviewClass.nearest(width: 1912, height: 880) == .iphone69Landscape)
        #expect(AppStorePreviewClass.nearest(width: 2752, height: 2064) == .ipad13Landscape)
        #expect(AppStorePreviewClass.nearest(width: 880, height: 1912) == .iphone69)
    }

    @Test(
        "a landscape video (a phone turned on its side) held to 15 s is a 1920x886 preview that passes the checker; as a portrait class it is refused"
    )
    func landscapePreview() async throws {
        try await withTemporaryDirectory { folder in
            let source = folder.appendingPathComponent("landscape.mp4")
            let recorder = try VideoRecorder(url: source, width: 962, height: 444, options: RecordingOptions(fragmented: false))
            for index in 0..<3 {
                try recorder.append(makeFrame(index: index, at: .seconds(index), width: 962, height: 444))
            }
            try recorder.finish(stopTime: .seconds(3))
            let target = folder.appendingPathComponent("preview.mp4")
            #expect(throws: AppStorePreviewError.self) {
                try AppStorePreview.make(
                    from: source, to: target, options: AppStorePreviewOptions(previewClass: .iphone69, holdsLast: true))
            }
            _ = try await offPool {
                try AppStorePreview.make(
                    from: source, to: target, options: AppStorePreviewOptions(previewClass: .iphone69Landscape, holdsLast: true))
            }
            let video = try #require(try await ffprobeStreams(target).first { $0["codec_type"] == "video" })
            #expect(video["width"] == "1920" && video["height"] == "886", "\(video)")
            #expect(try await offPool { try AppStorePreviewCheck.problems(of: target, previewClass: .iphone69Landscape) }.isEmpty)
        }
    }
}
