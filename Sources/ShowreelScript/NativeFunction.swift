import CJavaScriptCore

/// A Swift closure as a JavaScript function: a JSClass that calls the closure kept in the
/// object's private data (a C callback cannot capture it).
final class NativeFunction {
    typealias Body = (JSContextRef?, [JSValueRef?]) -> JSValueRef?

    let name: String
    let body: Body

    init(name: String, body: @escaping Body) {
        self.name = name
        self.body = body
    }

    /// Puts the function on `context`'s global object under `name` (the object keeps `self`
    /// alive only as long as the engine holding it does).
    func install(in context: JSGlobalContextRef) {
        var definition = kJSClassDefinitionEmpty
        definition.callAsFunction = { context, function, _, count, arguments, _ in
            guard let data = JSObjectGetPrivate(function) else { return JSValueMakeUndefined(context) }
            let native = Unmanaged<NativeFunction>.fromOpaque(data).takeUnretainedValue()
            let values = (0..<count).map { arguments?[$0] }
            return native.body(context, values) ?? JSValueMakeUndefined(context)
        }
        let type = JSClassCreate(&definition)
        defer { JSClassRelease(type) }
        let function = JSObjectMake(context, type, Unmanaged.passUnretained(self).toOpaque())
        JSString.with(name) {
            JSObjectSetProperty(
                context, JSContextGetGlobalObject(context), $0, function, JSPropertyAttributes(kJSPropertyAttributeDontEnum), nil)
        }
    }
}
