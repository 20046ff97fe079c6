#if DEBUG
import ShowreelRender
import ShowreelUI

/// The debug drawer's form: the greeting's settings (stored in the app's defaults as they
/// change) and the build, from the app's info dictionary.
final class GreetingDebugFormForDebug: TableScreen {
    let defaults: AppDefaults
    let buildInfo: BuildInfo

    init(defaults: AppDefaults, buildInfo: BuildInfo) {
        self.defaults = defaults
        self.buildInfo = buildInfo
        super.init(title: "Debug settings", identifier: "debugForm")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        let defaults = self.defaults
        table.sections = [
            TableSection(
                header: "Greeting", footer: "Off: the greeting shows the custom message.",
                rows: [
                    .toggle(
                        "Use default", isOn: defaults.bool(forKey: GreetingDebugDefaults.useDefault),
                        identifier: GreetingDebugDefaults.useDefault
                    ) { on in
                        defaults.set(on, forKey: GreetingDebugDefaults.useDefault)
                    },
                    .textField(
                        "Message", text: defaults.string(forKey: GreetingDebugDefaults.customDebugMessage) ?? "",
                        placeholder: "Custom message", identifier: GreetingDebugDefaults.customDebugMessage
                    ) { field in
                        field.returnKeyType = .done
                        field.onChange = { defaults.set($0, forKey: GreetingDebugDefaults.customDebugMessage) }
                        field.onReturn = { $0.resignFirstResponder() }
                    },
                ]),
            TableSection(
                header: "Build information",
                rows: [
                    .value("Version", buildInfo.version, identifier: "buildVersionRow", valueIdentifier: "buildVersion"),
                    .value("Build", buildInfo.build, identifier: "buildNumberRow", valueIdentifier: "buildNumber"),
                    TableRow(
                        title: "Bundle identifier", detail: buildInfo.bundleIdentifier, style: .caption,
                        identifier: "bundleIdentifierRow", detailIdentifier: "bundleIdentifier"),
                ]),
        ]
    }
}
#endif
