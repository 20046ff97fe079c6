import ShowreelRender
import ShowreelUI

/// The demo app's home: a three-column grid of buttons, each opening a test screen, the
/// counter ("You have pushed the button this many times" and the count) and the floating
/// add button, which counts after waiting the `delay` launch argument's seconds.
final class ExampleHomeScreen: Screen {
    let strings: LocalizedStrings
    private(set) var counter: Int
    let delay: Int
    private var buttons: [Button] = []
    private let caption: Label
    private let count: Label
    private let addButton = Button("", style: .filled)

    init(strings: LocalizedStrings, initialCounter: Int, delay: Int) {
        self.strings = strings
        counter = initialCounter
        self.delay = delay
        caption = Label(strings("You have pushed the button this many times"), font: .system(14), alignment: .trailing)
        count = Label(String(initialCounter), font: .system(28))
        super.init(title: strings("Flutter Demo Home Page"))
    }

    /// The grid's buttons: a title and the screen it pushes.
    private var destinations: [(String, () -> Screen)] {
        let strings = strings
        return [
            (strings("Defects Test"), { ExampleDefectsScreen(strings: strings) }),
            (strings("Nesting Test"), { ExampleNestingScreen(strings: strings) }),
            (strings("Swipe Test"), { ExampleSwipeScreen(strings: strings) }),
            (strings("Form Test"), { ExampleFormScreen(strings: strings) }),
            (strings("Input Test"), { ExampleInputScreen(strings: strings) }),
            (strings("Scrollable List"), { ExampleListScreen(strings: strings) }),
        ]
    }

    override func viewDidLoad() {
        for (title, make) in destinations {
            let button = Button(title, style: .bordered) { [weak self] in self?.navigationController?.push(make()) }
            button.font = .system(12, weight: .bold)
            button.cornerRadius = 18
            buttons.append(button)
            view.addSubview(button)
        }
        caption.numberOfLines = 0
        view.addSubview(caption)
        view.addSubview(count)
        // A Flutter FloatingActionButton: its tooltip is its label, the Semantics its identifier.
        addButton.symbol = .plus
        addButton.font = .system(22, weight: .bold)
        addButton.cornerRadius = 16
        addButton.accessibilityLabel = strings("Increment")
        addButton.accessibilityIdentifier = "fabAddIcon"
        addButton.action = { [weak self] in self?.increment() }
        view.addSubview(addButton)
    }

    /// Counts one, after `delay` seconds when the launch asked for a delay.
    func increment() {
        guard delay > 0, let scene else { return countOne() }
        scene.after(.seconds(delay)) { [weak self] in self?.countOne() }
    }

    private func countOne() {
        counter += 1
        count.text = String(counter)
        view.setNeedsLayout()
    }

    override func layout(safeArea: Rect) {
        let spacing = 6.0
        let width = (safeArea.width - 2 * spacing - 2 * spacing) / 3
        let height = width / 2.6
        for (index, button) in buttons.enumerated() {
            let column = Double(index % 3), row = Double(index / 3)
            button.frame = view.leading(
                Rect(
                    x: safeArea.minX + spacing + column * (width + spacing), y: safeArea.minY + spacing + row * (height + spacing),
                    width: width, height: height))
        }
        let gridBottom = (buttons.last?.frame.maxY ?? safeArea.minY) + 12
        let countWidth = max(24, count.sizeThatFits(Size(width: 200, height: 40)).width)
        let captionWidth = min(
            caption.sizeThatFits(Size(width: safeArea.width - countWidth - 32, height: 60)).width, safeArea.width - countWidth - 32)
        let rowWidth = captionWidth + 8 + countWidth
        let x = safeArea.midX - rowWidth / 2
        // Laid out from the left, mirrored in a right-to-left language (the grid reads from the
        // leading edge, the count follows the caption, the add button sits at the trailing corner).
        caption.frame = view.leading(Rect(x: x, y: gridBottom, width: captionWidth, height: 40))
        count.frame = view.leading(Rect(x: x + captionWidth + 8, y: gridBottom, width: countWidth, height: 40))
        addButton.frame = view.leading(Rect(x: safeArea.maxX - 16 - 56, y: safeArea.maxY - 16 - 56, width: 56, height: 56))
    }
}
