import Foundation
import ShowreelReport
import Testing

@Suite("Run manifest")
struct RunManifestTests {
    static let sample = RunManifest(
        title: "Flows", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
        entries: [
            ManifestEntry(
                id: "Fixtures/Flows/hello.yaml", name: "Hello", status: .passed, duration: 4.2, video: "hello.mov",
                steps: [ManifestEntry.Step(title: "launchApp", time: 0, location: "hello.yaml:3:3", status: .passed)]),
            ManifestEntry(
                id: "Suite/test()", name: "test()", suite: "Suite", status: .failed, duration: 1.5, video: "test.mov",
                screenshot: "test.png",
                failures: [ManifestEntry.Failure(message: "No element", location: "a.swift:3:5", deviceTime: 1.2)]),
        ])

    @Test("round-trips through JSON with ISO-8601 dates, sorted keys and absent lists meaning empty")
    func roundTrip() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(RunManifest.fileName)
        try Self.sample.write(to: url)
        #expect(try RunManifest.load(from: url) == Self.sample)
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains("\"createdAt\" : \"2026-09-21T"))
        #expect(text.range(of: "\"createdAt\"")!.lowerBound < text.range(of: "\"entries\"")!.lowerBound)

        try Data(
            #"{"title":"t","createdAt":"2026-01-01T00:00:00Z","entries":[{"id":"a","name":"a","status":"skipped","duration":0}]}"#.utf8
        )
        .write(to: url)
        #expect(try RunManifest.load(from: url).entries.first?.steps == [])

        try Data(#"{"title":"t","createdAt":"2026-01-01T00:00:00Z","entries":[{"id":"a","status":"passed","duration":0}]}"#.utf8)
            .write(to: url)
        let error = try #require(throws: ManifestError.self) { try RunManifest.load(from: url) }
        #expect(error.description.contains("missing 'name' at .entries[0]"))
    }

    @Test("merging keeps first-seen order, lets a later entry with the same id win, and takes the earliest date")
    func merge() {
        var rerun = Self.sample.entries[1]
        rerun.status = .passed
        let other = RunManifest(
            title: "shard 2", createdAt: Date(timeIntervalSince1970: 1_700_000_000),
            entries: [rerun, ManifestEntry(id: "c", name: "c", status: .skipped, duration: 0)].map { $0.rebased(onto: "shard-2") })
        let merged = Self.sample.merged([other])
        #expect(merged.title == "Flows")
        #expect(merged.createdAt == other.createdAt)
        #expect(merged.entries.map(\.id) == ["Fixtures/Flows/hello.yaml", "Suite/test()", "c"])
        #expect(merged.entries[1].status == .passed)
        #expect(merged.entries[1].video == "shard-2/test.mov")
        #expect(merged.entries[1].screenshot == "shard-2/test.png")
        #expect(merged.count(.passed) == 2)
    }
}
