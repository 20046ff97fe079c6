#if DEBUG
import ShowreelUI

/// What each Mail screen offers in the debug window (debug builds only).
extension InboxScreen: DebugActionsProviding {
    var debugActions: [DebugAction] {
        [
            .simple("Mark all as read") { [weak self] in self?.markAllRead() },
            .simple("Sign out", isUbiquitous: true) { [session] in session.user = nil },
        ]
    }
}

/// Why the sample sync fails: the body the alert shows.
struct MailSyncErrorForDebug: Error, CustomStringConvertible {
    var description: String { "503 Service Unavailable: the sync server is down for maintenance." }
}

extension ThreadScreen: DebugActionsProviding {
    var debugActions: [DebugAction] {
        [
            .producer("Reload thread") { [weak self] finish in
                guard let scene = self?.scene else { return finish(.success(())) }
                scene.after(.milliseconds(600)) { finish(.success(())) }
            },
            .producer("Sync with server", shouldDismiss: false) { [weak self] finish in
                guard let scene = self?.scene else { return finish(.failure(MailSyncErrorForDebug())) }
                scene.after(.milliseconds(600)) { finish(.failure(MailSyncErrorForDebug())) }
            },
        ]
    }
}

extension MessageScreen: DebugActionsProviding {
    var debugActions: [DebugAction] {
        [.modal("Feature flags", isUbiquitous: true) { FeatureFlagsScreenForDebug() }]
    }
}

extension ReplyScreen: DebugActionsProviding {
    var debugActions: [DebugAction] {
        [
            .simple("Insert sample reply", isPreferredForShake: true) { [weak self] in
                self?.replyField?.text = "Thanks, sounds good!"
            }
        ]
    }
}

/// The modal action's screen: a few switches, closed with Done.
final class FeatureFlagsScreenForDebug: TableScreen {
    init() {
        super.init(title: "Feature flags", identifier: "featureFlags")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        table.sections = [
            TableSection(
                header: "Flags",
                rows: [
                    .toggle("Threaded replies", isOn: true, identifier: "flag.threadedReplies"),
                    .toggle("Smart inbox", isOn: false, identifier: "flag.smartInbox"),
                    .button("Done", identifier: "featureFlagsDone") { [weak self] in self?.dismiss() },
                ])
        ]
    }
}
#endif
