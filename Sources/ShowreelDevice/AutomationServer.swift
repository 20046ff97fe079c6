import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ShowreelAccessibility
import ShowreelGraphics
import ShowreelHTTP
import ShowreelRender
import ShowreelUI
import ShowreelWire

/// The device's automation API: HTTP JSON under `/v1`, the only way tests and flows touch apps.
///
/// Every call names what it acts on with an `ElementQuery` (or a point), runs on the device
/// clock, and answers errors as `{"error": "..."}` with a sentence that says what failed
/// and what the screen had instead.
package struct AutomationServer: Sendable {
    package let device: Device
    let bindAddress: String
    let port: Int
    let logger: Logger
    let traceExporter: TraceExporter?

    /// Turns what the device traced into the trace `POST /v1/trace/end` answers (the report's
    /// `RunTrace`: times from `videoStart`, pictures as JPEGs only with `pictures`).
    ///
    /// Injected rather than called: that format and its JPEG encoding live in `ShowreelTrace`,
    /// which builds on this module (and on the recorder), so this module cannot import it. The
    /// CLI's `device boot` and ShowreelKit's devices pass `TraceExport.exporter`; a server
    /// without one answers the trace routes with a 501 saying so.
    package typealias TraceExporter =
        @Sendable (_ entries: [ActionTrace.Entry], _ screen: Size, _ videoStart: Duration, _ pictures: Bool) -> any Encodable & Sendable

    /// Why the server could not start.
    package enum StartError: Error, CustomStringConvertible, Equatable {
        case portInUse(Int)

        package var description: String {
            switch self {
            case let .portInUse(port):
                return "port \(port) is in use: the automation API cannot listen there. Pick another with --port, or 0 for any free port."
            }
        }
    }

    package init(
        device: Device, bindAddress: String = "127.0.0.1", port: Int = 0,
        logger: Logger = Logger(label: "showreel.automation", factory: { _ in SwiftLogNoOpLogHandler() }),
        traceExporter: TraceExporter? = nil
    ) {
        self.device = device
        self.bindAddress = bindAddress
        self.port = port
        self.logger = logger
        self.traceExporter = traceExporter
    }

    /// Serves until the task is cancelled; `onListening` gets the bound port (useful with port 0).
    package func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let router = Router(context: AutomationRequestContext.self)
        // A web page must not tap the device: the tunnel host's Origin and loopback Host rules.
        router.add(
            middleware: LoopbackGuard.Middleware(
                loopbackOnly: LoopbackGuard.isLoopbackAddress(bindAddress), server: "device's automation API"))
        router.add(middleware: DeviceTimeMiddleware(clock: device.clock))
        router.add(middleware: ActionMiddleware())
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

    /// Every route: reads answer from the device; actions decode their body into a
    /// `DeviceAction` and the device performs it (decode, validate, perform).
    private func register(on router: Router<AutomationRequestContext>) {
        typealias Routes = AutomationAPI.Routes
        let device = self.device
        router.on(Routes.device) { _, _ in await respond { try await device.info() } }
        router.on(Routes.tree) { _, _ in await respond { AutomationAPI.Tree(elements: await device.tree()) } }
        router.on(Routes.query) { request, _ in
            await respond(request, as: AutomationAPI.Query.self) { body in
                do { try body.validate(device.limits) } catch { throw request.badBody("\(error)") }
                let found = await device.elements(body.query)
                return AutomationAPI.QueryResult(count: found.count, elements: found)
            }
        }
        router.on(Routes.element) { request, _ in
            await respond(request, as: AutomationAPI.Query.self) { body in
                do { try body.validate(device.limits) } catch { throw request.badBody("\(error)") }
                return try await device.element(body.query)
            }
        }
        router.on(Routes.state) { _, context in
            await respond { await device.status(of: try Self.bundle(context)) }
        }
        router.on(Routes.screenshot) { _, _ in
            let png = await device.screenshot().pngData()
            var headers = HTTPFields()
            headers[.contentType] = "image/png"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }

        // Apps.
        act(router, Routes.launch, AutomationAPI.Launch.self, emptyBody: AutomationAPI.Launch()) { body, context in
            body.action(bundle: try Self.bundle(context))
        }
        act(router, Routes.terminate) { context in .terminate(bundle: try Self.bundle(context)) }
        act(router, Routes.activate) { context in .activate(bundle: try Self.bundle(context)) }
        act(router, Routes.waitForState, AutomationAPI.WaitForState.self) { body, context in
            try body.action(bundle: try Self.bundle(context))
        }
        act(router, Routes.home) { _ in .pressHome }

        // Events.
        act(router, Routes.tap, AutomationAPI.Tap.self) { body, _ in try body.action() }
        act(router, Routes.type, AutomationAPI.TypeText.self) { body, _ in try body.action() }
        act(router, Routes.key, AutomationAPI.Key.self) { body, _ in .pressKey(body.key) }
        act(router, Routes.swipe, AutomationAPI.Swipe.self) { body, _ in try body.action() }
        act(router, Routes.scroll, AutomationAPI.Scroll.self) { body, _ in .scroll(body.direction) }
        act(router, Routes.shake) { _ in .shake }
        act(router, Routes.keyCommand, AutomationAPI.KeyCommand.self) { body, _ in try body.action() }
        act(router, Routes.overrideStatusBar, StatusBarOverride.self) { body, _ in .overrideStatusBar(body) }
        act(router, Routes.clearStatusBar) { _ in .clearStatusBar }
        act(router, Routes.appearance, AutomationAPI.SetAppearance.self) { body, _ in .setInterfaceStyle(body.appearance) }
        registerSystem(on: router)

        // Time.
        act(router, Routes.wait, AutomationAPI.Wait.self) { body, _ in try body.action() }
        act(router, Routes.waitFor, AutomationAPI.WaitFor.self) { body, _ in try body.action() }

        registerTrace(on: router)
    }

    /// The step trace of a recording made in another process (a recorded Swift test or an
    /// attached WebDriver session): the device traces its own actions, as for an in-process
    /// recording, and hands the trace over at the end.
    private func registerTrace(on router: Router<AutomationRequestContext>) {
        typealias Routes = AutomationAPI.Routes
        let device = self.device
        let exporter = self.traceExporter
        @Sendable func checkedExporter() throws -> TraceExporter {
            guard let exporter else {
                throw APIError(
                    .notImplemented,
                    "this automation API was started without a trace exporter, so it cannot trace; a device booted with `showreel device boot` can"
                )
            }
            return exporter
        }
        router.on(Routes.traceStart) { _, _ in
            await respond {
                _ = try checkedExporter()
                let started = try await device.attachTrace(replaceable: true)
                return AutomationAPI.TraceStarted(
                    time: started.time.seconds, recordingStart: started.recordingStart?.seconds, id: started.id)
            }
        }
        router.on(Routes.traceEnd) { request, _ in
            await respond(request, as: AutomationAPI.TraceEnd.self) { body in
                do { try body.validate(device.limits) } catch { throw request.badBody("\(error)") }
                let exporter = try checkedExporter()
                let entries = try await device.detachTrace(body.id)
                return exporter(entries, await device.screenPointSize, .seconds(body.videoStart), body.pictures ?? true)
            }
        }
        router.on(Routes.traceStep) { request, _ in
            await respond(request, as: AutomationAPI.TraceStep.self) { body in
                do { try body.validate(device.limits) } catch { throw request.badBody("\(error)") }
                try await device.openStep(body.title)
                return AutomationAPI.OK()
            }
        }
        router.on(Routes.traceStepEnd) { request, _ in
            await respond(request, as: AutomationAPI.TraceStepEnd.self, emptyBody: AutomationAPI.TraceStepEnd()) { body in
                try await device.closeStep(error: body.error)
                return AutomationAPI.OK()
            }
        }
    }

    /// An action route with a JSON body: the body becomes the action, the device performs it.
    func act<Body: AutomationBody & Sendable>(
        _ router: Router<AutomationRequestContext>, _ route: Route, _ type: Body.Type, emptyBody: Body? = nil,
        limit: Int = Request.bodyLimit, _ action: @escaping @Sendable (Body, AutomationRequestContext) throws -> DeviceAction
    ) {
        let device = self.device
        router.on(route) { request, context in
            await respond(request, as: Body.self, emptyBody: emptyBody, limit: limit) { body in
                let value: DeviceAction
                do { value = try action(body, context) } catch let error as AutomationInputError { throw request.badBody("\(error)") }
                do { try value.validate(device.limits) } catch { throw request.badBody("\(error)") }
                return try await device.perform(value).answer
            }
        }
    }

    /// An action route without a body (what the path names is the whole request).
    func act(
        _ router: Router<AutomationRequestContext>, _ route: Route,
        _ action: @escaping @Sendable (AutomationRequestContext) throws -> DeviceAction
    ) {
        let device = self.device
        router.on(route) { _, context in await respond { try await device.perform(try action(context)).answer } }
    }

    // MARK: Helpers

    static func bundle(_ context: AutomationRequestContext) throws -> String {
        guard let bundle = context.parameters.get("bundle"), !bundle.isEmpty else {
            throw DeviceError.invalidRequest(
                "the path needs a bundle identifier, e.g. \(AutomationAPI.Routes.launch.path("dev.showreel.hello"))")
        }
        return bundle
    }
}

extension ActionResult {
    /// The JSON an action's route answers with.
    var answer: any Encodable {
        switch self {
        case .done: AutomationAPI.OK()
        case let .app(status): status
        case let .waited(result): result
        case let .statusBar(values): values
        }
    }
}

/// Runs a handler and turns its result or error into a JSON response.
func respond(_ body: () async throws -> any Encodable) async -> Response {
    do {
        return .json(try await body())
    } catch {
        return apiError(for: error).response
    }
}

/// Decodes the request's JSON body (naming the field that is wrong), then runs the handler.
func respond<Body: AutomationBody>(
    _ request: Request, as type: Body.Type, emptyBody: Body? = nil, limit: Int = Request.bodyLimit,
    _ handler: (Body) async throws -> any Encodable
) async -> Response {
    do {
        let body = try await request.decodeJSON(Body.self, empty: emptyBody, limit: limit)
        return .json(try await handler(body))
    } catch {
        return apiError(for: error).response
    }
}

/// The one place the automation API decides which status an error is.
func apiError(for error: any Error) -> APIError {
    if let error = error as? APIError { return error }
    let status = HTTPResponse.Status(code: (error as? any HTTPStatusError)?.httpStatus ?? 500)
    return APIError(status, String(describing: error))
}
