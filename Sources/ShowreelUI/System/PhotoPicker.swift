import ShowreelAccessibility
import ShowreelRender

extension Screen {
    /// Lets the person pick a picture or a video from the device's library, as
    /// `PHPickerViewController` does: once the app may read the photos (the system's permission
    /// alert asks the first time, with `reason`), the picker slides up as a sheet; `completion`
    /// gets the asset tapped, or nil for Cancel or a refused permission.
    public func pickPhoto(reason: String? = nil, completion: @escaping (PhotoLibrary.Asset?) -> Void) {
        requestPermission(.photos, reason: reason) { [weak self] granted in
            guard granted, let self, let scene = self.scene else { return completion(nil) }
            var top: Screen = self.rootScreen
            while let presented = top.presentedScreen { top = presented }
            top.present(PhotoPickerScreen(library: scene.photos, strings: scene.systemStrings, completion: completion))
        }
    }
}

/// The system's photo picker: a sheet with Cancel and a grid of the library's thumbnails, newest
/// first, each an image element named by its file (a video with a camera badge), in the
/// device's language (`SystemStrings`; `Cancel` is its identifier in any).
final class PhotoPickerScreen: Screen {
    private let library: PhotoLibrary
    private let completion: (PhotoLibrary.Asset?) -> Void
    private let header: Label
    private let cancel: Button
    private let empty: Label
    private var cells: [PhotoCell] = []
    private var answered = false

    init(library: PhotoLibrary, strings: SystemStrings, completion: @escaping (PhotoLibrary.Asset?) -> Void) {
        self.library = library
        self.completion = completion
        header = Label(strings.photos, font: .headline, alignment: .center)
        cancel = Button(strings.cancel, style: .plain)
        empty = Label(strings.noPhotos, font: .system(17), color: .secondaryLabel, alignment: .center)
        super.init(title: strings.photos, background: .systemBackground)
    }

    override func viewDidLoad() {
        view.accessibilityIdentifier = "PhotoPicker"
        cancel.accessibilityIdentifier = "Cancel"
        cancel.titleAlignment = .leading
        cancel.action = { [weak self] in self?.answer(nil) }
        cells = library.assets.map { asset in
            let cell = PhotoCell(asset)
            cell.onTap = { [weak self] in self?.answer(asset) }
            return cell
        }
        empty.isHidden = !cells.isEmpty
        for subview in [header, cancel, empty] + cells as [View] { view.addSubview(subview) }
    }

    private func answer(_ asset: PhotoLibrary.Asset?) {
        guard !answered else { return }
        answered = true
        dismiss(animated: true) { [completion] in completion(asset) }
    }

    override func layout(safeArea: Rect) {
        header.frame = Rect(x: safeArea.minX, y: safeArea.minY + 10, width: safeArea.width, height: 36)
        cancel.frame = view.leading(Rect(x: safeArea.minX + 16, y: safeArea.minY + 10, width: 90, height: 36))
        empty.frame = Rect(x: safeArea.minX, y: safeArea.minY + 140, width: safeArea.width, height: 30)
        // Four columns on a phone held upright, as many of about the same size as fit otherwise.
        let columns = max(4, Int((safeArea.width / 98).rounded()))
        let gap = 2.0
        let side = ((safeArea.width - gap * Double(columns - 1)) / Double(columns)).rounded(.down)
        for (index, cell) in cells.enumerated() {
            let row = index / columns, column = index % columns
            cell.frame = view.leading(
                Rect(
                    x: safeArea.minX + Double(column) * (side + gap), y: safeArea.minY + 56 + Double(row) * (side + gap), width: side,
                    height: side))
        }
    }
}

/// A thumbnail in the picker: the picture, and for a video a camera badge.
final class PhotoCell: ImageView {
    let asset: PhotoLibrary.Asset
    var onTap: (() -> Void)?

    init(_ asset: PhotoLibrary.Asset) {
        self.asset = asset
        super.init()
        image = asset.thumbnail
        isAccessibilityElement = true
        accessibilityIdentifier = asset.name
        accessibilityLabel = asset.kind == .video ? "Video, \(asset.name)" : "Photo, \(asset.name)"
        isUserInteractionEnabled = true
    }

    override func draw(in canvas: Canvas) {
        super.draw(in: canvas)
        if asset.kind == .video {
            let band = Rect(x: 0, y: bounds.height - 22, width: bounds.width, height: 22)
            canvas.fillGradient(band, from: .clear, to: Color.black.withAlpha(0.5))
            Symbol.video.draw(in: Rect(x: 6, y: band.minY + 4, width: 20, height: 14), color: .white, canvas: canvas)
        }
    }

    override func touchBegan(at point: Point) -> Bool { true }

    override func handleTap() -> Bool {
        onTap?()
        return true
    }
}
