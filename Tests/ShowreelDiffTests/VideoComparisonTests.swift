import ShowreelReport
import Testing

@testable import ShowreelDiff

/// The timeline logic of `showreel diff`, on frame indexes made by hand.
@Suite("Video comparison timelines")
struct VideoComparisonTests {
    @Test("frames are compared at every moment either video changes, each showing its frame of that moment")
    func candidatesAlongTheTimeline() {
        // Same pictures, but the current video shows picture 2 later: at 1.0 it still shows 1.
        let baseline = FrameIndex(times: [0, 1.0, 2.0], hashes: [1, 2, 3])
        let current = FrameIndex(times: [0, 1.5, 2.0], hashes: [1, 2, 3])
        let found = VideoComparison.candidates(baseline, current)
        #expect(found.map(\.time) == [1.0])
        #expect(found.map(\.a) == [1] && found.map(\.b) == [0])
        #expect(VideoComparison.candidates(baseline, baseline).isEmpty)
        // A frame only one side has, whose picture matches the other side's: no difference.
        let extra = FrameIndex(times: [0, 0.5, 1.0, 2.0], hashes: [1, 1, 2, 3])
        #expect(VideoComparison.candidates(baseline, extra).isEmpty)
    }

    @Test("the step of a moment is the last one that started by then; ids become file names")
    func stepsAndNames() {
        let steps = [
            ManifestEntry.Step(title: "launchApp", time: 0, status: .passed),
            ManifestEntry.Step(title: "tapOn", time: 1.2, status: .passed),
            ManifestEntry.Step(title: "wait", time: 1.5, status: .passed),
        ]
        #expect(RunComparison.stepIndex(at: 0.3, in: steps) == 0)
        #expect(RunComparison.stepIndex(at: 1.2, in: steps) == 1)
        #expect(RunComparison.stepIndex(at: 9, in: steps) == 2)
        // launchApp and the wait after it both start at 0; the launched screen comes at 1 ms.
        let launched = [
            ManifestEntry.Step(title: "launchApp", time: 0, status: .passed),
            ManifestEntry.Step(title: "wait: 1", time: 0, status: .passed),
        ]
        #expect(RunComparison.stepIndex(at: 0.001, in: launched) == 0)
        #expect(RunComparison.stepIndex(at: 0.5, in: launched) == 1)
        #expect(RunComparison.fileName(for: "CountriesUITests/canadaDetails()") == "CountriesUITests-canadaDetails--")
    }
}
