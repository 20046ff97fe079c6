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

/// A button that generates a greeting and a label that shows it. Debug builds add the
/// debug drawer, whose form switches the greeting to a custom message.
public enum GreetingApp {
    public static let bundleIdentifier = "dev.showreel.greeting"
    public static let infoDictionary = AppDefinition.infoDictionary(
        bundleIdentifier: bundleIdentifier, displayName: "Greeting", version: "2.3", build: "41")

    public static let definition = makeDefinition { makeServiceLocator(context: $0) }

    /// The app with the locator `makeLocator` builds (tests pick the production one to see
    /// what a release build does).
    public static func makeDefinition(
        locator makeLocator: @escaping @Sendable (LaunchContext) -> GreetingServiceLocating
    ) -> AppDefinition {
        AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Greeting", version: "2.3", build: "41") { context in
            makeRootScreen(locator: makeLocator(context))
        }
    }

    /// The one place a debug build differs from a release build.
    public static func makeServiceLocator(context: LaunchContext) -> GreetingServiceLocating {
        let production = ServiceLocator(context: context)
        #if DEBUG
        return ServiceLocatorForDebug(wrapping: production)
        #else
        return production
        #endif
    }

    public static func makeRootScreen(locator: GreetingServiceLocating) -> Screen {
        locator.defaults.registerDefaults(
            [:], volatileDefaults: GreetingDebugDefaults.registered,
            isVolatile: locator.debugDefaultsAreVolatile)
        let root = makeRootScreen(stringService: locator.stringService)
        root.sceneAccessories = locator.sceneAccessories
        return root
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
    let hintLabel = Label(
        "Tap the button to generate a greeting.", font: .system(15), color: .secondaryLabel,
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
