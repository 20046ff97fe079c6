import ShowreelRender

/// A screen of an app (a view controller): a title and a view tree filling its window.
open class Screen {
    public var title: String
    public let view: View

    public init(title: String = "", background: Color = .white) {
        self.title = title
        view = View()
        view.backgroundColor = background
        view.isUserInteractionEnabled = true
    }

    /// Called once, when the screen's view first enters a window: build the view tree here.
    open func viewDidLoad() {}

    /// Positions the screen's content inside `view.bounds`; the safe area excludes the
    /// status bar and the bottom home indicator.
    open func layout(safeArea: Rect) {}

    var isLoaded = false

    func loadIfNeeded() {
        guard !isLoaded else { return }
        isLoaded = true
        viewDidLoad()
    }
}
