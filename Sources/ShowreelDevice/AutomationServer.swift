import ShowreelAccessibility
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ShowreelHTTP
import ShowreelRender
import ShowreelUI
import ShowreelWire

/// The device's automation API: HTTP JSON under `/v1`, the only way tests and flows touch apps.
///
/// Every call names what it acts on with an `ElementQuery` (or a point), runs on the device
/// clock, and answers errors as `{"error": "..."}` with a sentence that says what failed
/// and what the screen had instead.
public struct AutomationServer: Sendable {
    public let device: Device
    let bindAddress: String
    let port: Int
    let logger: Logger
    let limits: AutomationLimits
    let actions = ActionQueue()

    /// Why the server could not start.
    public enum StartError: Error, CustomStringConvertible, Equatable {
        case portInUse(Int)

        public var description: String {
            switch self {
            case let .portInUse(port):
                return "port \(port) is in use: the automation API cannot listen there. Pick another with --port, or 0 for any free port."
            }
        }
    }

    public init(device: Device, bindAddress: String = "127.0.0.1", port: Int = 0,
                logger: Logger = Logger(label: "showreel.automation", factory: { _ in SwiftLogNoOpLogHandler() })) {
        self.device = device
        self.bindAddress = bindAddress
        self.port = port
        self.logger = logger
        limits = AutomationLimits(screen: device.profile.pointSize)
    }

    /// Serves until the task is cancelled; `onListening` gets the bound port (useful with port 0).
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router(context: AutomationRequestContext.self)
        // A web page must not tap the device: the tunnel host's Origin and loopback Host rules.
        router.add(middleware: LoopbackGuard.Middleware(loopbackOnly: LoopbackGuard.isLoopbackAddress(bindAddress), server: "device's automation API"))
        router.add(middleware: ActionMiddleware(actions: actions))
        register(on: router)
        let fallback = port
        let app = Application(
            router: router,
            server: .http1(additionalChannelHandlers: [ClosesOnHangUp()]),
            configuration: .init(address: .hostname(bindAddress, port: port), serverName: "showreel-device"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? fallback) },
            logger: logger)
        do {
            try await app.runService(gracefulShutdownSignals: [])
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw StartError.portInUse(port)
        }
    }

    private func register(on router: Router<AutomationRequestContext>) {
        typealias Routes = AutomationAPI.Routes
        let device = self.device
        let limits = self.limits
        router.on(Routes.device) { _, _ in
            await respond {
                AutomationAPI.DeviceInfo(
                    udid: device.udid, name: device.name, profile: device.profile.name, clock: device.clock.kind,
                    time: device.clock.now.seconds, installedApps: await device.installedApps,
                    foregroundApp: await device.foregroundApp)
            }
        }
        router.on(Routes.tree) { _, _ in await respond { AutomationAPI.Tree(elements: await device.tree()) } }
        router.on(Routes.query) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.Query.self) { body in
                let found = await device.elements(body.query)
                return AutomationAPI.QueryResult(count: found.count, elements: found)
            }
        }
        router.on(Routes.element) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.Query.self) { body in try await device.element(body.query) }
        }

        // Apps.
        router.on(Routes.launch) { request, context in
            await respond(request, limits: limits, as: AutomationAPI.Launch.self, emptyBody: AutomationAPI.Launch()) { body in
                let bundle = try Self.bundle(context)
                return try await device.launch(bundle, context: .init(arguments: body.arguments ?? [], environment: body.environment ?? [:]))
            }
        }
        router.on(Routes.terminate) { _, context in
            await respond {
                let bundle = try Self.bundle(context)
                await device.terminate(bundle)
                return await device.status(of: bundle)
            }
        }
        router.on(Routes.activate) { _, context in
            await respond {
                let bundle = try Self.bundle(context)
                try await device.activate(bundle)
                return await device.status(of: bundle)
            }
        }
        router.on(Routes.state) { _, context in
            await respond { await device.status(of: try Self.bundle(context)) }
        }
        router.on(Routes.waitForState) { request, context in
            await respond(request, limits: limits, as: AutomationAPI.WaitForState.self) { body in
                let bundle = try Self.bundle(context)
                let start = device.clock.now
                let matched = try await device.wait(for: body.state, of: bundle, timeout: try Self.seconds(body.timeout, "timeout"))
                return AutomationAPI.WaitResult(matched: matched, waited: (device.clock.now - start).seconds)
            }
        }
        router.on(Routes.home) { _, _ in await respond { await device.pressHome(); return AutomationAPI.OK() } }

        // Events.
        router.on(Routes.tap) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.Tap.self) { body in
                let hold = try body.duration.map { try Self.seconds($0, "duration") } ?? Device.tapDuration
                switch (body.query, body.point) {
                case let (query?, nil):
                    if hold != Device.tapDuration { try await device.press(query, duration: hold) }
                    else { try await device.tap(query, count: body.count ?? 1) }
                case let (nil, point?):
                    for _ in 0..<max(body.count ?? 1, 1) { try await device.tap(at: point, hold: hold) }
                default:
                    throw DeviceError.invalidRequest("POST /v1/tap needs either 'query' or 'point', not both or neither")
                }
                return AutomationAPI.OK()
            }
        }
        router.on(Routes.type) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.TypeText.self) { body in
                try await device.typeText(body.text, into: body.query,
                                          keyDelay: try Self.seconds(body.keyDelay ?? 0, "keyDelay"),
                                          jitter: try Self.seconds(body.jitter ?? 0, "jitter"), seed: body.seed ?? 1)
                return AutomationAPI.OK()
            }
        }
        router.on(Routes.key) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.Key.self) { body in
                try await device.tapKey(body.key)
                return AutomationAPI.OK()
            }
        }
        registerGestures(on: router)
        router.on(Routes.overrideStatusBar) { request, _ in
            await respond(request, limits: limits, as: StatusBarOverride.self) { body in
                var values = await device.statusBar
                try body.apply(to: &values)
                await device.overrideStatusBar(values)
                return StatusBarOverride(values)
            }
        }
        router.on(Routes.clearStatusBar) { _, _ in
            await respond { await device.clearStatusBarOverrides(); return StatusBarOverride(await device.statusBar) }
        }
        router.on(Routes.screenshot) { _, _ in
            let png = await device.screenshot().pngData()
            var headers = HTTPFields()
            headers[.contentType] = "image/png"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }

        // Time.
        router.on(Routes.wait) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.Wait.self) { body in
                try await device.wait(try Self.seconds(body.seconds, "seconds"))
                return AutomationAPI.OK()
            }
        }
        router.on(Routes.waitFor) { request, _ in
            await respond(request, limits: limits, as: AutomationAPI.WaitFor.self) { body in
                let start = device.clock.now
                let matched = try await device.waitFor(body.query, exists: body.exists ?? true, hittable: body.hittable ?? false,
                                                       timeout: try Self.seconds(body.timeout, "timeout"))
                return AutomationAPI.WaitResult(matched: matched, waited: (device.clock.now - start).seconds)
            }
        }
    }

    // MARK: Helpers

    static func bundle(_ context: AutomationRequestContext) throws -> String {
        guard let bundle = context.parameters.get("bundle"), !bundle.isEmpty else {
            throw DeviceError.invalidRequest("the path needs a bundle identifier, e.g. \(AutomationAPI.Routes.launch.path("dev.showreel.hello"))")
        }
        return bundle
    }

    static func seconds(_ value: Double, _ field: String) throws -> Duration {
        guard value.isFinite, value >= 0, value <= 3600 else {
            throw DeviceError.invalidRequest("'\(field)' must be a number of seconds from 0 to 3600, got \(value)")
        }
        return .nanoseconds(Int64(value * 1e9))
    }
}

