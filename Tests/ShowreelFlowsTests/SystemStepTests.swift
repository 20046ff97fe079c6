import Foundation
import ShowcaseApps
import ShowreelFlows
import ShowreelReport
import Testing

/// The flow steps for what simctl does to a device (Maestro's names): clipboard and links.
@Suite("Flow steps: clipboard and links")
struct SystemStepTests {
    @Test(
        "setClipboard and pasteText fill Sign Up's email field (it signs up with the pasted address); copyTextFrom copies the result row, whose text pasted after the address makes it invalid"
    )
    func clipboard() async throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "clipboard.yaml",
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
        let entry = try await FlowRunnerTests.run(file, id: "clipboard.yaml", into: folder, videoName: "clipboard")
        #expect(entry.status == .passed, "\(entry.failures)")
    }

    @Test("openLink opens Countries on a country's details, in its short and long form")
    func openLink() async throws {
        let folder = try FlowFolder()
        let file = try folder.write(
            "link.yaml",
            """
            appId: dev.showreel.countries
            ---
            - openLink: countries://country/CA
            - assertVisible: {id: countryName, text: "Canada"}
            - openLink: {link: "countries://country/JP"}
            - assertVisible: {id: countryName, text: "Japan"}
            """)
        let entry = try await FlowRunnerTests.run(file, id: "link.yaml", into: folder, videoName: "link")
        #expect(entry.status == .passed, "\(entry.failures)")
        #expect(entry.steps.map(\.title).first == "openLink: countries://country/CA")
    }

    @Test("pasteText with no focused field, and a link no app opens, fail the step saying why")
    func failures() async throws {
        let folder = try FlowFolder()
        let paste = try folder.write("paste.yaml", "appId: dev.showreel.hello\n---\n- launchApp\n- pasteText\n")
        let pasted = try await FlowRunnerTests.run(paste, id: "paste.yaml", into: folder, videoName: "paste")
        #expect(
            pasted.status == .failed && pasted.failures.first?.message.contains("no text field has focus") == true, "\(pasted.failures)")
        let link = try folder.write("maps.yaml", "appId: dev.showreel.hello\n---\n- openLink: maps://here\n")
        let linked = try await FlowRunnerTests.run(link, id: "maps.yaml", into: folder, videoName: "maps")
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
        let folder = try FlowFolder()
        let file = try folder.write(
            "permissions.yaml",
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
        let entry = try await FlowRunnerTests.run(file, id: "permissions.yaml", into: folder, videoName: "permissions")
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
        let folder = try FlowFolder()
        let file = try folder.write(
            "route.yaml",
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
        let entry = try await FlowRunnerTests.run(file, id: "route.yaml", into: folder, videoName: "route")
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
}
