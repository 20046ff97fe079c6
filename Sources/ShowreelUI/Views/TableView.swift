import ShowreelAccessibility
import ShowreelRender

/// A picture at the start of a row: a symbol in a coloured rounded square (settings-style),
/// or initials in a circle (contacts-style).
public struct RowImage {
    public var symbol: Symbol?
    public var initials: String?
    public var fill: Color
    public var tint: Color
    public var shape: ImageView.Shape
    public var size: Double

    public init(
        symbol: Symbol? = nil, initials: String? = nil, fill: Color = .systemBlue, tint: Color = .white,
        shape: ImageView.Shape = .roundedSquare, size: Double = 29
    ) {
        self.symbol = symbol; self.initials = initials; self.fill = fill; self.tint = tint; self.shape = shape; self.size = size
    }
}

/// What sits at the end of a row.
public enum CellAccessory: Sendable, Hashable { case none, disclosureIndicator, checkmark }

/// One row of a table or form.
public struct TableRow {
    public enum Style: Sendable, Hashable {
        /// Title on the left, `detail` (if any) in grey on the right.
        case `default`
        /// Title with a smaller grey subtitle under it.
        case subtitle
        /// A small caption (the title) above a value (the detail), as contact cards show.
        case caption
    }

    public enum Control {
        case none
        case toggle(isOn: Bool, onChange: ((Bool) -> Void)?)
        case textField(text: String, placeholder: String, isSecure: Bool, configure: ((TextField) -> Void)?)
    }

    public var identifier: String?
    public var title: String
    public var subtitle: String?
    public var detail: String?
    public var detailIdentifier: String?
    public var style: Style
    public var accessory: CellAccessory
    public var image: RowImage?
    public var titleColor: Color?
    /// The detail's colour (grey on the right; black under a caption unless set).
    public var detailColor: Color?
    public var titleAlignment: TextAlignment
    public var control: Control
    public var onSelect: (() -> Void)?

    public init(
        title: String, subtitle: String? = nil, detail: String? = nil, style: Style? = nil,
        accessory: CellAccessory = .none, image: RowImage? = nil, identifier: String? = nil,
        detailIdentifier: String? = nil, titleColor: Color? = nil, titleAlignment: TextAlignment = .leading,
        onSelect: (() -> Void)? = nil
    ) {
        self.title = title; self.subtitle = subtitle; self.detail = detail
        self.style = style ?? (subtitle == nil ? .default : .subtitle)
        self.accessory = accessory; self.image = image; self.identifier = identifier
        self.detailIdentifier = detailIdentifier; self.titleColor = titleColor; self.titleAlignment = titleAlignment
        self.control = .none; self.onSelect = onSelect
    }

    /// A form row with a switch (the switch carries the identifier).
    public static func toggle(
        _ title: String, isOn: Bool, identifier: String? = nil, image: RowImage? = nil,
        onChange: ((Bool) -> Void)? = nil
    ) -> TableRow {
        var row = TableRow(title: title, image: image, identifier: identifier)
        row.control = .toggle(isOn: isOn, onChange: onChange)
        return row
    }

    /// A form row with a text field (the field carries the identifier); a title, if any, labels it on the left.
    public static func textField(
        _ title: String = "", text: String = "", placeholder: String, identifier: String? = nil,
        isSecure: Bool = false, configure: ((TextField) -> Void)? = nil
    ) -> TableRow {
        var row = TableRow(title: title, identifier: identifier)
        row.control = .textField(text: text, placeholder: placeholder, isSecure: isSecure, configure: configure)
        return row
    }

    /// A form row showing a value on the right (the value label carries `valueIdentifier`).
    public static func value(
        _ title: String, _ value: String, identifier: String? = nil, valueIdentifier: String? = nil,
        accessory: CellAccessory = .none, onSelect: (() -> Void)? = nil
    ) -> TableRow {
        TableRow(
            title: title, detail: value, accessory: accessory, identifier: identifier, detailIdentifier: valueIdentifier,
            onSelect: onSelect)
    }

    /// A tappable row that reads as a button (tinted, or red for destructive ones).
    public static func button(
        _ title: String, color: Color = .systemBlue, identifier: String? = nil,
        alignment: TextAlignment = .leading, action: @escaping () -> Void
    ) -> TableRow {
        TableRow(title: title, identifier: identifier, titleColor: color, titleAlignment: alignment, onSelect: action)
    }
}

/// A group of rows with an optional header and footer.
public struct TableSection {
    public var header: String?
    public var footer: String?
    public var rows: [TableRow]

    public init(header: String? = nil, footer: String? = nil, rows: [TableRow]) {
        self.header = header; self.footer = footer; self.rows = rows
    }
}

