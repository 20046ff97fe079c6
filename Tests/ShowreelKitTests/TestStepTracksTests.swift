import Foundation
import ShowreelKit
import ShowreelReport
import Testing

/// A recorded Swift test's actions (its steps in the manifest) as its video's chapters and subtitles; its preview.
@Suite("A test's actions in its video")
struct TestStepTracksTests {
    @Test("each action of a test is a chapter and a subtitle of its video; the test gets a preview")
    func actionsBecomeChapters() async throws {
        let folder = RecordingTraitTests.Folder()
        let test = try #require(Test.current)
        try await DeviceTrait.device().provideScope(for: test, testCase: Test.Case.current) {
            try await RecordingTrait.recorded(RecordingConfiguration(.on, container: .mp4, folder: folder.url))
                .provideScope(for: test, testCase: Test.Case.current) {
                    let app = Application("dev.showreel.countries", launchArguments: ["--countries-datasource", "local-mock"])
                    try await app.launch()
                    try await app.cells["Canada"].tap()
                    _ = try await app.staticTexts["countryName"].waitForExistence(timeout: .seconds(5))
                    // Reads are no actions.
                    _ = try await app.staticTexts["countryName"].label
                }
        }
        let entry = try #require(try folder.manifest().entries.first)
        #expect(
            entry.steps.map(\.title) == [
                "launch dev.showreel.countries", "tap cells[\"Canada\"]", "wait for staticTexts[\"countryName\"]",
            ])
        #expect(entry.steps.allSatisfy { $0.status == .passed })
        let times = entry.steps.map(\.time)
        // The launch takes no device time (virtual clock); the push after the tap does.
        #expect(times == times.sorted() && times.last! > 0 && times.last! < entry.duration, "\(times)")

        let video = folder.url.appendingPathComponent(try #require(entry.video))
        let tracks = try MediaProbe.stepTracks(video)
        let expected = StepMark.chapters(entry.steps.map { StepMark(title: $0.title, time: $0.time) }, videoEnd: entry.duration)
        #expect(!expected.isEmpty)
        #expect(tracks.chapters.map(\.title) == expected.map(\.title))
        #expect(zip(tracks.chapters, expected).allSatisfy { abs($0.start - $1.start) < 0.001 })
        let cues = StepMark.chapters(
            entry.steps.map { StepMark(title: $0.title, time: $0.time) }, videoEnd: entry.duration, separator: "\n")
        #expect(tracks.subtitles.map(\.text) == cues.map(\.title))
        #expect(tracks.subtitlesShownByDefault == false)

        let preview = try AnimatedWebP(url: folder.url.appendingPathComponent(try #require(entry.preview)))
        #expect(entry.preview == "TestStepTracksTests/actionsBecomeChapters().webp")
        #expect(preview.width == 390 && preview.height == 844)
        #expect(abs(preview.duration - entry.duration) < 0.11)
        _ = try preview.decodeFrame(preview.frames.count - 1)
    }
}
