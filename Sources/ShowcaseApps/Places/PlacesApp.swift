import Foundation
import ShowreelRender
import ShowreelUI

/// The device-state sample: an app that asks for the location (the system's permission alert,
/// answered in a test or a flow, or set beforehand with `simctl privacy`) and says what it got.
public enum PlacesApp {
    public static let bundleIdentifier = "dev.showreel.places"

    public static let definition = AppDefinition(bundleIdentifier: bundleIdentifier, displayName: "Places") { context in
        let strings = try AppStrings.load("Places", context: context, bundleIdentifier: bundleIdentifier)
        let navigation = NavigationController(rootScreen: PlacesScreen(strings: strings))
        navigation.prefersLargeTitles = true
        navigation.layoutDirection = strings.layoutDirection
        return navigation
    }
}

/// Where the person is: a button that asks to share the location, what came of it, and once
/// allowed, the place in degrees and a map of the way the device went. "Add Photo" picks a
/// picture of the place from the device's library (the photos permission asked first).
final class PlacesScreen: Screen {
    let strings: LocalizedStrings
    let status: Label
    let shareButton: Button
    let coordinate = Label("", font: .system(15), color: .secondaryLabel, alignment: .center)
    let map = PlacesMapView()
    let offline: Label
    let photo = ImageView(shape: .roundedSquare)
    let photoName = Label("", font: .system(15), color: .secondaryLabel)

    init(strings: LocalizedStrings) {
        self.strings = strings
        status = Label(strings("Location not shared yet"), font: .system(17), color: .secondaryLabel, alignment: .center, lines: 0)
        shareButton = Button(strings("Share My Location"))
        offline = Label(strings("Offline: airplane mode is on"), font: .system(15, weight: .bold), color: .systemRed, alignment: .center)
        super.init(title: strings("Places"))
    }

    override func viewDidLoad() {
        status.accessibilityIdentifier = "locationStatus"
        shareButton.accessibilityIdentifier = "shareLocation"
        shareButton.action = { [weak self] in self?.shareLocation() }
        coordinate.accessibilityIdentifier = "locationCoordinate"
        map.isHidden = true
        offline.accessibilityIdentifier = "networkStatus"
        offline.isHidden = true
        photo.accessibilityIdentifier = "placePhoto"
        photo.isAccessibilityElement = true
        photo.clipsToBounds = true
        photo.cornerRadius = 8
        photo.isHidden = true
        photoName.accessibilityIdentifier = "photoName"
        rightBarButtonItems = [
            BarButtonItem(title: strings("Add Photo"), identifier: "addPhoto") { [weak self] in self?.addPhoto() }
        ]
        for subview in [status, coordinate, map, shareButton, offline, photo, photoName] as [View] { view.addSubview(subview) }
    }

    func addPhoto() {
        pickPhoto(reason: strings("Places keeps a photo of where you are.")) { [weak self] asset in
            guard let self, let asset else { return }
            photo.image = asset.thumbnail
            photo.isHidden = false
            photo.accessibilityLabel = asset.name
            photoName.text = asset.name
        }
    }

    override func viewDidAppear() {
        // The app reads the device's connectivity: offline, it says so.
        scene?.network.observe(self) { [weak self] connected in self?.offline.isHidden = connected }
    }

    func shareLocation() {
        requestPermission(.location, reason: strings("Places shows where you are and the way you go.")) { [weak self] granted in
            guard let self else { return }
            status.text = granted ? strings("Location shared") : strings("Location not allowed: allow it in Settings.")
            status.textColor = granted ? .label : .systemRed
            guard granted else { return }
            // Allowed: the location as it comes, and the way it goes on the map.
            startUpdatingLocation { [weak self] place in
                guard let self else { return }
                coordinate.text = String(format: "%.4f, %.4f", place.latitude, place.longitude)
                map.isHidden = false
                map.add(place)
            }
        }
    }

    override func layout(safeArea: Rect) {
        if safeArea.width > safeArea.height {
            layoutSideBySide(safeArea)
            return
        }
        let left = safeArea.minX + 24, width = safeArea.width - 48
        status.frame = Rect(x: left, y: safeArea.minY + 100, width: width, height: 50)
        coordinate.frame = Rect(x: left, y: status.frame.maxY, width: width, height: 24)
        map.frame = Rect(
            x: left, y: coordinate.frame.maxY + 12, width: width, height: max(0, safeArea.maxY - 140 - coordinate.frame.maxY - 24))
        shareButton.frame = Rect(x: left, y: safeArea.maxY - 120, width: width, height: 54)
        offline.frame = Rect(x: left, y: safeArea.minY + 70, width: width, height: 24)
        layoutPhoto(Rect(x: left, y: safeArea.minY + 8, width: width, height: 56))
    }

    /// The picked photo at the leading edge of `row`, its name beside it.
    private func layoutPhoto(_ row: Rect) {
        photo.frame = view.leading(Rect(x: row.minX, y: row.minY, width: row.height, height: row.height))
        photoName.frame = view.leading(
            Rect(x: row.minX + row.height + 12, y: row.minY, width: row.width - row.height - 12, height: row.height))
    }

    /// On its side: what happened and the button on the leading half, the map on the trailing one.
    private func layoutSideBySide(_ safeArea: Rect) {
        let half = (safeArea.width - 48 - 24) / 2
        let left = safeArea.minX + 24, right = safeArea.maxX - 24 - half
        offline.frame = view.leading(Rect(x: left, y: safeArea.minY + 12, width: half, height: 24))
        status.frame = view.leading(Rect(x: left, y: safeArea.minY + 44, width: half, height: 50))
        coordinate.frame = view.leading(Rect(x: left, y: status.frame.maxY, width: half, height: 24))
        shareButton.frame = view.leading(
            Rect(x: left, y: max(coordinate.frame.maxY + 8, safeArea.maxY - 70), width: half, height: 54))
        map.frame = view.leading(Rect(x: right, y: safeArea.minY + 12, width: half, height: max(0, safeArea.height - 24)))
        layoutPhoto(Rect(x: left, y: coordinate.frame.maxY + 8, width: half, height: 48))
    }
}