/// A scrolling list of rows in sections: plain (full-width rows, as a list of countries)
/// or inset grouped (rounded sections on a grey background, as Settings and forms).
open class TableView: ScrollView {
    public enum Style: Sendable { case plain, insetGrouped }

    public let style: Style
    public var sections: [TableSection] { didSet { reloadData() } }
    public private(set) var cells: [[TableCell]] = []
    /// A view above the first section (a contact card's photo and name).
    public var tableHeaderView: View? {
        didSet {
            oldValue?.removeFromSuperview()
            if let tableHeaderView { addSubview(tableHeaderView) }
            setNeedsLayout()
        }
    }
    private var headerLabels: [Label?] = []
    private var footerLabels: [Label?] = []
    private var laidOutWidth = -1.0

    public init(style: Style = .plain, sections: [TableSection] = []) {
        self.style = style
        self.sections = sections
        super.init()
        elementType = .table
        isAccessibilityElement = true
        backgroundColor = style == .plain ? .systemBackground : .groupedBackground
        reloadData()
    }

    /// Rebuilds every cell from `sections`.
    public func reloadData() {
        for row in cells { for cell in row { cell.removeFromSuperview() } }
        for label in headerLabels + footerLabels { label?.removeFromSuperview() }
        cells = sections.map { section in
            section.rows.enumerated().map { index, row in
                let cell = TableCell(row: row, grouped: style == .insetGrouped)
                cell.position = (first: index == 0, last: index == section.rows.count - 1)
                return cell
            }
        }
        headerLabels = sections.map { section in
            section.header.map { text in
                let label = Label(
                    style == .insetGrouped ? text.uppercased() : text,
                    font: style == .insetGrouped ? .system(13) : .system(15, weight: .bold),
                    color: style == .insetGrouped ? .secondaryLabel : .label, lines: 0)
                label.accessibilityLabel = text
                if style == .plain { label.backgroundColor = .groupedBackground }
                return label
            }
        }
        footerLabels = sections.map { section in
            section.footer.map { Label($0, font: .system(13), color: .secondaryLabel, lines: 0) }
        }
        for (index, row) in cells.enumerated() {
            if let header = headerLabels[index] { addSubview(header) }
            for cell in row { addSubview(cell) }
            if let footer = footerLabels[index] { addSubview(footer) }
        }
        laidOutWidth = -1
        setNeedsLayout()
    }

    /// Re-measures every row on the next layout (a cell's content changed its height).
    func invalidateRowHeights() {
        laidOutWidth = -1
        setNeedsLayout()
    }

    /// The first cell whose row (or control) has `identifier`.
    public func cell(withIdentifier identifier: String) -> TableCell? {
        cells.joined().first { $0.row.identifier == identifier }
    }

    public func cell(at section: Int, row: Int) -> TableCell? {
        guard cells.indices.contains(section), cells[section].indices.contains(row) else { return nil }
        return cells[section][row]
    }

    var sideMargin: Double { style == .plain ? 0 : (bounds.width >= 400 ? 20 : 16) }

    open override func layoutSubviews() {
        let width = bounds.width
        let margin = sideMargin
        let rowWidth = width - 2 * margin
        var y = 0.0
        if let header = tableHeaderView {
            let size = header.sizeThatFits(Size(width: width, height: 10_000))
            header.frame = Rect(x: 0, y: 0, width: width, height: size.height)
            y = size.height
        }
        for (index, row) in cells.enumerated() {
            if let header = headerLabels[index] {
                switch style {
                case .insetGrouped:
                    y += 17
                    let textWidth = rowWidth - 32
                    let h = header.sizeThatFits(Size(width: textWidth, height: 1000)).height
                    header.frame = Rect(x: margin + 16, y: y, width: textWidth, height: h)
                    y += h + 6
                case .plain:
                    header.frame = Rect(x: 0, y: y, width: width, height: 28)
                    y += 28
                }
            } else if style == .insetGrouped {
                y += index == 0 && tableHeaderView == nil ? 20 : 35
            }
            for cell in row {
                let height = cell.preferredHeight(width: rowWidth)
                cell.frame = Rect(x: margin, y: y, width: rowWidth, height: height)
                y += height
            }
            if let footer = footerLabels[index] {
                let textWidth = rowWidth - 32
                let h = footer.sizeThatFits(Size(width: textWidth, height: 1000)).height
                footer.frame = Rect(x: margin + 16, y: y + 7, width: textWidth, height: h)
                y += h + 7
            }
        }
        contentSize = Size(width: width, height: y + (style == .insetGrouped ? 35 : 0))
        if contentOffset.y > maxOffsetY && !isDragging { contentOffset = Point(x: 0, y: maxOffsetY) }
    }
}

