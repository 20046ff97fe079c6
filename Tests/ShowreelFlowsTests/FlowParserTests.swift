import Foundation
import ShowcaseApps
import ShowreelUI
import ShowreelWire
import Testing

@testable import ShowreelFlows

/// A scratch folder of flow files.
final class FlowFolder: @unchecked Sendable {
    let url: URL

    init() throws {
        url = URL(fileURLWithPath: "/tmp").appendingPathComponent("srflows-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("sub"), withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

@Suite("Flow files: parsing and validation")
struct FlowParserTests {
    let parser = FlowParser(knownApps: ShowcaseCatalog.apps.map(\.bundleIdentifier))

    func problems(_ text: String, extra: [String: String] = [:]) throws -> [String] {
        let folder = try FlowFolder()
        for (name, body) in extra { try folder.write(name, body) }
        let file = try folder.write("flow.yaml", text)
        do {
            _ = try parser.parse(fileAt: file, id: "flow.yaml")
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test("the fixture flows parse: header, bare, string and map steps, repeat")
    func fixtures() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let hello = try parser.parse(fileAt: root.appendingPathComponent("Fixtures/Flows/hello.yaml"), id: "Fixtures/Flows/hello.yaml")
        #expect(hello.appId == "dev.showreel.hello")
        #expect(hello.name == "Hello: tap the button three times")
        #expect(
            hello.steps.map(\.title) == [
                "launchApp", "wait: 1", "repeat: {times: 3, commands: [{tapOn: {id: tapButton}}, {wait: 1}]}",
                "assertVisible: {id: tapCount}",
            ])
        #expect(hello.steps[0].location == FlowLocation(file: "Fixtures/Flows/hello.yaml", line: 5, column: 3))
        guard case let .repeatSteps(times, steps) = hello.steps[2].action else { Issue.record("not a repeat"); return }
        #expect(times == 3 && steps.count == 2)
        let countries = try parser.parse(fileAt: root.appendingPathComponent("Fixtures/Flows/countries.yaml"), id: "countries.yaml")
        #expect(countries.arguments == ["--countries-datasource", "local-mock"])
        guard case let .assertVisible(.element(spec), _) = countries.steps[3].action else { Issue.record("not an assert"); return }
        #expect(spec == FlowStep.ElementQuerySpec(id: "countryName"))
    }

    @Test("an unknown step names its place and the nearest step")
    func unknownStep() throws {
        #expect(
            try problems("appId: dev.showreel.hello\n---\n- launchApp\n- tapOm: \"Tap me\"\n")
                == ["flow.yaml:4:3: unknown step 'tapOm'; did you mean 'tapOn'?"])
        #expect(try problems("appId: dev.showreel.hello\n---\n- launchApp\n- fly\n") == ["flow.yaml:4:3: unknown step 'fly'"])
    }

    @Test("wrong types, missing fields, unknown fields, keys and apps are all reported, with hints")
    func typesAndFields() throws {
        let found = try problems(
            """
            appId: dev.showreel.helo
            arguments: --verbose
            device: {profile: phone-3X, statusBar: {batteryLevel: 140}}
            ---
            - launchApp
            - tapOn: {idd: tapButton}
            - wait: soon
            - pressKey: Retrun
            - inputText: {into: {id: email}}
            - swipe: {edge: middle}
            - repeat: {times: 2}
            - tapOn
            """)
        #expect(
            found == [
                "flow.yaml:1:8: unknown app 'dev.showreel.helo'; did you mean 'dev.showreel.hello'? (installed: dev.showreel.hello, dev.showreel.countries, dev.showreel.greeting, dev.showreel.signup, dev.showreel.mail, dev.showreel.places, com.example.example)",
                "flow.yaml:2:12: 'arguments' must be a list of text, got '--verbose'",
                "flow.yaml:3:19: unknown device profile 'phone-3X'; did you mean 'phone-3x'? (profiles: phone, phone-3x, phone-small, tablet, phone-6.9, phone-5.5, tablet-13)",
                "flow.yaml:3:55: 'batteryLevel' must be from 0 to 100, got 140",
                "flow.yaml:6:11: unknown field 'idd' in tapOn; did you mean 'id'? (fields: text, id, type, index, point, repeat)",
                "flow.yaml:6:10: missing field: tapOn needs text, id, type or point",
                "flow.yaml:7:9: 'wait' must be a time from 0 to 3600 seconds (1.5, 500ms or 2s), got 'soon'",
                "flow.yaml:8:13: unknown key 'Retrun'; did you mean 'Return'? (keys: Return, Enter, delete, Backspace, space, shift, more, Home, or one character)",
                "flow.yaml:9:14: missing field 'text' in inputText",
                "flow.yaml:10:17: 'edge' must be one of left, right, top, bottom, got 'middle'",
                "flow.yaml:10:10: a swipe takes 'direction' (with an optional 'from' element or point), 'edge', or 'from' and 'to'",
                "flow.yaml:11:11: repeat needs 'times' (a number) and 'commands' (a list of steps)",
                "flow.yaml:12:3: 'tapOn' needs a value, e.g. tapOn: \"Canada\" or tapOn: {id: countryName}",
            ])
    }

    @Test("layout problems: no header, no steps, YAML syntax, missing appId")
    func layout() throws {
        #expect(
            try problems("- launchApp\n") == ["flow.yaml:1:1: a flow starts with a header (appId: ...) and a '---' line before its steps"])
        #expect(
            try problems("appId: dev.showreel.hello\n") == [
                "flow.yaml:1:1: no steps: add a '---' line after the header, then the steps as a list"
            ])
        #expect(try problems("name: x\n---\n- launchApp\n").first?.hasPrefix("flow.yaml:1:1: missing field 'appId'") == true)
        let syntax = try problems("appId: dev.showreel.hello\n---\n- tapOn: {id: x\n- back\n")
        #expect(syntax.count == 1)
        #expect(
            syntax == [
                "flow.yaml:5:1: invalid YAML: did not find expected ',' or '}' while parsing a flow mapping (which starts at flow.yaml:3:10)"
            ])
    }

    @Test("runFlow: relative files are parsed in turn, their problems reported in their own file, cycles caught")
    func runFlow() throws {
        let folder = try FlowFolder()
        try folder.write("sub/login.yaml", "appId: dev.showreel.signup\n---\n- inputText: hi\n- runFlow: ../main.yaml\n")
        let main = try folder.write("main.yaml", "appId: dev.showreel.signup\n---\n- launchApp\n- runFlow: sub/login.yaml\n")
        let error = try #require(throws: FlowValidationError.self) { try parser.parse(fileAt: main, id: "main.yaml") }
        #expect(error.diagnostics.map(\.description) == ["sub/login.yaml:4:12: runFlow cycle: main.yaml -> login.yaml -> main.yaml"])

        try folder.write("sub/login.yaml", "appId: dev.showreel.signup\n---\n- inputTxt: hi\n")
        let nested = try #require(throws: FlowValidationError.self) { try parser.parse(fileAt: main, id: "main.yaml") }
        #expect(nested.diagnostics.map(\.description) == ["sub/login.yaml:3:3: unknown step 'inputTxt'; did you mean 'inputText'?"])

        try folder.write("sub/login.yaml", "---\n- inputText: hi\n")
        let flow = try parser.parse(fileAt: main, id: "main.yaml")
        guard case let .runFlow(sub) = flow.steps[1].action else { Issue.record("not a runFlow"); return }
        #expect(sub.id == "sub/login.yaml")
        #expect(sub.steps.first?.location.description == "sub/login.yaml:2:3")

        let missing = try problems("appId: dev.showreel.hello\n---\n- runFlow: logn.yaml\n", extra: ["login.yaml": "---\n- back\n"])
        #expect(missing == ["flow.yaml:3:12: runFlow: no file 'logn.yaml'; did you mean 'login.yaml'?"])
    }

    @Test("discovery takes a folder's flow files sorted, not its sub-folders; shards split them stably")
    func discoveryAndShards() throws {
        let folder = try FlowFolder()
        for name in ["b.yaml", "a.yml", "c.yaml", "notes.txt", "sub/inner.yaml"] { try folder.write(name, "") }
        let files = try FlowDiscovery.files(in: [folder.url.path])
        #expect(files.map { ($0 as NSString).lastPathComponent } == ["a.yml", "b.yaml", "c.yaml"])
        #expect(throws: FlowDiscoveryError.missing("nowhere")) { try FlowDiscovery.files(in: ["nowhere"]) }
        let ids = ["d", "a", "c", "b", "e"]
        let shards = (1...2).map { FlowDiscovery.shard(ids, id: { $0 }, index: $0, count: 2) }
        #expect(shards == [["a", "c", "e"], ["d", "b"]])
        #expect(Set(shards.flatMap { $0 }) == Set(ids))
    }

    @Test("edit distance and suggestions")
    func spelling() {
        #expect(Spelling.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Spelling.nearest(to: "asertVisible", in: FileParser.stepNames) == "assertVisible")
        #expect(Spelling.nearest(to: "zzz", in: FileParser.stepNames) == nil)
    }
}
