import ShowreelAccessibility
import ShowreelRender

/// A person, as the contact card shows them.
public struct Contact: Sendable, Equatable {
    public var givenName: String
    public var familyName: String
    public var phone: String?
    public var email: String?
    public var note: String?

    public init(givenName: String, familyName: String, phone: String? = nil, email: String? = nil, note: String? = nil) {
        self.givenName = givenName; self.familyName = familyName; self.phone = phone; self.email = email; self.note = note
    }

    public var fullName: String { [givenName, familyName].filter { !$0.isEmpty }.joined(separator: " ") }
    public var initials: String { [givenName.first, familyName.first].compactMap { $0 }.map(String.init).joined() }
}

/// The system contact card (as `CNContactViewController`): photo, name, quick actions and
/// the contact's fields. It is a system screen: its navigation bar reads the app's
/// appearance proxies like the app's own bars do, which is the problem
/// `resetToDefaultAppearance()` exists for.
public final class ContactCardScreen: Screen {
    public let contact: Contact
    private let table = TableView(style: .insetGrouped)

    public init(contact: Contact) {
        self.contact = contact
        super.init(title: "", background: .groupedBackground)
        largeTitleDisplayMode = .never
    }

    /// The card in a navigation controller with a Done button that dismisses it, ready to present.
    public static func presentable(contact: Contact, onDone: (() -> Void)? = nil) -> NavigationController {
        let card = ContactCardScreen(contact: contact)
        let nav = NavigationController(rootScreen: card)
        card.rightBarButtonItems = [
            BarButtonItem(title: "Done", style: .done, identifier: "Done") { [weak nav] in
                nav?.dismiss(animated: true) { onDone?() }
            }
        ]
        return nav
    }

    public override func viewDidLoad() {
        table.accessibilityIdentifier = "contactCard"
        table.tableHeaderView = ContactHeaderView(contact: contact)
        var rows: [TableRow] = []
        if let phone = contact.phone {
            var row = TableRow(title: "mobile", detail: phone, style: .caption, identifier: "contactPhone")
            row.detailColor = .systemBlue
            rows.append(row)
        }
        if let email = contact.email {
            var row = TableRow(title: "email", detail: email, style: .caption, identifier: "contactEmail")
            row.detailColor = .systemBlue
            rows.append(row)
        }
        var sections = [TableSection(rows: rows)]
        sections.append(
            TableSection(rows: [TableRow(title: "Notes", detail: contact.note ?? " ", style: .caption, identifier: "contactNotes")]))
        sections.append(
            TableSection(rows: [
                .button("Send Message", identifier: "sendMessage") {},
                .button("Share Contact", identifier: "shareContact") {},
                .button("Add to Favourites", identifier: "addToFavourites") {},
            ]))
        table.sections = sections
        contentView = table
    }

    public override func layout(safeArea: Rect) {
        table.frame = Rect(x: 0, y: safeArea.minY, width: view.bounds.width, height: view.bounds.height - safeArea.minY)
    }
}

/// The top of a contact card: a grey photo circle with initials, the name, four quick actions.
final class ContactHeaderView: View {
    let avatar: ImageView
    let nameLabel: Label
    var actionViews: [View] = []

    init(contact: Contact) {
        avatar = ImageView(shape: .circle, fill: Color(hex: 0xA5ABB8), tint: .white, initials: contact.initials)
        avatar.gradientEnd = Color(hex: 0x858994)
        nameLabel = Label(contact.fullName, font: .system(28), alignment: .center)
        nameLabel.accessibilityIdentifier = "contactName"
        super.init()
        addSubview(avatar)
        addSubview(nameLabel)
        for (symbol, caption) in [(Symbol.message, "message"), (.phone, "call"), (.video, "video"), (.envelope, "mail")] {
            let action = QuickActionView(symbol: symbol, caption: caption)
            actionViews.append(action)
            addSubview(action)
        }
    }

    override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 250) }

    override func layoutSubviews() {
        let width = bounds.width
        avatar.frame = Rect(x: width / 2 - 50, y: 16, width: 100, height: 100)
        nameLabel.frame = Rect(x: 16, y: 126, width: width - 32, height: 38)
        let margin = width >= 400 ? 20.0 : 16.0
        let gap = 8.0
        let itemWidth = (width - 2 * margin - gap * 3) / 4
        for (index, view) in actionViews.enumerated() {
            view.frame = Rect(x: margin + Double(index) * (itemWidth + gap), y: 180, width: itemWidth, height: 58)
        }
    }
}

/// One quick action on a contact card (message, call, video, mail): a tinted symbol over a caption.
final class QuickActionView: View {
    let symbol: Symbol
    let caption: String

    init(symbol: Symbol, caption: String) {
        self.symbol = symbol
        self.caption = caption
        super.init()
        backgroundColor = .secondarySystemGroupedBackground
        cornerRadius = 10
        elementType = .button
        isAccessibilityElement = true
        accessibilityIdentifier = caption
        accessibilityLabel = caption
    }