/// A row of a table: image, title (with subtitle or caption), detail, accessory or control.
open class TableCell: View {
    public private(set) var row: TableRow
    let grouped: Bool
    var position: (first: Bool, last: Bool) = (true, true) { didSet { updateCorners() } }
    public let titleLabel = Label("", font: .body)
    public let subtitleLabel = Label("", font: .system(15), color: .secondaryLabel)
    public let detailLabel = Label("", font: .body, color: .secondaryLabel, alignment: .trailing)
    public private(set) var imageView: ImageView?
    public private(set) var switchControl: Switch?
    public private(set) var textField: TextField?
    /// Changes the row's detail text in place; the table re-measures the row, so a detail that
    /// now wraps gets the height it needs instead of drawing over the title.
    public func setDetail(_ text: String) {
        row.detail = text
        detailLabel.text = text
        (superview as? TableView)?.invalidateRowHeights()
    }

    /// How much of the selection grey shows (1 while touched; fades after a tap).
    var highlightAmount: Double = 0 { didSet { if highlightAmount != oldValue { setNeedsDisplay() } } }

    init(row: TableRow, grouped: Bool) {
        self.row = row
        self.grouped = grouped
        super.init()
        elementType = .cell
        isAccessibilityElement = true
        backgroundColor = grouped ? .secondarySystemGroupedBackground : .systemBackground
        configure()
    }

    private func configure() {
        accessibilityIdentifier = row.identifier
        titleLabel.text = row.title
        titleLabel.textColor = row.titleColor ?? .label
        titleLabel.alignment = row.titleAlignment
        if row.style == .caption {
            titleLabel.font = .system(13)
            titleLabel.textColor = row.titleColor ?? .label
            detailLabel.font = .body
            detailLabel.textColor = row.detailColor ?? .label
            detailLabel.alignment = .leading
            detailLabel.numberOfLines = 2
        }
        addSubview(titleLabel)
        if let subtitle = row.subtitle {
            subtitleLabel.text = subtitle
            addSubview(subtitleLabel)
        }
        if let detail = row.detail {
            detailLabel.text = detail
            if let color = row.detailColor { detailLabel.textColor = color }
            detailLabel.accessibilityIdentifier = row.detailIdentifier
            addSubview(detailLabel)
        }
        if let image = row.image {
            let view = ImageView(symbol: image.symbol, shape: image.shape, fill: image.fill, tint: image.tint, initials: image.initials)
            if image.shape == .circle && image.symbol == nil {
                view.gradientEnd = image.fill.mixed(with: .black, amount: 0.25)
            }
            imageView = view
            addSubview(view)
        }
        switch row.control {
        case .none: break
        case .toggle(let isOn, let onChange):
            let control = Switch(isOn: isOn, onChange: onChange)
            control.accessibilityIdentifier = row.identifier
            control.accessibilityLabel = row.title
            accessibilityIdentifier = nil
            switchControl = control
            addSubview(control)
        case .textField(let text, let placeholder, let isSecure, let configure):
            let field = TextField(text: text, placeholder: placeholder, borderStyle: .none)
            field.isSecureTextEntry = isSecure
            field.accessibilityIdentifier = row.identifier
            if !row.title.isEmpty { field.accessibilityLabel = row.title }
            accessibilityIdentifier = nil
            configure?(field)
            textField = field
            addSubview(field)
        }
        updateCorners()
    }

    private func updateCorners() {
        guard grouped else { return }
        var corners: RectCorners = []
        if position.first { corners.formUnion(.top) }
        if position.last { corners.formUnion(.bottom) }
        maskedCorners = corners
        cornerRadius = corners.isEmpty ? 0 : 10
    }

    var isSelectable: Bool {
        if case .none = row.control { return row.onSelect != nil || row.accessory == .disclosureIndicator }
        return false
    }

    func preferredHeight(width: Double) -> Double {
        switch row.style {
        case .subtitle: return max(60, (row.image?.size ?? 0) + 16)
        case .caption:
            if let detail = row.detail, TextMetrics.size(of: detail, font: .body).width > width - textLeading - 16 {
                return 84
            }
            return 62
        case .default: return max(44, (row.image?.size ?? 0) + 16)
        }
    }

    /// Where the text starts (and the separator under it).
    var textLeading: Double {
        guard let image = row.image else { return 16 }
        return 16 + image.size + (grouped ? 16 : 12)
    }

    // The layout below reads left to right; the toolkit mirrors it for Arabic and Hebrew.
    open override var mirrorsLayoutInRightToLeft: Bool { true }

