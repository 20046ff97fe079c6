import Foundation
import ShowreelGraphics
import ShowreelTestSupport
import ShowreelTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `showreel device pbcopy | pbpaste | openurl` as a user runs them against a booted device process.
@Suite("Device system verbs")
struct DeviceSystemVerbsTests {
    let cli = DeviceProcessTests()

    func showreel(_ arguments: [String], _ workspace: Workspace, input: String? = nil) async throws -> ChildProcess {
        var inputFile: URL?
        if let input {
            let file = workspace.file("stdin-\(UUID().uuidString.prefix(8)).txt")
            try Data(input.utf8).write(to: file)
            inputFile = file
        }
        let child = try ChildProcess(
            try BuildProducts.showreel, arguments, environment: workspace.environment, in: workspace, name: "cmd", input: inputFile)
        _ = try await child.waitForExit()
        return child
    }

    @Test("pbcopy reads standard input onto the device's pasteboard, pbpaste prints it back as it is; an unknown device exits 3")
    func pasteboard() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await cli.bootDevice(workspace)
        let text = "Grüße\nline two"
        let copy = try await showreel(["device", "pbcopy", udid], workspace, input: text)
        #expect(copy.terminationStatus == 0, "\(copy.stderr)")
        #expect(try await DeviceClient.named(udid, registry: workspace.registry).pasteboard() == text)
        let paste = try await showreel(["device", "pbpaste", "booted"], workspace)
        #expect(paste.terminationStatus == 0 && paste.stdout == text, "\(paste.stdout)|\(paste.stderr)")

        let nowhere = try await showreel(["device", "pbpaste", "no-such-device"], workspace)
        #expect(nowhere.terminationStatus == 3 && nowhere.stderr.contains("no-such-device"), "\(nowhere.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }

    @Test("openurl opens Countries on Canada's details; an unknown scheme exits 1 naming it, a text without a scheme exits 64")
    func openURL() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await cli.bootDevice(workspace)
        let open = try await showreel(["device", "openurl", udid, "countries://country/CA"], workspace)
        #expect(open.terminationStatus == 0 && open.stdout.contains("dev.showreel.countries: runningForeground"), "\(open.stderr)")
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        #expect(try await Application("dev.showreel.countries", device: client).staticTexts["countryName"].label == "Canada")

