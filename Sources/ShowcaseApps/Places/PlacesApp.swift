import ShowreelRender
import ShowreelUI

/// The device-state sample: an app that asks for the location (the system's permission alert,
/// answered in a test or a flow, or set beforehand with `simctl privacy`) and says what it got.
public enum PlacesApp {
    public static let bundleIdentifier = "dev.showreel.places"

    public static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Places") { context in
        let strings = try AppStrings.load("Places", context: context, bundleIdentifier: bundleIdentifier)
        let navigation = NavigationController(rootScreen: PlacesScreen(strings: strings))
        navigation.prefersLargeTitles = true
        navigation.layoutDirection = strings.layoutDirection
        return navigation
    }
}

/// Where the person is: a button that asks to share the location, and what came of it.
final class PlacesScreen: Screen {
    let strings: LocalizedStrings
    let status: Label
    let shareButton: Button

    init(strings: LocalizedStrings) {
        self.strings = strings
        status = Label(strings("Location not shared yet"), font: .system(17), color: .secondaryLabel, alignment: .center, lines: 0)
        shareButton = Button(strings("Share My Location"))
        super.init(title: strings("Places"))
    }

    override func viewDidLoad() {
        status.accessibilityIdentifier = "locationStatus"
        shareButton.accessibilityIdentifier = "shareLocation"
        shareButton.action = { [weak self] in self?.shareLocation() }
        view.addSubview(status)
        view.addSubview(shareButton)
    }

    func shareLocation() {
        requestPermission(.location, reason: strings("Places shows where you are and the way you go.")) { [weak self] granted in
            guard let self else { return }
            status.text = granted ? strings("Location shared") : strings("Location not allowed: allow it in Settings.")
            status.textColor = granted ? .label : .systemRed
        }
    }

    override func layout(safeArea: Rect) {
        let width = safeArea.width - 48
        status.frame = Rect(x: 24, y: safeArea.minY + 120, width: width, height: 60)
        shareButton.frame = Rect(x: 24, y: safeArea.maxY - 120, width: width, height: 54)
    }
}
