import Foundation
import ShowreelKit
import ShowreelReport
import Testing

/// `.device(language:appearance:profile:)`: a matrix cell from Swift.
@Suite("Devices in a language and appearance")
struct DeviceLanguageTests {
    @Test(
        "A test parameterised over languages boots each case's device in its language and gets one video per case, named after it",
        arguments: ["en", "de"])
    func perLanguage(language: String) async throws {
        let folder = RecordingTraitTests.Folder()
        let device = DeviceTrait.device(language: .argument, appearance: .dark, profile: .phoneSmall)
        try await RecordingTraitTests().recorded(RecordingConfiguration(.on, folder: folder.url), device: device) {
            let booted = try #require(TestDevice.current?.device)
            #expect(booted.languages == [language])
            #expect(await booted.interfaceStyle == .dark)
            #expect(booted.profile.name == "phone-small")
            try await Application("dev.showreel.hello").launch()
        }
        let entry = try #require(try folder.manifest().entries.first)
        #expect(entry.video == "DeviceLanguageTests/perLanguage(language_) \(language).mov", "\(entry)")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(entry.video ?? "").path))
    }

    @Test("A language that is not a code, or .argument without arguments, is a sentence that says what to do")
    func badLanguage() async throws {
        let test = try #require(Test.current)
        await #expect(throws: ShowreelKitError.self) {
            try await DeviceTrait.device(language: "german").provideScope(for: test, testCase: Test.Case.current) {}
        }
        do {
            try await DeviceTrait.device(language: .argument).provideScope(for: test, testCase: Test.Case.current) {}
            Issue.record("no argument to take a language from")
        } catch {
            #expect("\(error)".contains("needs a parameterised test"), "\(error)")
        }
    }
}
