import ShowreelUI

/// The demo app's scrollable list ("Scrollable List"): Item 1 to Item 20, for `scroll` and
/// `scrollUntilVisible`.
final class ExampleListScreen: Screen {
    let table = TableView(style: .plain)

    init(strings: LocalizedStrings) {
        super.init(title: strings("Scrollable List"))
        table.sections = [TableSection(rows: (1...20).map { TableRow(title: strings("Item %lld", $0)) })]
    }

    override func viewDidLoad() {
        contentView = table
    }
}