    override func draw(in canvas: Canvas) {
        symbol.draw(in: Rect(x: bounds.midX - 11, y: 9, width: 22, height: 22), color: .systemBlue, canvas: canvas)
        canvas.draw(
            caption, in: Rect(x: 0, y: 35, width: bounds.width, height: 16), font: .system(11), color: .systemBlue,
            alignment: .center)
    }
}

/// The system share sheet: the shared item, a row of apps and a list of actions. It sits
/// in a navigation bar that, like every system bar, reads the app's appearance proxies.
/// `onComplete` gets the chosen activity's identifier (nil when closed).
public final class ShareSheetScreen: Screen {
    public let items: [String]
    public var onComplete: ((String?) -> Void)?
    private let table = TableView(style: .insetGrouped)

    public init(items: [String], onComplete: ((String?) -> Void)? = nil) {
        self.items = items
        self.onComplete = onComplete
        super.init(title: "Share", background: .groupedBackground)
        largeTitleDisplayMode = .never
    }

    /// The sheet in a navigation controller with a Close button, ready to present.
    public static func presentable(items: [String], onComplete: ((String?) -> Void)? = nil) -> NavigationController {
        let sheet = ShareSheetScreen(items: items, onComplete: onComplete)
        let nav = NavigationController(rootScreen: sheet)
        sheet.rightBarButtonItems = [
            BarButtonItem(symbol: .xmark, title: "Close", identifier: "Close") { [weak sheet] in
                sheet?.finish(nil)
            }
        ]
        return nav
    }

    func finish(_ activity: String?) {
        let completion = onComplete
        dismiss(animated: true) { completion?(activity) }
    }

    public override func viewDidLoad() {
        table.accessibilityIdentifier = "shareSheet"
        table.tableHeaderView = ShareAppsRow(items: items) { [weak self] app in self?.finish(app) }
        table.sections = [
            TableSection(rows: [
                TableRow(title: "Copy", image: RowImage(symbol: .doc, fill: .systemGray5, tint: .label), identifier: "Copy") {
                    [weak self] in self?.finish("copy")
                },
                TableRow(
                    title: "Add to Reading List", image: RowImage(symbol: .star, fill: .systemGray5, tint: .label),
                    identifier: "Add to Reading List"
                ) { [weak self] in self?.finish("readingList") },
                TableRow(
                    title: "Save to Files", image: RowImage(symbol: .folder, fill: .systemGray5, tint: .systemBlue),
                    identifier: "Save to Files"
                ) { [weak self] in self?.finish("files") },
            ])
        ]
        contentView = table
    }

    public override func layout(safeArea: Rect) {
        table.frame = Rect(x: 0, y: safeArea.minY, width: view.bounds.width, height: view.bounds.height - safeArea.minY)
    }
}

/// The share sheet's preview of the item and its row of app icons.
final class ShareAppsRow: View {
    let preview: Label
    let icon = ImageView(symbol: .doc, shape: .roundedSquare, fill: .systemGray5, tint: .systemGray)
    var apps: [Button] = []

    init(items: [String], onSelect: @escaping (String) -> Void) {
        preview = Label(items.joined(separator: ", "), font: .system(15, weight: .bold), lines: 2)
        super.init()
        addSubview(icon)
        addSubview(preview)
        let entries: [(String, Symbol, Color)] = [
            ("AirDrop", .share, .systemBlue), ("Messages", .message, .systemGreen), ("Mail", .envelope, .systemBlue),
            ("Notes", .doc, .systemYellow), ("Reminders", .bell, .systemOrange),
        ]
        for (name, symbol, color) in entries {
            let button = ShareAppButton(name: name, symbol: symbol, color: color) { onSelect(name) }
            apps.append(button)
            addSubview(button)
        }
    }

    override func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 190) }

    override func layoutSubviews() {
        let margin = bounds.width >= 400 ? 20.0 : 16.0
        icon.frame = Rect(x: margin, y: 14, width: 48, height: 48)
        preview.frame = Rect(x: margin + 60, y: 14, width: bounds.width - 2 * margin - 60, height: 48)
        let slot = (bounds.width - 2 * margin) / Double(apps.count)
        for (index, app) in apps.enumerated() {
            app.frame = Rect(x: margin + Double(index) * slot, y: 84, width: slot, height: 92)
        }
    }
}

/// An app in the share sheet: a rounded icon with its name under it.
final class ShareAppButton: Button {
    let appSymbol: Symbol
    let color: Color

    init(name: String, symbol: Symbol, color: Color, action: @escaping () -> Void) {
        self.appSymbol = symbol
        self.color = color
        super.init(name, style: .plain, action: action)
        cornerRadius = 0
    }

    override func draw(in canvas: Canvas) {
        let side = 60.0
        let icon = Rect(x: bounds.midX - side / 2, y: 4, width: side, height: side)
        canvas.fill(icon, color: color.withAlpha(isHighlighted ? 0.7 : 1), cornerRadius: 14)
        appSymbol.draw(in: icon.insetBy(dx: 15, dy: 15), color: .white, canvas: canvas)
        canvas.draw(
            title, in: Rect(x: 0, y: icon.maxY + 6, width: bounds.width, height: 16), font: .system(11), color: .label,
            alignment: .center)
    }
}
