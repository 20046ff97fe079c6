import Foundation
import Logging
import ShowreelFlows
import ShowreelUI

/// What `showreel studio` was asked for: the flow file, a new flow's header, and where to serve.
package struct StudioConfiguration: Sendable {
    /// The one file the studio writes (and screenshots beside it).
    package var flow: URL
    /// A new flow's header: the app, the device, the launch arguments (an existing file's own
    /// header wins).
    package var appId: String?
    package var profile: String?
    package var language: String?
    package var appearance: String?
    package var launchArguments: [String]
    package var apps: [AppDefinition]
    /// Loopback only: the page drives a device and writes a file.
    package var host = "127.0.0.1"
    package var port: Int
    package var logger: Logger

    package init(
        flow: URL, appId: String? = nil, profile: String? = nil, language: String? = nil, appearance: String? = nil,
        launchArguments: [String] = [], apps: [AppDefinition], port: Int = 0,
        logger: Logger = Logger(label: "showreel.studio", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.flow = flow
        self.appId = appId
        self.profile = profile
        self.language = language
        self.appearance = appearance
        self.launchArguments = launchArguments
        self.apps = apps
        self.port = port
        self.logger = logger
    }
}

/// A request the studio cannot do, said in one sentence (a 4xx for the page, an exit for the CLI).
package struct StudioError: Error, CustomStringConvertible, Sendable {
    package var description: String
    /// The flow's problems, each at its `file:line:column`, when the flow does not parse.
    package var diagnostics: [FlowDiagnostic]

    package init(_ description: String, diagnostics: [FlowDiagnostic] = []) {
        self.description = description
        self.diagnostics = diagnostics
    }
}
