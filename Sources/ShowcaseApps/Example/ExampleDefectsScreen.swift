import ShowreelRender
import ShowreelUI

/// The demo app's defects screen ("Defects Test"), made for Maestro's AI assertions to find
/// layout defects: buttons that overlap and a text cut off after two lines.
final class ExampleDefectsScreen: Screen {
    let text: Label
    let buttons: [Button]

    init(strings: LocalizedStrings) {
        text = Label(
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.",
            font: .system(15), lines: 2)
        buttons = ["Do thing A", "Do thing B", "Do thing X", "Do thing Y"].map { Button(strings($0), style: .bordered) }
        super.init(title: strings("Defects test screen"))
    }

    override func viewDidLoad() {
        view.addSubview(text)
        for button in buttons {
            button.cornerRadius = 20
            view.addSubview(button)
        }
    }

    override func layout(safeArea: Rect) {
        text.frame = Rect(x: safeArea.minX, y: safeArea.minY + 100, width: safeArea.width, height: 44)
        let size = Size(width: 130, height: 40)
        // A and B overlap at the top left; X and Y at the bottom right.
        buttons[0].frame = Rect(x: safeArea.minX, y: safeArea.minY, width: size.width, height: size.height)
        buttons[1].frame = Rect(x: safeArea.minX + 20, y: safeArea.minY + 20, width: size.width, height: size.height)
        buttons[2].frame = Rect(
            x: safeArea.maxX - 20 - size.width, y: safeArea.maxY - 20 - size.height, width: size.width, height: size.height)
        buttons[3].frame = Rect(
            x: safeArea.maxX - 40 - size.width, y: safeArea.maxY - 40 - size.height, width: size.width, height: size.height)
    }
}
