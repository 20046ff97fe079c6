import Foundation
import ShowcaseApps
import ShowreelRecorder
import ShowreelReport
import ShowreelTestSupport
import Testing

@testable import ShowreelFlows

/// Maestro's commands, selectors, control flow and JavaScript, run through the runner on the
/// sample apps.
@Suite("Maestro's grammar: JavaScript, control flow, selectors, new commands", .timeLimit(.minutes(10)))
struct MaestroGrammarTests {
    /// Runs `text` as `<name>.yaml` (with `extra` files beside it) on an in-process device.
    static func run(
        _ name: String, _ text: String, extra: [String: String] = [:], configure: (inout FlowRunOptions) -> Void = { _ in }
    ) async throws -> (ManifestEntry, FlowFolder) {
        let folder = try FlowFolder()
        for (file, body) in extra { try folder.write(file, body) }
        let file = try folder.write("\(name).yaml", text)
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier)).parse(fileAt: file, id: "\(name).yaml")
        var options = FlowRunOptions(
            output: folder.url.appendingPathComponent("out"), apps: ShowcaseCatalog.apps, recording: RecordingOptions(scale: 0.25))
        configure(&options)
        try FileManager.default.createDirectory(at: options.output, withIntermediateDirectories: true)
        return (await FlowRunner(options: options).run(flow, videoName: name), folder)
    }

    @Test(
        "JavaScript: header env, -e over it, onFlowStart, output across runFlow, repeat while, runFlow env/when, runScript with env and console.log, copiedText"
    )
    func javaScript() async throws {
        let (entry, _) = try await Self.run(
            "scripts",
            """
            appId: dev.showreel.hello
            env:
              THING: five
              OTHER: header
            onFlowStart:
              - evalScript: ${output.started = true}
            onFlowComplete:
              - evalScript: ${console.log('done', output.counter)}
            ---
            - launchApp
            - assertTrue: ${output.started}
            - assertTrue: ${THING == "five" && OTHER == "command line"}
            - evalScript: ${output.counter = 0}
            - repeat:
                while:
                  true: ${output.counter < 3}
                commands:
                  - tapOn: {id: tapButton}
                  - evalScript: ${output.counter = output.counter + 1}
            - assertVisible: "Tapped ${output.counter} times"
            - runFlow:
                env: {THIS_THING: six}
                commands:
                  - assertTrue: ${THIS_THING == "six"}
            - assertTrue:
                condition: ${typeof THIS_THING == "undefined"}
            - runFlow:
                when: {true: "${1 > 2}"}
                commands:
                  - tapOn: {id: nothing}
            - runFlow:
                when: {visible: {id: tapButton}, platform: iOS}
                file: sub/mark.yaml
            - assertTrue: ${output.ran == 'yes'}
            - runScript: {file: greet.js, env: {NAME: Ada}}
            - assertTrue: ${output.greeting == 'Hello Ada'}
            - copyTextFrom: {id: tapCount}
            - assertTrue: ${maestro.copiedText == 'Tapped 3 times' && maestro.platform == 'ios'}
            """,
            extra: [
                "greet.js": "output.greeting = 'Hello ' + NAME;\nconsole.log('greeted', NAME);\n",
                "sub/mark.yaml": "- evalScript: ${output.ran = 'yes'}\n",
            ],
            configure: { $0.variables = ["OTHER": "command line"] })
        #expect(entry.status == .passed, "\(entry.failures)")
        let script = try #require(entry.steps.first { $0.title.hasPrefix("runScript") })
        #expect(script.log == ["greeted Ada"])
        #expect(entry.steps.last?.log == ["done 3"], "\(entry.steps.suffix(2))")
        #expect(entry.steps.filter { $0.title == "tapOn: {id: tapButton}" }.count == 3)
        #expect(!entry.steps.contains { $0.title == "tapOn: {id: nothing}" })
    }

    @Test("selectors: regex text matched whole, index, states, relative selectors; optional and label")
    func selectors() async throws {
        let (entry, _) = try await Self.run(
            "selectors",
            """
            appId: dev.showreel.hello
            ---
            - launchApp
            - tapOn: {text: "Tap m.", enabled: true}
            - assertVisible: {text: "Tapped \\\\d+ times?"}
            - assertNotVisible: {text: "Tapped", timeout: 0}
            - assertVisible: {id: tapCount, above: {id: tapButton}}
            - assertNotVisible: {id: tapCount, below: {id: tapButton}, timeout: 0}
            - assertVisible: {text: ".*", index: 0}
            - tapOn: {id: "tapBut+on", label: Tap by pattern}
            - assertVisible: "Tapped 2 times"
            - tapOn: {id: missing, optional: true, label: Optional tap}
            - assertVisible: {id: resetAppearance, optional: true}
            """)
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(entry.steps.map(\.title).contains("Tap by pattern"))
        let optional = try #require(entry.steps.first { $0.title == "Optional tap" })
        #expect(optional.status == .passed && optional.log?.first?.hasPrefix("optional step failed") == true, "\(optional)")
    }

    @Test("retry runs its commands again after a failure; the last failure is the step's")
    func retry() async throws {
        let (passed, _) = try await Self.run(
            "retry",
            """
            appId: dev.showreel.hello
            ---
            - launchApp
            - retry:
                maxRetries: 2
                commands:
                  - tapOn: {id: tapButton}
                  - assertVisible: {text: "Tapped 2 times", timeout: 0.5}
            """)
        #expect(passed.status == .passed, "\(passed.failures)")
        let (failed, _) = try await Self.run(
            "noretry",
            "appId: dev.showreel.hello\n---\n- launchApp\n- retry:\n    maxRetries: 1\n    commands:\n      - assertVisible: {text: Never, timeout: 0}\n"
        )
        #expect(failed.status == .failed && failed.failures.first?.message.contains("failed 2 times") == true, "\(failed.failures)")
    }

    @Test("a repeat whose while never turns false stops at its limit with a clear error")
    func endlessWhile() async throws {
        let (entry, _) = try await Self.run(
            "forever",
            "appId: dev.showreel.hello\n---\n- repeat:\n    while:\n      true: ${true}\n    commands:\n      - evalScript: ${output.n = (output.n || 0) + 1}\n"
        )
        #expect(entry.status == .failed)
        #expect(entry.failures.first?.message.contains("still holds after 1000 rounds") == true, "\(entry.failures)")
        #expect(entry.failures.first?.location == "forever.yaml:3:3")
        let (counted, _) = try await Self.run(
            "counted",
            "appId: dev.showreel.hello\n---\n- evalScript: ${output.n = 2}\n- repeat:\n    times: ${output.n * 1000}\n    commands:\n      - evalScript: ${1}\n"
        )
        #expect(
            counted.failures.first?.message.contains("must be a whole number from 1 to 1000, got '2000'") == true, "\(counted.failures)")
    }

    @Test("inputRandom* is the same every run of a flow; eraseText empties the field; hideKeyboard; stopApp and launchApp")
    func textCommands() async throws {
        let flow = """
            appId: dev.showreel.signup
            ---
            - launchApp
            - tapOn: {id: email}
            - inputRandomEmail
            - assertVisible: {text: "[a-z0-9]{8}@example\\\\.com", id: email}
            - copyTextFrom: {id: email}
            - eraseText: 30
            - assertNotVisible: {text: ".+@example\\\\.com", timeout: 0}
            - inputRandomNumber: {length: 4}
            - assertVisible: {text: "[1-9][0-9]{3}", id: email}
            - hideKeyboard
            - stopApp
            - assertNotVisible: {id: email, timeout: 0}
            - launchApp: {arguments: {initialCounter: 3}}
            - assertVisible: {id: email}
            """
        let (first, _) = try await Self.run("random", flow)
        #expect(first.status == .passed, "\(first.failures)")
        let (second, _) = try await Self.run("random", flow)
        #expect(second.steps.map(\.time) == first.steps.map(\.time))
    }

    @Test("assertScreenshot: a missing reference fails unless asked to write it; then the same screen matches exactly")
    func screenshots() async throws {
        let text = "appId: dev.showreel.hello\n---\n- launchApp\n- takeScreenshot: start\n- assertScreenshot: home.png\n"
        let (missing, folder) = try await Self.run("shot", text)
        #expect(missing.failures.first?.message.contains("no reference image home.png") == true, "\(missing.failures)")
        #expect(missing.attachments == ["shot-start.png"])
        let flowFile = folder.url.appendingPathComponent("shot.yaml")
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier)).parse(fileAt: flowFile, id: "shot.yaml")
        var options = FlowRunOptions(
            output: folder.url.appendingPathComponent("out"), apps: ShowcaseCatalog.apps, recording: RecordingOptions(scale: 0.25))
        options.writesMissingReferences = true
        let written = await FlowRunner(options: options).run(flow, videoName: "shot")
        #expect(written.status == .passed, "\(written.failures)")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("home.png").path))
        options.writesMissingReferences = false
        let compared = await FlowRunner(options: options).run(flow, videoName: "shot")
        #expect(compared.status == .passed, "\(compared.failures)")
    }

    @Test("startRecording and stopRecording record a named extra video of the steps between them, which FFmpeg decodes")
    func extraVideo() async throws {
        let (entry, folder) = try await Self.run(
            "extra",
            """
            appId: dev.showreel.hello
            ---
            - launchApp
            - startRecording: taps
            - tapOn: {id: tapButton}
            - wait: 1
            - stopRecording
            - startRecording: {path: rest}
            - tapOn: {id: tapButton}
            """)
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(entry.attachments == ["extra-taps.mov", "extra-rest.mov"])
        let video = folder.url.appendingPathComponent("out/extra-taps.mov")
        let report = try await ffprobe(video)
        let duration = try #require(report.format?.duration.flatMap(Double.init))
        #expect(duration >= 1 && duration < entry.duration, "\(duration) of \(entry.duration)")
        #expect(try await decodedFrames(video, limit: 3).count >= 1)
    }

    @Test(
        "found before anything runs, at file:line:column: a JavaScript syntax error, a missing script, a refused command, a bad condition")
    func parseErrors() throws {
        let problems = try FlowParserTests().problems(
            """
            appId: dev.showreel.hello
            ---
            - evalScript: ${output.x = (}
            - runScript: gret.js
            - openBrowser: https://example.com
            - runFlow: {when: {visibel: Tap me}, commands: [back]}
            - repeat: {while: {platform: iOSS}, commands: [back]}
            - extendedWaitUntil: {timeout: 100}
            - swipe: {start: "90%, 50%", end: "10%, 50%", duration: 40000}
            """, extra: ["greet.js": "output.x = 1\n"])
        #expect(problems.contains { $0.hasPrefix("flow.yaml:3:15: JavaScript: SyntaxError") }, "\(problems)")
        #expect(problems.contains("flow.yaml:4:14: runScript: no file 'gret.js'; did you mean 'greet.js'?"), "\(problems)")
        #expect(
            problems.contains {
                $0.hasPrefix("flow.yaml:5:3: openBrowser is not supported: a Showreel device has no web browser")
            }, "\(problems)")
        #expect(
            problems.contains { $0.hasPrefix("flow.yaml:6:20: unknown field 'visibel' in when; did you mean 'visible'?") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:7:30: unknown platform 'iOSS'; did you mean 'iOS'?") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:8:") && $0.contains("one of 'visible' or 'notVisible'") }, "\(problems)")
        // A bare 100 or more is Maestro's milliseconds here: 40 s is longer than a swipe lasts.
        #expect(problems.contains { $0.hasPrefix("flow.yaml:9:") && $0.contains("at most 10 s") }, "\(problems)")
    }

    @Test("launchApp's arguments as Maestro's map become its iOS driver's launch arguments")
    func launchArguments() throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "args.yaml", "appId: dev.showreel.hello\n---\n- launchApp: {arguments: {initialCounter: 3, isCart: true, -url: \"x://y\"}}\n")
        let flow = try FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier)).parse(fileAt: file, id: "args.yaml")
        let launch = try #require(flow.steps.first?.command as? LaunchAppCommand)
        #expect(launch.arguments == ["-initialCounter", "3", "isCart", "true", "-url", "x://y"])
    }
}
