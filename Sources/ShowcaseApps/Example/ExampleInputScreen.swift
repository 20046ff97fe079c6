import ShowreelRender
import ShowreelUI

/// The demo app's input screen ("Input Test"): one field, identifier `textInput`, that the
/// `inputText`, `inputRandom*`, `eraseText`, `copyTextFrom` and `pasteText` flows type into.
final class ExampleInputScreen: Screen {
    let field: TextField

    init(strings: LocalizedStrings) {
        field = TextField(placeholder: strings("Test Input Field"))
        super.init(title: strings("Input Test"))
    }

    override func viewDidLoad() {
        field.accessibilityIdentifier = "textInput"
        view.addSubview(field)
    }

    override func layout(safeArea: Rect) {
        field.frame = Rect(x: safeArea.minX + 16, y: safeArea.minY + 16, width: safeArea.width - 32, height: 52)
    }
}
