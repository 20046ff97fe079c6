import ShowreelRender
import ShowreelUI

/// The smallest sample app: a title, a counter label and a button that changes it.
/// It is the walking skeleton's screen and the quickest thing to record.
/// `--hello-title TEXT` changes the title (a recording for a client can show their name).
public enum HelloApp {
    public static let bundleIdentifier = "dev.showreel.hello"
    public static let titleArgument = "--hello-title"

    public static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Hello") { context in
        let strings = try AppStrings.load("Hello", context: context, bundleIdentifier: bundleIdentifier)
        let screen = HelloScreen(title: context.option(for: titleArgument) ?? "Showreel", strings: strings)
        screen.layoutDirection = strings.layoutDirection
        return screen
    }
    // A screen made for holding upright: on a device turned on its side it stays portrait.
    .supportingOrientations([.portrait])
}

final class HelloScreen: Screen {
    private var taps = 0
    private let titleLabel: Label
    private let countLabel: Label
    private let button: Button
    private let strings: LocalizedStrings

    init(title: String, strings: LocalizedStrings) {
        self.strings = strings
        titleLabel = Label(title, font: .largeTitle, alignment: .center)
        countLabel = Label(strings("Not tapped yet"), font: .system(22), color: .secondaryLabel, alignment: .center)
        button = Button(strings("Tap me"))
        super.init(title: strings("Hello"))
    }

    override func viewDidLoad() {
        titleLabel.accessibilityIdentifier = "title"
        countLabel.accessibilityIdentifier = "tapCount"
        button.accessibilityIdentifier = "tapButton"
        button.action = { [weak self] in
            guard let self else { return }
            taps += 1
            countLabel.text = strings("Tapped %lld times", taps)
            countLabel.textColor = .label
            view.backgroundColor = taps.isMultiple(of: 2) ? .systemBackground : Self.tappedBackground
        }
        for subview in [titleLabel, countLabel, button] as [View] { view.addSubview(subview) }
    }

    /// A light blue, or a deep blue in dark appearance.
    static let tappedBackground = Color(light: Color(hex: 0xE8F1FF), dark: Color(hex: 0x0A1A33))

    override func layout(safeArea: Rect) {
        let width = safeArea.width - 48
        titleLabel.frame = Rect(x: 24, y: safeArea.minY + 140, width: width, height: 44)
        countLabel.frame = Rect(x: 24, y: titleLabel.frame.maxY + 24, width: width, height: 30)
        button.frame = Rect(x: 24, y: safeArea.maxY - 120, width: width, height: 54)
    }
}
