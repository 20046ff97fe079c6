import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelRecorder
import ShowreelRender
import ShowreelReport
import ShowreelTestSupport
import ShowreelUI
import Testing

/// An app that shows the arguments it was launched with, joined by spaces, as `arguments`.
enum LaunchEchoApp {
    static let bundleIdentifier = "dev.showreel.test.launch-echo"

    static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Launch echo") { context in
        let screen = Screen(title: "Launch echo")
        let label = Label(context.arguments.joined(separator: " "))
        label.accessibilityIdentifier = "arguments"
        label.frame = Rect(x: 10, y: 100, width: 360, height: 26)
        screen.view.addSubview(label)
        return screen
    }
}

@Suite("Matrix runs: every flow in every cell")
struct RunMatrixTests {
    @Test("Language codes are xx or xx-YY; a bad value of any axis is a sentence with the valid choices")
    func validation() throws {
        let matrix = try RunMatrix(languages: ["de", "pt_BR", "ja"], devices: ["phone", "tablet-13"], appearances: ["dark"])
        #expect(matrix.languages == ["de", "pt-BR", "ja"])
        #expect(matrix.devices.map(\.name) == ["phone", "tablet-13"])
        #expect(matrix.appearances == [.dark])
        for bad in ["deu", "DE", "de-de", "d", "de-DEU", ""] {
            #expect(throws: RunMatrixError.language(bad)) { try RunMatrix(languages: [bad]) }
        }
        #expect(RunMatrixError.language("deu").description.contains("xx or xx-YY"))
        #expect(throws: RunMatrixError.device("phablet")) { try RunMatrix(devices: ["phablet"]) }
        #expect(RunMatrixError.device("phablet").description.contains("phone-5.5, tablet-13"))
        #expect(throws: RunMatrixError.appearance("dim")) { try RunMatrix(appearances: ["dim"]) }
        #expect(RunMatrixError.appearance("dim").description.contains("light, dark"))
    }

    @Test("A value given twice on an axis counts once, where it first appears: no cell runs twice into one folder")
    func repeatedValuesCollapse() throws {
        let matrix = try RunMatrix(
            languages: ["de", "pt_BR", "de", "pt-BR"], devices: ["phone", "tablet-13", "phone"], appearances: ["dark", "light", "dark"])
        #expect(matrix.languages == ["de", "pt-BR"])
        #expect(matrix.devices.map(\.name) == ["phone", "tablet-13"])
        #expect(matrix.appearances == [.dark, .light])
        let folder = try FlowFolder()
        let file = try folder.write("echo.yaml", "appId: \(LaunchEchoApp.bundleIdentifier)\n---\n- launchApp\n")
        let flow = try FlowParser(knownApps: [LaunchEchoApp.bundleIdentifier]).parse(fileAt: file, id: "echo.yaml")
        let jobs = try RunMatrix(appearances: ["dark", "dark"]).jobs(for: [flow])
        #expect(jobs.map(\.id) == ["echo.yaml [en-phone-dark]"])
        let all = matrix.jobs(for: [flow])
        #expect(all.count == 8 && Set(all.map(\.id)).count == 8 && Set(all.map(\.folder)).count == 8)
    }

    @Test("Each language launches with -AppleLanguages and -AppleLocale, in its usual region")
    func launchArguments() {
        #expect(LanguageCode.launchArguments(for: "de") == ["-AppleLanguages", "(de)", "-AppleLocale", "de_DE"])
        #expect(["en", "ja", "ar", "fr", "pt-BR"].map(LanguageCode.locale(for:)) == ["en_US", "ja_JP", "ar_SA", "fr_FR", "pt_BR"])
    }

    @Test("A flow runs once per cell, into the cell's folder, with the cell's launch arguments reaching the app, and opens on the app")
    func runsEveryCell() async throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "echo.yaml",
            """
            appId: \(LaunchEchoApp.bundleIdentifier)
            arguments: ["--own"]
            ---
            - launchApp
            - assertVisible: {id: arguments}
            - wait: 0.2
            """)
        let flow = try FlowParser(knownApps: [LaunchEchoApp.bundleIdentifier]).parse(fileAt: file, id: "echo.yaml")
        let matrix = try RunMatrix(languages: ["de", "ja"], devices: ["phone-small"], appearances: ["light", "dark"])
        let jobs = matrix.jobs(for: [flow])
        #expect(jobs.map(\.folder) == ["de-phone-small-light", "de-phone-small-dark", "ja-phone-small-light", "ja-phone-small-dark"])
        #expect(jobs[1].flow.device.appearance == .dark && jobs[1].flow.device.languages == ["de"])
        #expect(jobs[1].flow.device.profile == .phoneSmall)

        let output = folder.url.appendingPathComponent("out")
        let runner = MatrixRunner(
            options: FlowRunOptions(
                output: output, apps: [LaunchEchoApp.definition], recording: RecordingOptions(scale: 0.5),
                traces: false, previews: false))
        let result = await runner.run(jobs, workers: 2)
        let entries = result.entries
        #expect(entries.map(\.status) == [.passed, .passed, .passed, .passed], "\(entries.map(\.failures))")
        #expect(
            entries.map(\.id) == [
                "echo.yaml [de-phone-small-light]", "echo.yaml [de-phone-small-dark]",
                "echo.yaml [ja-phone-small-light]", "echo.yaml [ja-phone-small-dark]",
            ])
        #expect(entries[3].cell == RunCell(language: "ja", device: "phone-small", appearance: "dark"))
        #expect(entries[3].video == "ja-phone-small-dark/echo.mov")
        #expect(entries[3].sourceID == "echo.yaml" && entries[3].nameInCell == "echo [ja-phone-small-dark]")

        // What each language's app was launched with: a flow that asserts the exact text,
        // which fails unless the cell's arguments came first and the flow's own after them.
        for (language, locale) in [("de", "de_DE"), ("ja", "ja_JP")] {
            let entry = try #require(entries.first { $0.cell?.language == language })
            #expect(entry.steps.allSatisfy { $0.status == .passed })
            let echo = try FlowParser(knownApps: [LaunchEchoApp.bundleIdentifier]).parse(
                fileAt: try folder.write(
                    "check-\(language).yaml",
                    """
                    appId: \(LaunchEchoApp.bundleIdentifier)
                    arguments: ["--own"]
                    ---
                    - launchApp
                    - assertVisible: {id: arguments, text: "-AppleLanguages (\(language)) -AppleLocale \(locale) --own"}
                    """), id: "check-\(language).yaml")
            let checked = await runner.run(try RunMatrix(languages: [language]).jobs(for: [echo]), workers: 1).entries
            #expect(checked.map(\.status) == [.passed], "\(checked.map(\.failures))")
        }

        // The first frame is the app's first drawn screen, not the black boot screen.
        let video = output.appendingPathComponent(try #require(entries[0].video))
        let first = try #require(try await decodedFrames(video, limit: 1).first)
        #expect(PictureUniformity.flatColour(of: first.pixels) == nil)
        #expect(first.time == 0)
        // The top half of a light screen: light, not black.
        let pixel = first.pixels.pixel(x: first.pixels.width / 2, y: first.pixels.height / 3)
        #expect(pixel.red > 200 && pixel.green > 200 && pixel.blue > 200, "\(pixel)")
    }
}