/// Runs a handler and turns its result or error into a JSON response.
func respond(_ body: () async throws -> some Encodable) async -> Response {
    do {
        return .json(try await body())
    } catch {
        return apiError(for: error).response
    }
}

/// Decodes the request's JSON body (naming the field that is wrong), checks it against the
/// limits, then runs the handler.
func respond<Body: AutomationBody>(_ request: Request, limits: AutomationLimits, as type: Body.Type, emptyBody: Body? = nil,
                                   _ handler: (Body) async throws -> some Encodable) async -> Response {
    do {
        let body = try await request.decodeJSON(Body.self, empty: emptyBody)
        do { try body.validate(limits) } catch { throw request.badBody("\(error)") }
        return .json(try await handler(body))
    } catch {
        return apiError(for: error).response
    }
}

/// The one place the automation API decides which status an error is.
func apiError(for error: any Error) -> APIError {
    if let error = error as? APIError { return error }
    let status: HTTPResponse.Status
    switch error as? DeviceError {
    case .elementNotFound?, .unknownApp?: status = .notFound
    case .elementNotHittable?, .appNotRunning?: status = .conflict
    case .appCrashed?: status = .unprocessableContent
    case .invalidRequest?: status = .badRequest
    case .shutDown?: status = .serviceUnavailable
    case nil: status = .internalServerError
    }
    return APIError(status, String(describing: error))
}
