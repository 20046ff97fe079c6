import ShowreelRender
import ShowreelUI

/// A small mail client for the debug window: Inbox -> thread -> message in a navigation
/// stack, and a reply composed in a modal sheet. Debug builds open the debug window with a
/// swipe in from the right edge, Command-D or a shake; each screen offers its actions.
/// `--mail-environment staging|production` picks the server (production by default).
public enum MailApp {
    public static let bundleIdentifier = "dev.showreel.mail"
    public static let environmentArgument = "--mail-environment"
    public static let infoDictionary = AppDefinition.infoDictionary(
        bundleIdentifier: bundleIdentifier, displayName: "Mail", version: "5.1", build: "212")

    public static let definition = makeDefinition { try makeServiceLocator(context: $0) }

    /// The app with the locator `makeLocator` builds (tests pick the production one to see
    /// what a release build does).
    public static func makeDefinition(
        locator makeLocator: @escaping @Sendable (LaunchContext) throws -> MailServiceLocating
    ) -> AppDefinition {
        AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Mail", version: "5.1", build: "212") { context in
            makeRootScreen(locator: try makeLocator(context))
        }
    }

    /// The one place a debug build differs from a release build.
    public static func makeServiceLocator(context: LaunchContext) throws -> MailServiceLocating {
        let production = try ServiceLocator(context: context)
        #if DEBUG
        return ServiceLocatorForDebug(wrapping: production)
        #else
        return production
        #endif
    }

    public static func makeRootScreen(locator: MailServiceLocating) -> Screen {
        let navigation = NavigationController(rootScreen: InboxScreen(session: locator.session))
        navigation.prefersLargeTitles = true
        navigation.sceneAccessories = locator.sceneAccessories
        return navigation
    }
}

/// Who is signed in (the debug window's "Sign out" changes it).
public final class MailSession {
    public var user: String?
    public init(user: String?) { self.user = user }
}

/// A mail server the app talks to.
public struct MailEnvironment: Sendable, Equatable {
    public var name: String
    public var host: String
    public static let production = MailEnvironment(name: "Production", host: "mail.showreel.dev")
    public static let staging = MailEnvironment(name: "Staging", host: "staging.mail.showreel.dev")
}

struct MailThread {
    var subject: String
    var sender: String
    var messages: [(from: String, body: String)]
}

/// A: the inbox, one row per thread.
final class InboxScreen: Screen {
    let session: MailSession
    let table = TableView(style: .plain)
    private(set) var isAllRead = false
    static let threads = [
        MailThread(
            subject: "Release 5.1 notes", sender: "Kate Bell",
            messages: [
                ("Kate Bell", "The debug window ships in debug builds only."),
                ("John Appleseed", "Shake to open it, or swipe in from the right edge."),
            ]),
        MailThread(subject: "Lunch on Friday?", sender: "Anna Haro", messages: [("Anna Haro", "Noodles at noon?")]),
    ]

    init(session: MailSession) {
        self.session = session
        super.init(title: "Inbox")
    }

    override func viewDidLoad() {
        table.accessibilityIdentifier = "inbox"
        reload()
        contentView = table
    }

    func markAllRead() {
        isAllRead = true
        reload()
    }

    private func reload() {
        table.sections = [
            TableSection(
                rows: Self.threads.map { thread in
                    TableRow(
                        title: thread.subject, subtitle: (isAllRead ? "" : "● ") + thread.sender, accessory: .disclosureIndicator,
                        identifier: thread.subject
                    ) { [weak self] in
                        self?.navigationController?.push(ThreadScreen(thread: thread))
                    }
                })
        ]
    }
}

/// B: a thread's messages.
final class ThreadScreen: TableScreen {
    let thread: MailThread

    init(thread: MailThread) {
        self.thread = thread
        super.init(title: thread.subject, identifier: "thread")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        table.sections = [
            TableSection(
                header: "\(thread.messages.count) messages",
                rows: thread.messages.enumerated().map { index, message in
                    TableRow(
                        title: message.from, subtitle: message.body, accessory: .disclosureIndicator,
                        identifier: "message\(index)"
                    ) { [weak self] in
                        self?.navigationController?.push(MessageScreen(from: message.from, body: message.body))
                    }
                })
        ]
    }
}

/// C: one message, with Reply.
final class MessageScreen: Screen {
    let from: String
    let body: String
    let fromLabel = Label("", font: .headline)
    let bodyLabel = Label("", font: .body, lines: 0)
    let replyButton = Button("Reply")

    init(from: String, body: String) {
        self.from = from
        self.body = body
        super.init(title: "Message")
        largeTitleDisplayMode = .never
    }

    override func viewDidLoad() {
        fromLabel.text = from
        fromLabel.accessibilityIdentifier = "messageFrom"
        bodyLabel.text = body
        bodyLabel.accessibilityIdentifier = "messageBody"
        replyButton.accessibilityIdentifier = "reply"
        replyButton.action = { [weak self] in
            self?.present(NavigationController(rootScreen: ReplyScreen(to: self?.from ?? "")))
        }
        for subview in [fromLabel, bodyLabel, replyButton] as [View] { view.addSubview(subview) }
    }

    override func layout(safeArea: Rect) {
        let width = safeArea.width - 40
        fromLabel.frame = Rect(x: 20, y: safeArea.minY + 20, width: width, height: 24)
        bodyLabel.frame = Rect(x: 20, y: fromLabel.frame.maxY + 12, width: width, height: 120)
        replyButton.frame = Rect(x: 20, y: safeArea.maxY - 80, width: width, height: 54)
    }
}

/// D: the reply sheet.
final class ReplyScreen: TableScreen {
    let recipient: String
    var replyField: TextField? { table.cell(withIdentifier: "replyBody")?.textField }

    init(to recipient: String) {
        self.recipient = recipient
        super.init(title: "Reply", identifier: "replyForm")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        leftBarButtonItems = [BarButtonItem(title: "Cancel", identifier: "cancelReply") { [weak self] in self?.dismiss() }]
        table.sections = [
            TableSection(
                header: "To \(recipient)",
                rows: [
                    .textField(placeholder: "Write a reply", identifier: "replyBody")
                ])
        ]
    }
}
