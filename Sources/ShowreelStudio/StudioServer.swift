import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ShowreelHTTP
import ShowreelWire
import Synchronization

/// Serves the studio's page, its live screen and its API on loopback, behind `StudioGuard`.
package struct StudioServer: Sendable {
    package let session: StudioSession
    package let token: String
    private let port = BoundPort()

    package init(session: StudioSession, token: String? = nil) {
        self.session = session
        self.token = token ?? StudioGuard<BasicRequestContext>.makeToken()
    }

    /// Serves until the task is cancelled; `onListening` gets the page's URL with the token.
    package func run(onListening: @escaping @Sendable (String) async -> Void) async throws {
        let configuration = session.configuration
        guard LoopbackGuard.isLoopbackAddress(configuration.host) else {
            throw StudioError("the studio listens on loopback only, not \(configuration.host)")
        }
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: StudioGuard(token: token, port: port))
        routes(router)
        var logger = configuration.logger
        if logger.logLevel > .info { logger.logLevel = .critical }
        let host = configuration.host
        let token = token
        let port = self.port
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "showreel-studio"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? configuration.port
                port.set(bound)
                await onListening("http://\(host.contains(":") ? "[\(host)]" : host):\(bound)/?token=\(token)")
            },
            logger: logger)
        do { try await app.runService(gracefulShutdownSignals: []) } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw StudioError("port \(configuration.port) is in use: pick another with --port, or 0 for any free port")
        }
    }

    private func routes(_ router: Router<BasicRequestContext>) {
        let session = session
        router.get("/") { _, _ in Self.text(StudioPage.html, type: "text/html; charset=utf-8") }
        router.get("/studio.js") { _, _ in Self.text(StudioPage.script, type: "text/javascript; charset=utf-8") }
        router.get("/studio.css") { _, _ in Self.text(StudioPage.style, type: "text/css; charset=utf-8") }
        router.get("/frame.png") { _, _ -> Response in
            guard let (generation, png) = session.hub.png() else { throw APIError(.notFound, "the device has shown nothing yet") }
            var headers = HTTPFields()
            headers[.contentType] = "image/png"
            headers[.cacheControl] = "no-store"
            headers[HTTPField.Name("X-Frame-Generation")!] = String(generation)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: png)))
        }
        router.get("/events") { _, _ in Self.liveScreen(session) }
        router.get("/api/state") { _, _ in Response.json(await session.state) }
        router.get("/api/tree") { _, _ in Response.json(TreeNode.nodes(await session.tree)) }
        router.get("/api/selectors") { request, _ -> Response in
            guard let text = request.uri.queryParameters["path"], let path = TreeNode.path(String(text)) else {
                throw APIError(.badRequest, "name the element with ?path=0.1.2 (its path in the tree)")
            }
            return Response.json(await session.selectors(for: path))
        }
        router.post("/api/gesture") { request, _ in
            try await Self.acting { try await session.record(try await request.decodeJSON(StudioGesture.self)) }
            return Response.json(await session.state)
        }
        router.post("/api/priority") { request, _ in
            let body = try await request.decodeJSON(PriorityBody.self, example: #"{"priority": ["id", "text", "type", "point"]}"#)
            try await Self.acting { try await session.setPriority(body.priority) }
            return Response.json(await session.state)
        }
        // The timeline: each names a step by its index.
        stepRoute(router, "/api/steps/delete") { try await session.deleteStep($0.index) }
        stepRoute(router, "/api/steps/run") { try await session.runStep($0.index) }
        stepRoute(router, "/api/branch") { try await session.branch(at: $0.index) }
        stepRoute(router, "/api/steps/edit") { body in
            guard let text = body.text else { throw StudioError("an edit needs the step's new text") }
            try await session.editStep(body.index, text: text)
        }
        router.post("/api/run") { _, _ in
            do { return Response.json(try await session.runWhole()) } catch let error as StudioError {
                throw APIError(.unprocessableContent, error.description)
            }
        }
        router.get("/runs/:id/:file") { request, context -> Response in
            guard let id = context.parameters.get("id", as: Int.self), let name = context.parameters.get("file"),
                let url = await session.runFile(id, name), let data = try? Data(contentsOf: url)
            else { throw APIError(.notFound, "no such file of a run") }
            let types = [
                "mp4": "video/mp4", "json": "application/json", "html": "text/html; charset=utf-8", "png": "image/png", "jpg": "image/jpeg",
            ]
            let type = types[(name as NSString).pathExtension] ?? "application/octet-stream"
            return RangedFile.response(data, type: type, range: request.headers[.range])
        }
        router.post("/api/pause") { request, _ in
            let body = try await request.decodeJSON(PauseBody.self, example: #"{"paused": true}"#)
            await session.setPaused(body.paused)
            return Response.json(await session.state)
        }
    }

    private func stepRoute(
        _ router: Router<BasicRequestContext>, _ path: RouterPath, _ action: @escaping @Sendable (StepBody) async throws -> Void
    ) {
        let session = session
        router.post(path) { request, _ in
            let body = try await request.decodeJSON(StepBody.self, example: #"{"index": 2}"#)
            try await Self.acting { try await action(body) }
            return Response.json(await session.state)
        }
    }

    struct PriorityBody: Codable { var priority: [String] }
    struct StepBody: Codable {
        var index: Int
        var text: String?
    }
    struct PauseBody: Codable { var paused: Bool }

    /// A studio refusal is the page's mistake or the app's answer: a 422 with the sentence.
    static func acting(_ body: () async throws -> Void) async throws {
        do { try await body() } catch let error as StudioError { throw APIError(.unprocessableContent, error.description) }
    }

    static func text(_ body: String, type: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        headers[.cacheControl] = "no-store"
        // The page loads its own script and style only, and frames from itself.
        headers[.contentSecurityPolicy] = "default-src 'self'; img-src 'self' blob:; media-src 'self'; frame-ancestors 'none'"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// Server-sent events: one `frame` event per new frame, with its generation (the page loads
    /// `/frame.png`), when it arrived, and the element tree of that moment. A page that is behind gets only the
    /// newest; while the screen is idle nothing is sent.
    static func liveScreen(_ session: StudioSession) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-store"
        let body = ResponseBody { writer in
            for await generation in session.hub.generations() {
                let tree = TreeNode.nodes(await session.tree)
                let event = FrameEvent(n: generation, at: session.hub.receivedAt, tree: tree)
                let json = String(decoding: WireJSON.encode(event), as: UTF8.self)
                try await writer.write(ByteBuffer(string: "event: frame\ndata: \(json)\n\n"))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    struct FrameEvent: Codable {
        var n: Int
        /// When the frame reached the studio (ms since 1970).
        var at: Double
        var tree: [TreeNode]
    }
}