        let unknown = try await showreel(["device", "openurl", udid, "maps://here"], workspace)
        #expect(
            unknown.terminationStatus == 1 && unknown.stderr.contains("No app on this device opens 'maps:' URLs"),
            "\(unknown.stderr)")
        let noScheme = try await showreel(["device", "openurl", udid, "country/CA"], workspace)
        #expect(noScheme.terminationStatus == 64 && noScheme.stderr.contains("not a URL with a scheme"), "\(noScheme.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }

    @Test("privacy grant / revoke / reset reach the device; a misspelt service or grant without an app exit 64, an unknown app exits 1")
    func privacy() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await cli.bootDevice(workspace)
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        let grant = try await showreel(["device", "privacy", udid, "grant", "location", "dev.showreel.places"], workspace)
        #expect(grant.terminationStatus == 0, "\(grant.stderr)")
        #expect(try await client.permissions(of: "dev.showreel.places") == [.location: .granted])
        _ = try await showreel(["device", "privacy", udid, "revoke", "photos", "dev.showreel.places"], workspace)
        #expect(try await client.permissions(of: "dev.showreel.places") == [.location: .granted, .photos: .denied])
        let reset = try await showreel(["device", "privacy", udid, "reset", "all"], workspace)
        #expect(reset.terminationStatus == 0, "\(reset.stderr)")
        #expect(try await client.permissions(of: "dev.showreel.places").isEmpty)

        let misspelt = try await showreel(["device", "privacy", udid, "grant", "photo", "dev.showreel.places"], workspace)
        #expect(misspelt.terminationStatus == 64 && misspelt.stderr.contains("'photo'"), "\(misspelt.stderr)")
        #expect(misspelt.stderr.contains("photos"))
        let noApp = try await showreel(["device", "privacy", udid, "grant", "photos"], workspace)
        #expect(noApp.terminationStatus == 64 && noApp.stderr.contains("name the app"), "\(noApp.stderr)")
        let unknown = try await showreel(["device", "privacy", udid, "grant", "photos", "dev.showreel.nope"], workspace)
        #expect(unknown.terminationStatus == 1 && unknown.stderr.contains("dev.showreel.nope"), "\(unknown.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }

    @Test("location set / start / clear reach the device; a place that is not one, and set with two places, exit 64")
    func location() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await cli.bootDevice(workspace)
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        let set = try await showreel(["device", "location", udid, "set", "43.6532,-79.3832"], workspace)
        #expect(set.terminationStatus == 0, "\(set.stderr)")
        #expect(try await client.location() == Coordinate(latitude: 43.6532, longitude: -79.3832))
        let start = try await showreel(
            ["device", "location", udid, "start", "--speed", "1000", "43.6532,-79.3832", "43.6426,-79.3871"], workspace)
        #expect(start.terminationStatus == 0, "\(start.stderr)")
        _ = try await client.perform(.wait(.seconds(2)))
        #expect(try await client.location() == Coordinate(latitude: 43.6426, longitude: -79.3871))
        #expect(try await showreel(["device", "location", udid, "clear"], workspace).terminationStatus == 0)
        #expect(try await client.location() == nil)

        let offGlobe = try await showreel(["device", "location", udid, "set", "95,10"], workspace)
        #expect(offGlobe.terminationStatus == 64 && offGlobe.stderr.contains("'95,10' is not a place"), "\(offGlobe.stderr)")
        let two = try await showreel(["device", "location", udid, "set", "1,1", "2,2"], workspace)
        #expect(two.terminationStatus == 64 && two.stderr.contains("takes one place"), "\(two.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }

    @Test("push delivers a payload file (bundle named or from the payload) and stdin; a bad payload or no app exit 64")
    func push() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await cli.bootDevice(workspace)
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        let file = workspace.file("payload.json")
        try Data(#"{"aps":{"alert":{"title":"Kate Bell","body":"Noon?"}}}"#.utf8).write(to: file)
        let named = try await showreel(["device", "push", udid, "dev.showreel.mail", file.path], workspace)
        #expect(named.terminationStatus == 0, "\(named.stderr)")
        let targeted = try await showreel(
            ["device", "push", udid, "-"], workspace,
            input: #"{"aps":{"alert":"From stdin"},"Simulator Target Bundle":"dev.showreel.mail"}"#)
        #expect(targeted.terminationStatus == 0, "\(targeted.stderr)")
        #expect(try await client.notifications().map(\.body) == ["Noon?", "From stdin"])

        let noApp = try await showreel(["device", "push", udid, file.path], workspace)
        #expect(noApp.terminationStatus == 64 && noApp.stderr.contains("Simulator Target Bundle"), "\(noApp.stderr)")
        let bad = try await showreel(["device", "push", udid, "dev.showreel.mail", "-"], workspace, input: #"{"alert":"x"}"#)
        #expect(bad.terminationStatus == 64 && bad.stderr.contains("aps"), "\(bad.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }

    @Test("airplane on / off reach the device; anything else exits 64")
    func airplane() async throws {
        let workspace = try Workspace()
        let (device, udid) = try await cli.bootDevice(workspace)
        let client = try DeviceClient.named(udid, registry: workspace.registry)
        #expect(try await showreel(["device", "airplane", udid, "on"], workspace).terminationStatus == 0)
        #expect(try await client.airplaneMode())
        #expect(try await showreel(["device", "airplane", udid, "off"], workspace).terminationStatus == 0)
        #expect(try await !client.airplaneMode())
        let bad = try await showreel(["device", "airplane", udid, "maybe"], workspace)
        #expect(bad.terminationStatus == 64 && bad.stderr.contains("Use on or off"), "\(bad.stderr)")
        device.signal(SIGINT)
        #expect(try await device.waitForExit() == 0)
    }
}
