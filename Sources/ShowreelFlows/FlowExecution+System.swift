import Foundation
import Logging
import ShowreelAccessibility
import ShowreelDevice
import ShowreelGraphics
import ShowreelRender
import ShowreelScript
import ShowreelUI
import ShowreelWire
import Yams

extension FlowExecution {
    /// A `SystemStep` on the flow's device: each is a `DeviceAction` (or, for `copyTextFrom`,
    /// a read and one), so the device traces it like any step.
    func perform(_ step: SystemStep) async throws {
        switch step {
        case let .setClipboard(text):
            let text = try resolve(text)
            _ = try await device.perform(.setPasteboard(text))
            scripts.copiedText = text
        case .pasteText:
            guard await device.hasFocusedTextField else {
                throw StepFailure(message: "no text field has focus to paste into: tap one first")
            }
            // As Maestro does, what a script put in maestro.copiedText is what is pasted.
            if let copied = scripts.copiedText { _ = try await device.perform(.setPasteboard(copied)) }
            _ = try await device.perform(.keyCommand(DeviceAction.KeyCommand("v", modifiers: .command)))
        case let .copyTextFrom(target):
            let element = try await element(try Self.spec(try resolve(target)))
            let text = element.value.flatMap { $0.isEmpty ? nil : $0 } ?? element.label
            guard !text.isEmpty else { throw StepFailure(message: "\(element.displayName) has no text to copy") }
            _ = try await device.perform(.setPasteboard(text))
            scripts.copiedText = text
        case let .openLink(url):
            _ = try await device.perform(.openURL(try resolve(url)))
        case let .setAirplaneMode(on):
            let current = await device.airplaneMode()
            _ = try await device.perform(.setAirplaneMode(on ?? !current))
        case let .setLocation(place):
            _ = try await device.perform(.setLocation(place))
        case let .addMedia(files):
            for file in files {
                guard let data = FileManager.default.contents(atPath: file.path) else {
                    throw StepFailure(message: "addMedia: \(file.path) could not be read")
                }
                _ = try await device.perform(.addMedia(MediaFile(name: file.lastPathComponent, data: data)))
            }
        case let .setOrientation(orientation):
            _ = try await device.perform(.setOrientation(orientation))
        case let .travel(route):
            // As Maestro does, the step lasts as long as the journey (the video shows it).
            _ = try await device.perform(.travel(route))
            _ = try await device.perform(.wait(route.duration))
        case let .setPermissions(app, permissions):
            guard let app = app ?? flow.appId else { throw StepFailure(message: "no app to set permissions for: name one with appId") }
            try await apply(permissions, to: app)
        }
    }
}
