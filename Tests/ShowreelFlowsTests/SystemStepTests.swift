import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelReport
import Testing

/// The flow steps for what simctl does to a device (Maestro's names): clipboard and links.
@Suite("Flow steps: what simctl does to a device")
struct SystemStepTests {
    /// Runs the flow `text` as `<name>.yaml` on an in-process device (see `FlowRunnerTests.run`).
    static func run(_ name: String, _ text: String) async throws -> ManifestEntry {
        let folder = try FlowFolder()
        let file = try folder.write("\(name).yaml", text)
        return try await FlowRunnerTests.run(file, id: "\(name).yaml", into: folder, videoName: name)
    }

    @Test(
        "setClipboard and pasteText fill Sign Up's email field (it signs up with the pasted address); copyTextFrom copies the result row, whose text pasted after the address makes it invalid"
    )
    func clipboard() async throws {
        let entry = try await Self.run(
            "clipboard",
            """
            appId: dev.showreel.signup
            ---
            - launchApp
            - setClipboard: "ada@"
            - tapOn: {id: email}
            - pasteText
            - setClipboard: "example.com"
            - pasteText
            - pressKey: Return
            - assertVisible: "Signed up as ada@example.com"
            - copyTextFrom: {id: result}
            - tapOn: {id: email}
            - pasteText
            - pressKey: Return
            - assertVisible: "Invalid Email"
            """)
        #expect(entry.status == .passed, "\(entry.failures)")
    }

    @Test("openLink opens Countries on a country's details, in its short and long form")
    func openLink() async throws {
        let entry = try await Self.run(
            "link",
            """
            appId: dev.showreel.countries
            ---
            - openLink: countries://country/CA
            - assertVisible: {id: countryName, text: "Canada"}
            - openLink: {link: "countries://country/JP"}
            - assertVisible: {id: countryName, text: "Japan"}
            """)
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(entry.steps.map(\.title).first == "openLink: countries://country/CA")
    }

    @Test("pasteText with no focused field, and a link no app opens, fail the step saying why")
    func failures() async throws {
        let pasted = try await Self.run("paste", "appId: dev.showreel.hello\n---\n- launchApp\n- pasteText\n")
        #expect(
            pasted.status == .failed && pasted.failures.first?.message.contains("no text field has focus") == true, "\(pasted.failures)")
        let linked = try await Self.run("maps", "appId: dev.showreel.hello\n---\n- openLink: maps://here\n")
        #expect(linked.failures.first?.message.contains("No app on this device opens 'maps:' URLs") == true, "\(linked.failures)")
    }

    @Test("bad values are parse errors with the line: a link without a scheme, setClipboard without text")
    func parsing() throws {
        let problems = try FlowParserTests().problems(
            "appId: dev.showreel.hello\n---\n- openLink: country/CA\n- setClipboard\n- copyTextFrom: {idx: 1}\n")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:3:") && $0.contains("needs a URL with a scheme") }, "\(problems)")
        #expect(problems.contains("flow.yaml:4:3: 'setClipboard' needs a value, e.g. setClipboard: \"hello@example.com\""), "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:5:") && $0.contains("idx") }, "\(problems)")
    }

    @Test("launchApp with permissions and setPermissions set them before Places asks; with none, the flow answers the alert")
    func permissions() async throws {
        let entry = try await Self.run(
            "permissions",
            """
            appId: dev.showreel.places
            ---
            - launchApp: {permissions: {all: deny, location: allow}}
            - tapOn: {id: shareLocation}
            - assertVisible: "Location shared"
            - setPermissions: {permissions: {location: deny}}
            - launchApp
            - tapOn: {id: shareLocation}
            - assertVisible: "Location not allowed: allow it in Settings."
            - setPermissions: {appId: dev.showreel.places, permissions: {all: unset}}
            - launchApp
            - tapOn: {id: shareLocation}
            - tapOn: "Allow While Using App"
            - assertVisible: "Location shared"
            """)
        #expect(entry.status == .passed, "\(entry.failures)")
    }

    @Test("a permission value other than allow, deny or unset, and an unknown service, are parse errors")
    func permissionParsing() throws {
        let problems = try FlowParserTests().problems(
            "appId: dev.showreel.places\n---\n- launchApp: {permissions: {location: yes}}\n- setPermissions: {permissions: {locaton: allow}}\n"
        )
        #expect(problems.contains { $0.hasPrefix("flow.yaml:3:") && $0.contains("allow, deny or unset") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:4:") && $0.contains("'locaton'") && $0.contains("location") }, "\(problems)")
    }

    @Test("setLocation puts Places at a place, travel follows a route to its end (the step lasts the journey)")
    func location() async throws {
        let entry = try await Self.run(
            "route",
            """
            appId: dev.showreel.places
            ---
            - setLocation: {latitude: 43.6532, longitude: -79.3832}
            - launchApp: {permissions: {location: allow}}
            - tapOn: {id: shareLocation}
            - assertVisible: "43.6532, -79.3832"
            - travel: {points: ["43.6532,-79.3832", "43.6426,-79.3871"], speed: 200}
            - assertVisible: "43.6426, -79.3871"
            """)
        #expect(entry.status == .passed, "\(entry.failures)")
        let travel = try #require(entry.steps.firstIndex { $0.title.hasPrefix("travel") })
        #expect(entry.steps[travel + 1].time - entry.steps[travel].time >= 6, "\(entry.steps.map(\.time))")
    }

    @Test("a place off the globe, travel without speed or too slow for an hour, are parse errors")
    func locationParsing() throws {
        let problems = try FlowParserTests().problems(
            """
            appId: dev.showreel.places
            ---
            - setLocation: "95,10"
            - travel: {points: ["1,1", "2,2"]}
            - travel: {points: ["1,1", "2,2"], speed: 1}
            """)
        #expect(problems.contains { $0.hasPrefix("flow.yaml:3:") && $0.contains("latitude -90 to 90") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:4:") && $0.contains("'speed'") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:5:") && $0.contains("at most an hour") }, "\(problems)")
    }

    @Test("setAirplaneMode and toggleAirplaneMode: Places says it is offline, then not; a wrong value is a parse error")
    func airplaneMode() async throws {
        let entry = try await Self.run(
            "offline",
            """
            appId: dev.showreel.places
            ---
            - launchApp
            - setAirplaneMode: enabled
            - assertVisible: {id: networkStatus}
            - toggleAirplaneMode
            - assertNotVisible: {id: networkStatus}
            - toggleAirplaneMode
            - assertVisible: "Offline: airplane mode is on"
            """)
        #expect(entry.status == .passed, "\(entry.failures)")
        let problems = try FlowParserTests().problems("appId: dev.showreel.places\n---\n- setAirplaneMode: on\n")
        #expect(problems.contains { $0.hasPrefix("flow.yaml:3:") && $0.contains("enabled or disabled") }, "\(problems)")
    }
}
