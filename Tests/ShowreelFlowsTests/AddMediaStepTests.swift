import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelReport
import ShowreelTestSupport
import Testing

/// `addMedia` (Maestro's step): pictures and videos, by paths relative to the flow, into the
/// device's photo library, where Places picks one.
@Suite("Flow step: addMedia", .timeLimit(.minutes(10)))
struct AddMediaStepTests {
    @Test("addMedia adds a picture and a video relative to the flow; Places picks the picture; a missing file or a .gif is a parse error")
    func addMedia() async throws {
        let folder = try FlowFolder()
        let media = folder.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        _ = try SampleMedia.png(in: media)
        _ = try SampleMedia.mp4(in: media)
        let file = try folder.write(
            "photo.yaml",
            """
            appId: dev.showreel.places
            ---
            - addMedia:
                - media/harbour.png
                - media/waves.mp4
            - launchApp
            - tapOn: {id: addPhoto}
            - tapOn: Allow
            - tapOn: {id: harbour.png}
            - assertVisible: {id: photoName, text: harbour.png}
            """)
        let entry = try await FlowRunnerTests.run(file, id: "photo.yaml", into: folder, videoName: "photo")
        #expect(entry.status == .passed, "\(entry.failures)")

        let problems = try FlowParserTests().problems("appId: dev.showreel.places\n---\n- addMedia: [nowhere.png]\n- addMedia: cat.gif\n")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:3:") && $0.contains("no file 'nowhere.png'") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:4:") && $0.contains("is not a picture (.png") }, "\(problems)")
    }
}
