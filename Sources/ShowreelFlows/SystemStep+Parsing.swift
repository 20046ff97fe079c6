import Foundation
import ShowreelGraphics
import ShowreelWire
import Yams

extension FileParser {
    /// A place: `{latitude, longitude}` or "latitude,longitude".
    func place(_ node: Node, field: String) -> Coordinate? {
        if case .mapping = node {
            guard let fields = mapping(node, field: field, allowed: ["latitude", "longitude"]) else { return nil }
            guard let lat = fields["latitude"].flatMap({ string($0, field: "latitude") }).flatMap(Double.init),
                let lon = fields["longitude"].flatMap({ string($0, field: "longitude") }).flatMap(Double.init)
            else {
                fail(location(node), "\(field) needs 'latitude' and 'longitude', numbers in degrees")
                return nil
            }
            let place = Coordinate(latitude: lat, longitude: lon)
            guard place.isValid else {
                fail(location(node), "\(field) must have a latitude from -90 to 90 and a longitude from -180 to 180, got \(lat), \(lon)")
                return nil
            }
            return place
        }
        guard let text = string(node, field: field) else { return nil }
        guard let place = Coordinate(parsing: text) else {
            fail(
                location(node),
                "\(field) must be \"latitude,longitude\" in degrees (latitude -90 to 90, longitude -180 to 180), got '\(text)'")
            return nil
        }
        return place
    }

    /// A `permissions` map (`{all: deny, location: allow}`): `all` first, then each service,
    /// as Maestro applies them.
    func permissions(_ node: Node) -> [FlowPermission]? {
        let names = PrivacyService.namesWithAll
        guard let fields = mapping(node, field: "permissions", allowed: names) else { return nil }
        var settings: [FlowPermission] = []
        for name in names {
            guard let value = fields[name] else { continue }
            guard let word = string(value, field: name) else { return nil }
            guard let status = FlowPermission.words.first(where: { $0.0 == word })?.1 else {
                let words = FlowPermission.words.map(\.0)
                fail(location(value), "'\(name)' must be allow, deny or unset, got '\(word)'\(Spelling.hint(for: word, in: words))")
                return nil
            }
            settings.append(FlowPermission(service: PrivacyService(rawValue: name), status: status))
        }
        return settings
    }

    /// A `SystemStep` from its name and value (nil after reporting what is wrong).
    func systemStep(_ name: String, _ argument: Node?) -> SystemStep? {
        switch name {
        case "setClipboard":
            guard let text = string(argument!, field: name) else { return nil }
            guard text.count <= AutomationLimits.maxPasteboardLength else {
                fail(
                    location(argument!), "setClipboard takes at most \(AutomationLimits.maxPasteboardLength) characters, got \(text.count)")
                return nil
            }
            return .setClipboard(text)
        case "pasteText":
            return .pasteText
        case "copyTextFrom":
            return target(argument!, step: name).map { .copyTextFrom($0.0) }
        case "openLink":
            var node = argument!
            if case .mapping = node {
                // Maestro's long form; `autoVerify` and `browser` have nothing to do on a device without a browser.
                guard let fields = mapping(node, field: name, allowed: ["link"]), let link = fields["link"] else {
                    fail(location(node), "missing field 'link' in openLink")
                    return nil
                }
                node = link
            }
            guard let url = string(node, field: "link") else { return nil }
            guard URLScheme.of(url) != nil else {
                fail(location(node), "openLink needs a URL with a scheme, such as countries://country/CA, got '\(url)'")
                return nil
            }
            return .openLink(url)
        case "toggleAirplaneMode":
            return .setAirplaneMode(nil)
        case "setAirplaneMode":
            guard let word = string(argument!, field: name) else { return nil }
            guard let on = ["enabled": true, "disabled": false][word] else {
                fail(
                    location(argument!),
                    "setAirplaneMode takes enabled or disabled, got '\(word)'\(Spelling.hint(for: word, in: ["enabled", "disabled"]))")
                return nil
            }
            return .setAirplaneMode(on)
        case "setLocation":
            return place(argument!, field: name).map { .setLocation($0) }
        case "addMedia":
            // One path or a list, relative to this flow; each must be a picture or a video that is there.
            let paths =
                (argument.flatMap { node -> [String]? in
                    if case .sequence = node { return strings(node, field: name) }
                    return string(node, field: name).map { [$0] }
                }) ?? []
            guard !paths.isEmpty else {
                fail(location(argument!), "addMedia takes a list of pictures or videos, e.g. \(SystemStep.example(name)!)")
                return nil
            }
            let files = paths.map { URL(fileURLWithPath: $0, relativeTo: url.deletingLastPathComponent()).standardizedFileURL }
            for (path, file) in zip(paths, files) {
                guard MediaFile.isVideo(name: file.lastPathComponent) != nil else {
                    fail(location(argument!), "addMedia: '\(path)' is not \(MediaFile.takenKinds)")
                    return nil
                }
                guard FileManager.default.fileExists(atPath: file.path) else {
                    fail(location(argument!), "addMedia: no file '\(path)' (paths are relative to the flow)")
                    return nil
                }
            }
            return .addMedia(files)
        case "setOrientation":
            return orientation(argument!, field: name).map { .setOrientation($0) }
        case "travel":
            guard let fields = mapping(argument!, field: name, allowed: ["points", "speed"]) else { return nil }
            guard let pointsNode = fields["points"], case let .sequence(list) = pointsNode, !list.isEmpty else {
                fail(location(argument!), "travel needs 'points', a list of \"latitude,longitude\" places")
                return nil
            }
            let points = list.map { place($0, field: "points item") }
            guard let speedNode = fields["speed"] else {
                fail(location(argument!), "travel needs 'speed', in metres per second")
                return nil
            }
            guard let speedText = string(speedNode, field: "speed") else { return nil }
            guard let speed = Double(speedText), speed > 0, speed <= AutomationLimits.maxSpeed else {
                fail(
                    location(speedNode),
                    "'speed' must be metres per second, more than 0 and at most \(Int(AutomationLimits.maxSpeed)), got '\(speedText)'")
                return nil
            }
            guard !points.contains(nil) else { return nil }
            let route = LocationRoute(waypoints: points.compactMap { $0 }, speed: speed)
            guard route.duration <= .seconds(AutomationLimits.maxWaitSeconds) else {
                fail(
                    location(speedNode),
                    "travel takes \(Int(route.duration.seconds)) s at \(speedText) m/s; a step waits at most an hour: go faster")
                return nil
            }
            return .travel(route)
        case "setPermissions":
            guard let fields = mapping(argument!, field: name, allowed: ["appId", "permissions"]) else { return nil }
            var app: String?
            if let value = fields["appId"] {
                guard let named = string(value, field: "appId"), checkApp(named, at: value) else { return nil }
                app = named
            }
            guard let node = fields["permissions"] else {
                fail(location(argument!), "missing field 'permissions' in setPermissions")
                return nil
            }
            return permissions(node).map { .setPermissions(appId: app, $0) }
        default:
            return nil
        }
    }
}
