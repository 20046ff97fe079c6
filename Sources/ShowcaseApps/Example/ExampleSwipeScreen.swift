import ShowreelRender
import ShowreelUI

/// The demo app's swipe screen ("Swipe Test"), full screen without a bar: three red squares
/// that turn green when a finger comes down on them (at 50%,15%, 15%,50% and 85%,85% of the
/// screen), and "End here!" at 85%,50%; once all are green and "End here!" was touched, "All
/// green" shows. A back button sits at the bottom left.
final class ExampleSwipeScreen: Screen {
    /// Where each square's centre sits, as fractions of the screen.
    static let squareCentres = [Point(x: 0.5, y: 0.15), Point(x: 0.15, y: 0.5), Point(x: 0.85, y: 0.85)]
    static let endCentre = Point(x: 0.85, y: 0.5)
    static let side = 100.0

    let squares: [TouchSquare]
    let end: TouchSquare
    let allGreen: Label
    let backButton = Button("", style: .plain)
    private var finished = false

    init(strings: LocalizedStrings) {
        squares = (0..<3).map { TouchSquare(label: strings("Container %lld", $0), colour: .systemRed) }
        end = TouchSquare(label: strings("End here!"), colour: .systemGray, caption: strings("End here!"))
        allGreen = Label(strings("All green"), font: .system(20, weight: .bold), alignment: .center)
        super.init(title: strings("Swipe Test"))
    }

    override func viewDidLoad() {
        for square in squares {
            square.onTouch = { [weak self, weak square] in
                square?.backgroundColor = .systemGreen
                self?.update()
            }
            view.addSubview(square)
        }
        end.onTouch = { [weak self] in
            self?.finished = true
            self?.update()
        }
        view.addSubview(end)
        allGreen.isHidden = true
        view.addSubview(allGreen)
        backButton.symbol = .chevronLeft
        backButton.font = .system(22)
        backButton.accessibilityLabel = "Back"
        backButton.action = { [weak self] in _ = self?.navigationController?.pop() }
        view.addSubview(backButton)
    }

    override func viewWillAppear() { navigationController?.isNavigationBarHidden = true }
    override func viewWillDisappear() { navigationController?.isNavigationBarHidden = false }

    private func update() {
        allGreen.isHidden = !(finished && squares.allSatisfy { $0.backgroundColor == .systemGreen })
    }

    override func layout(safeArea: Rect) {
        // Placed in fractions of the whole screen (a Flutter MediaQuery's size), whatever the
        // view's own origin.
        let screen = view.window?.bounds ?? view.bounds
        let origin = view.frameInWindow
        func frame(centredAt fraction: Point) -> Rect {
            Rect(
                x: screen.width * fraction.x - Self.side / 2 - origin.x, y: screen.height * fraction.y - Self.side / 2 - origin.y,
                width: Self.side, height: Self.side)
        }
        for (square, centre) in zip(squares, Self.squareCentres) { square.frame = frame(centredAt: centre) }
        end.frame = frame(centredAt: Self.endCentre)
        allGreen.frame = Rect(x: 0, y: view.bounds.midY - 15, width: view.bounds.width, height: 30)
        backButton.frame = Rect(x: safeArea.minX + 16, y: safeArea.maxY - 16 - 44, width: 44, height: 44)
    }
}

/// A square that reacts when a finger comes down on it (a Flutter `onTapDown`), not when it
/// lifts: a swipe starting on it counts.
final class TouchSquare: View {
    var onTouch: (() -> Void)?
    private let caption: String?

    init(label: String, colour: Color, caption: String? = nil) {
        self.caption = caption
        super.init()
        backgroundColor = colour
        accessibilityLabel = label
        isAccessibilityElement = true
    }

    override func touchBegan(at point: Point) -> Bool {
        onTouch?()
        return true
    }

    override func draw(in canvas: Canvas) {
        if let caption { canvas.draw(caption, in: bounds.insetBy(dx: 4, dy: 4), font: .system(14), color: .label, alignment: .leading) }
    }
}
