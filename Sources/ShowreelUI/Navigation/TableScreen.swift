import ShowreelRender

/// A screen whose content is one table filling its safe area (forms, settings, lists), on
/// the grouped background for an inset-grouped table; a small title in a navigation bar.
open class TableScreen: Screen {
    public let table: TableView

    public init(title: String, style: TableView.Style = .insetGrouped, identifier: String? = nil) {
        table = TableView(style: style)
        table.accessibilityIdentifier = identifier
        super.init(title: title, background: style == .insetGrouped ? .groupedBackground : .systemBackground)
        largeTitleDisplayMode = .never
    }

    open override func viewDidLoad() {
        contentView = table
    }
}
