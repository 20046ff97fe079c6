import ShowreelRender
import ShowreelUI

/// Where the Greeting app's text comes from (the dependency the debug drawer will swap).
public protocol StringService: AnyObject {
    var greeting: String { get }
}

/// The production greeting.
public final class DefaultStringService: StringService {
    public init() {}
    public var greeting: String { "Hello World" }
}

/// A button that generates a greeting and a label that shows it.
public enum GreetingApp {
    public static let bundleIdentifier = "dev.showreel.greeting"

    public static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Greeting") { _ in
        makeRootScreen(stringService: DefaultStringService())
    }

    public static func makeRootScreen(stringService: StringService) -> Screen {
        let navigation = NavigationController(rootScreen: GreetingScreen(stringService: stringService))
        navigation.prefersLargeTitles = true
        return navigation
    }
}

public final class GreetingScreen: Screen {
    public var stringService: StringService
    let greetingLabel = Label("", font: .system(34, weight: .bold), alignment: .center, lines: 0)
    let hintLabel = Label("Tap the button to generate a greeting.", font: .system(15), color: .secondaryLabel,
                          alignment: .center, lines: 0)
    let button = Button("Generate greeting")

    public init(stringService: StringService) {
        self.stringService = stringService
        super.init(title: "Greeting")
    }

    public override func viewDidLoad() {
        greetingLabel.accessibilityIdentifier = "greeting"
        hintLabel.accessibilityIdentifier = "greetingHint"
        button.accessibilityIdentifier = "generateGreeting"
        button.action = { [weak self] in
            guard let self else { return }
            greetingLabel.text = stringService.greeting
            hintLabel.isHidden = true
        }
        for subview in [greetingLabel, hintLabel, button] as [View] { view.addSubview(subview) }
    }

    public override func layout(safeArea: Rect) {
        let width = safeArea.width - 48
        greetingLabel.frame = Rect(x: 24, y: safeArea.midY - 110, width: width, height: 90)
        hintLabel.frame = Rect(x: 24, y: greetingLabel.frame.maxY + 8, width: width, height: 40)
        button.frame = Rect(x: 24, y: safeArea.maxY - 90, width: width, height: 54)
    }
}