    open override func layoutSubviews() {
        let width = bounds.width, height = bounds.height
        if let imageView, let image = row.image {
            imageView.frame = Rect(x: 16, y: (height - image.size) / 2, width: image.size, height: image.size)
        }
        let leading = textLeading
        var trailing = width - 16
        if row.accessory != .none { trailing -= 20 }
        if let switchControl {
            switchControl.frame = Rect(
                x: width - 16 - Switch.size.width, y: (height - Switch.size.height) / 2,
                width: Switch.size.width, height: Switch.size.height)
            trailing = switchControl.frame.minX - 8
        }
        switch row.style {
        case .default:
            if let textField {
                if row.title.isEmpty {
                    titleLabel.frame = .zero
                    textField.frame = Rect(x: leading, y: 0, width: trailing - leading, height: height)
                } else {
                    let titleWidth = min(max(TextMetrics.size(of: row.title, font: titleLabel.font).width + 12, 90), width * 0.4)
                    titleLabel.frame = Rect(x: leading, y: 0, width: titleWidth, height: height)
                    textField.frame = Rect(x: leading + titleWidth, y: 0, width: trailing - leading - titleWidth, height: height)
                }
            } else if row.detail != nil {
                let titleWidth = min(
                    TextMetrics.size(of: row.title, font: titleLabel.font).width.rounded(.up) + 2, (trailing - leading) * 0.55)
                titleLabel.frame = Rect(x: leading, y: 0, width: titleWidth, height: height)
                let detailX = leading + titleWidth + 8
                detailLabel.frame = Rect(x: detailX, y: 0, width: max(0, trailing - detailX), height: height)
            } else {
                titleLabel.frame = Rect(x: leading, y: 0, width: max(0, trailing - leading), height: height)
            }
        case .subtitle:
            titleLabel.frame = Rect(x: leading, y: height / 2 - 22, width: max(0, trailing - leading), height: 24)
            subtitleLabel.frame = Rect(x: leading, y: height / 2 + 1, width: max(0, trailing - leading), height: 20)
            if row.detail != nil {
                detailLabel.frame = Rect(x: trailing - 120, y: 0, width: 120, height: height)
            }
        case .caption:
            titleLabel.frame = Rect(x: leading, y: 9, width: max(0, trailing - leading), height: 18)
            detailLabel.frame = Rect(x: leading, y: 28, width: max(0, trailing - leading), height: height - 36)
        }
    }

    open override func draw(in canvas: Canvas) {
        if highlightAmount > 0 {
            let grey = Color.systemGray4.withAlpha(highlightAmount)
            if cornerRadius > 0 {
                canvas.fill(bounds, color: grey, cornerRadius: cornerRadius, corners: maskedCorners)
            } else {
                canvas.fill(bounds, color: grey)
            }
        }
        switch row.accessory {
        case .none: break
        case .disclosureIndicator:
            // Points the way the list reads: right, or left in a right-to-left interface.
            let (x, tip) = isRightToLeft ? (24.0, 24.0 - 6.5) : (bounds.width - 16 - 8, bounds.width - 16 - 8 + 6.5)
            canvas.stroke(
                Path(polyline: [
                    Point(x: x, y: bounds.midY - 6.5), Point(x: tip, y: bounds.midY),
                    Point(x: x, y: bounds.midY + 6.5),
                ]),
                color: Color(light: Color(hex: 0xC4C4C7), dark: Color(hex: 0x5A5A5E)), lineWidth: 2.2)
        case .checkmark:
            Symbol.checkmark.draw(
                in: leading(Rect(x: bounds.width - 16 - 16, y: bounds.midY - 8, width: 16, height: 16)),
                color: .systemBlue, canvas: canvas)
        }
        if !position.last || !grouped {
            let start = grouped || row.image != nil ? textLeading : 16
            canvas.fill(
                leading(Rect(x: start, y: bounds.height - 0.5, width: bounds.width - start, height: 0.5)),
                color: Color.separator.withAlpha(0.9))
        }
    }

    // MARK: Touches

    open override func touchBegan(at point: Point) -> Bool {
        guard isSelectable, isEnabled else { return false }
        scene?.cancelAnimation(key: AnimationKey(owner: self, name: "highlight"))
        highlightAmount = 1
        return true
    }

    open override func touchMoved(to point: Point) {
        highlightAmount = bounds.contains(point) ? 1 : 0
    }

    @discardableResult
    open override func touchEnded(at point: Point) -> Bool {
        guard bounds.contains(point) else { highlightAmount = 0; return false }
        row.onSelect?()
        // Deselect with a fade, as a list does when its row is tapped.
        animate(
            duration: AnimationDurations.highlightFade, curve: .easeOut, key: "highlight",
            { [weak self] p in
                self?.highlightAmount = 1 - p
            })
        return true
    }

    open override func touchCancelled() { highlightAmount = 0 }

    open override func handleTap() -> Bool {
        guard isSelectable else { return false }
        row.onSelect?()
        return true
    }

    open override var effectiveAccessibilityLabel: String { accessibilityLabel ?? row.title }
    open override var effectiveAccessibilityValue: String? { accessibilityValue ?? row.detail }
}
