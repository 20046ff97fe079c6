#if DEBUG
import ShowreelRender

/// The debug window's content: the actions, then Quick Info with a Share button.
final class DebugMenuScreen: TableScreen {
    let actions: [DebugAction]
    let quickInfo: [DebugInfoItem]
    var onClose: (() -> Void)?
    /// Producers still running: a second tap on one does not start it again.
    private var running: Set<Int> = []

    init(actions: [DebugAction], quickInfo: [DebugInfoItem]) {
        self.actions = actions
        self.quickInfo = quickInfo
        super.init(title: "Debug", identifier: "debugMenu")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        rightBarButtonItems = [
            BarButtonItem(title: "Close", style: .done, identifier: "debugWindowClose") { [weak self] in
                self?.onClose?()
            }
        ]
        let actionRows = actions.enumerated().map { index, action in
            TableRow.value(
                action.title, "", identifier: "debugAction.\(action.title)",
                valueIdentifier: "debugActionState.\(action.title)",
                accessory: Self.accessory(of: action)
            ) { [weak self] in self?.run(index) }
        }
        let infoRows = quickInfo.map { item in
            TableRow.value(item.title, item.value, identifier: "quickInfo.\(item.title)", valueIdentifier: "quickInfoValue.\(item.title)")
        }
        table.sections = [
            TableSection(
                header: "Actions", footer: actions.isEmpty ? "Nothing on this screen offers debug actions." : nil,
                rows: actionRows),
            TableSection(
                header: "Quick Info",
                rows: infoRows + [
                    .button("Share Quick Info", identifier: "debugShareQuickInfo") { [weak self] in self?.shareQuickInfo() }
                ]),
        ]
    }

    private static func accessory(of action: DebugAction) -> CellAccessory {
        if case .modal = action.kind { return .disclosureIndicator }
        return .none
    }

    private func run(_ index: Int) {
        let action = actions[index]
        guard !running.contains(index) else { return }
        DebugActionRunner.run(
            action, from: self,
            state: { [weak self] state in
                guard let self else { return }
                let text =
                    switch state {
                    case .running: "Running…";
                    case .done: "Done";
                    case .failed: "Failed"
                    }
                if state == .running { running.insert(index) } else { running.remove(index) }
                table.cell(withIdentifier: "debugAction.\(action.title)")?.setDetail(text)
            }, dismiss: { [weak self] in self?.onClose?() })
    }

    private func shareQuickInfo() {
        present(ShareSheetScreen.presentable(items: [DebugInfoItem.text(of: quickInfo)]))
    }
}
#endif
