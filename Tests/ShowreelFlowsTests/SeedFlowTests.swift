import Foundation
import ShowreelFlows
import ShowreelReport
import Testing

/// The seed's Countries test, as YAML: its exact English strings ("36155487 people",
/// "9984670.0 sq km") pass verbatim, whatever other languages show.
@Suite("The seed's Countries test as a flow")
struct SeedFlowTests {
    @Test("Fixtures/Seed/countries.yaml passes: the seed's strings, verbatim, in English")
    func seedCountries() async throws {
        let folder = try FlowFolder()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = root.appendingPathComponent("Fixtures/Seed/countries.yaml")
        let entry = try await FlowRunnerTests.run(file, id: "countries.yaml", into: folder, videoName: "seed-countries")
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(entry.steps.count == 6, "\(entry.steps.map(\.title))")
    }
}
