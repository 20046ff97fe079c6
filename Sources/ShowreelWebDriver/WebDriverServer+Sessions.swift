import Foundation
import Logging
import ShowreelDevice
import ShowreelGraphics
import ShowreelTesting
import ShowreelWire

extension WebDriverServer {
    /// `POST /session`: a device for the session (booted here, or attached by `appium:udid`),
    /// the status bar and recording it asks for, and its app launched.
    func createSession(_ body: JSONValue) async throws(WebDriverError) -> JSONValue {
        let capabilities = try SessionCapabilities.parse(body)
        try await sessions.reserve(limit: configuration.maxSessions)
        let session: WebDriverSession
        do throws(WebDriverError) {
            session = try await start(capabilities)
        } catch {
            await sessions.release()
            throw error
        }
        await session.ready()
        await sessions.add(session)
        let id = session.id
        configuration.logger.info("session \(id) started", metadata: ["udid": "\(session.udid)"])
        return ["sessionId": .string(id), "capabilities": reported(capabilities, session: session)]
    }

    /// A new session's device, status bar, recording and app (in a place `reserve` took).
    private func start(_ capabilities: SessionCapabilities) async throws(WebDriverError) -> WebDriverSession {
        let id = UUID().uuidString.lowercased()
        let session: WebDriverSession
        if let udid = capabilities.udid {
            session = try attach(udid, id: id, capabilities: capabilities)
        } else {
            session = try boot(id: id, capabilities: capabilities)
        }
        do throws(WebDriverError) {
            try await prepare(session)
        } catch {
            if let recording = await session.sessionRecording { await recording.discard() }
            _ = await session.end()
            throw error.code == .invalidArgument ? error : WebDriverError(.sessionNotCreated, error.message)
        }
        return session
    }

    private func boot(id: String, capabilities: SessionCapabilities) throws(WebDriverError) -> WebDriverSession {
        let device: Device
        do {
            device = try Device(
                name: capabilities.profile.displayName, profile: capabilities.profile, clock: capabilities.clock,
                apps: configuration.apps, registry: DeviceRegistry(home: home), showsTouches: capabilities.showsTouches,
                logger: configuration.logger)
        } catch {
            throw WebDriverError(.sessionNotCreated, "The session's device could not boot: \(ErrorSentence.describe(error))")
        }
        return WebDriverSession(
            id: id, capabilities: capabilities, device: SessionDevice(driver: device, profile: device.profile),
            ownedDevice: device, udid: device.udid, videoSource: .device(device))
    }

    private func attach(_ udid: String, id: String, capabilities: SessionCapabilities) throws(WebDriverError) -> WebDriverSession {
        let record: DeviceRecord
        let client: DeviceClient
        do {
            record = try configuration.registry.resolve(udid)
            client = try DeviceClient.named(record.udid, registry: configuration.registry)
        } catch {
            throw .invalidArgument(
                "appium:udid '\(udid)': \(ErrorSentence.describe(error)) Boot one with `showreel device boot`; `showreel device list` lists them."
            )
        }
        let profile = DeviceProfile.named(record.profile) ?? .phone
        return WebDriverSession(
            id: id, capabilities: capabilities, device: SessionDevice(driver: client, profile: profile),
            ownedDevice: nil, udid: record.udid, videoSource: .displaySocket(record.displaySocket, client: client))
    }

    /// Checks the app, sets the status bar, starts the recording and launches the app.
    private func prepare(_ session: WebDriverSession) async throws(WebDriverError) {
        let capabilities = session.capabilities
        if let bundle = capabilities.bundleID {
            let installed = try await session.device.installedApps()
            guard installed.contains(bundle) else {
                let hint = Spelling.hint(for: bundle, in: installed)
                throw .invalidArgument(
                    "appium:bundleId '\(bundle)' is not installed on the device\(hint.isEmpty ? "." : hint) Installed: \(installed.joined(separator: ", "))."
                )
            }
        }
        if let statusBar = capabilities.statusBar { try await session.device.overrideStatusBar(statusBar) }
        if capabilities.record {
            let name = capabilities.name ?? session.id
            if await sessions.isNameTaken(name) {
                throw .invalidArgument(
                    "showreel:name '\(name)' is the name of a session running now; each session's video needs a name of its own.")
            }
            do {
                let start = await session.device.now()
                await session.setRecording(
                    try await SessionRecording(
                        session.videoSource, name: name, folder: configuration.output, start: start, logger: configuration.logger))
            } catch {
                throw WebDriverError(
                    .sessionNotCreated,
                    "The session's recording could not start in \(configuration.output.path): \(ErrorSentence.describe(error))")
            }
        }
        if let bundle = capabilities.bundleID, capabilities.autoLaunch {
            do throws(WebDriverError) {
                try await session.step("launch \(bundle)") {
                    try await session.device.launch(bundle, arguments: capabilities.arguments, environment: capabilities.environment)
                }
            } catch {
                throw WebDriverError(.sessionNotCreated, "\(bundle) could not be launched: \(error.message)")
            }
        }
    }

    /// The capabilities a new session reports back.
    private func reported(_ capabilities: SessionCapabilities, session: WebDriverSession) -> JSONValue {
        var value: [String: JSONValue] = [
            "platformName": "iOS", "appium:automationName": "Showreel", "appium:udid": .string(session.udid),
            "appium:deviceName": .string(capabilities.profile.name), "showreel:clock": .string(capabilities.clock.rawValue),
            "showreel:record": .bool(capabilities.record),
        ]
        if let bundle = capabilities.bundleID { value["appium:bundleId"] = .string(bundle) }
        if capabilities.record { value["showreel:name"] = .string(capabilities.name ?? session.id) }
        return .object(value)
    }
}

extension WebDriverSession {
    func setRecording(_ recording: SessionRecording) { sessionRecording = recording }
}
