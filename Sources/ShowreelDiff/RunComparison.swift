import Foundation
import ShowreelGraphics
import ShowreelRecorder
import ShowreelRender
import ShowreelReport

/// `showreel diff`: two run folders of the same flows or tests (each with the `manifest.json`
/// that `showreel run` and recorded Swift tests write), compared entry by entry, video by
/// video. Visual regression testing for whole journeys: the first moment a video changed, the
/// step that was running, the changed area, and a side-by-side picture of it.
package struct RunComparison: Sendable {
    package var baseline: URL
    package var current: URL
    /// The largest channel difference (0-255) that still counts as the same pixel.
    package var threshold: Int

    package init(baseline: URL, current: URL, threshold: Int = 0) {
        self.baseline = baseline
        self.current = current
        self.threshold = threshold
    }

    /// Why two folders cannot be compared, as a sentence that says what to give instead.
    package struct Problem: Error, CustomStringConvertible {
        package var description: String
    }

    /// Where the difference pictures go: `diff/` in the current run.
    package var outputFolder: URL { current.appendingPathComponent(RunDiff.folderName, isDirectory: true) }

    /// Compares every entry (`progress` hears each one's id as it starts) and writes a picture
    /// of each first difference into `outputFolder`.
    package func compare(progress: (String) -> Void = { _ in }) throws -> RunDiff {
        let old = try Self.manifest(in: baseline, role: "baseline")
        let new = try Self.manifest(in: current, role: "current")
        try? FileManager.default.removeItem(at: outputFolder)
        let oldByID = Dictionary(old.entries.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let newIDs = Set(new.entries.map(\.id))
        var entries: [RunDiff.Entry] = []
        for entry in new.entries {
            guard let before = oldByID[entry.id] else {
                entries.append(RunDiff.Entry(id: entry.id, name: entry.name, outcome: .onlyInCurrent))
                continue
            }
            progress(entry.id)
            entries.append(try compare(before, entry))
        }
        for entry in old.entries where !newIDs.contains(entry.id) {
            entries.append(RunDiff.Entry(id: entry.id, name: entry.name, outcome: .onlyInBaseline))
        }
        return RunDiff(baseline: baseline.path, current: current.path, threshold: threshold, entries: entries)
    }

    private func compare(_ before: ManifestEntry, _ after: ManifestEntry) throws -> RunDiff.Entry {
        var result = RunDiff.Entry(id: after.id, name: after.name, outcome: .identical)
        guard let oldVideo = Self.video(of: before, in: baseline), let newVideo = Self.video(of: after, in: current) else {
            result.outcome = .notCompared
            result.note =
                "no video on \(Self.video(of: before, in: baseline) == nil ? "the baseline" : "the current") side (a passing test's video is kept only with .recorded(.on))"
            return result
        }
        let first: FirstDifference?
        do {
            first = try VideoComparison.firstDifference(baseline: oldVideo, current: newVideo, threshold: threshold)
        } catch {
            result.outcome = .changed
            result.note = "cannot be compared: \(error.description)"
            return result
        }
        if let first {
            result.outcome = .changed
            result.time = first.time
            let box = first.difference.boundingBox
            result.area = RunDiff.Area(x: box.x, y: box.y, width: box.width, height: box.height)
            result.differingPixels = first.difference.differingPixels
            result.note = first.difference.sizeMismatch
            let picture = outputFolder.appendingPathComponent(Self.fileName(for: after.id) + ".png")
            try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
            try Data(DifferenceImage.compose(first).pngData()).write(to: picture)
            result.image = RunDiff.folderName + "/" + picture.lastPathComponent
        } else if abs(before.duration - after.duration) > 0.001 {
            // The same pictures, held for a different time: the journey waited longer or less.
            result.outcome = .changed
            result.time = min(before.duration, after.duration)
            result.note = String(format: "the video lasts %.3f s, against %.3f s in the baseline", after.duration, before.duration)
        }
        if let time = result.time {
            result.stepIndex = Self.stepIndex(at: time, in: after.steps)
            result.step = result.stepIndex.map { after.steps[$0].title }
            result.baselineStep = Self.stepIndex(at: time, in: before.steps).map { before.steps[$0].title }
        }
        return result
    }

    /// The step running at `time`: the last one that started by then. Steps that took no device
    /// time share a start (`launchApp` and the `wait` after it both start at 0), and the first
    /// picture after an action comes a millisecond after it: a change that soon after such a
    /// group's start is the first of the group's doing, a later one the last's.
    static func stepIndex(at time: Double, in steps: [ManifestEntry.Step]) -> Int? {
        guard let last = steps.lastIndex(where: { $0.time <= time + 0.0005 }) else { return nil }
        let start = steps[last].time
        guard time - start <= 0.002 else { return last }
        return steps.firstIndex { abs($0.time - start) < 0.0005 } ?? last
    }

    private static func video(of entry: ManifestEntry, in folder: URL) -> URL? {
        guard let path = entry.video else { return nil }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    private static func manifest(in folder: URL, role: String) throws -> RunManifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Problem(
                description:
                    "the \(role) folder \(folder.path) does not exist: give the folder a run wrote (showreel run --output, or Recordings/ of a test run)"
            )
        }
        let file = folder.appendingPathComponent("manifest.json")
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw Problem(
                description:
                    "the \(role) folder \(folder.path) has no manifest.json: give the folder a run wrote (showreel run --output, or Recordings/ of a test run)"
            )
        }
        do { return try RunManifest.load(from: file) } catch {
            throw Problem(description: "\(error)")
        }
    }

    /// An entry id as a file name: `Suite/test()` becomes `Suite-test--`.
    static func fileName(for id: String) -> String {
        String(id.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-" ? $0 : "-" })
    }
}
