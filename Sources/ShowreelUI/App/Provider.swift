/// A dependency picked by a launch argument and created on first use: the app core's way of
/// letting a test say `--countries-datasource local-mock` without the app building what it
/// does not need. Names map to factories; no argument picks `defaultChoice`.
public final class Provider<Value> {
    public let option: String
    public let defaultChoice: String
    private let context: LaunchContext
    private let factories: [(name: String, make: () throws -> Value)]
    private let describeUnknown: (String) -> String
    private var created: Value?

    /// - Parameters:
    ///   - unknownMessage: the fatal error's message for a name no factory has (the
    ///     default names the option and the choices).
    public init(
        _ option: String, in context: LaunchContext, default defaultChoice: String,
        choices: KeyValuePairs<String, () throws -> Value>, unknownMessage: ((String) -> String)? = nil
    ) {
        self.option = option
        self.context = context
        self.defaultChoice = defaultChoice
        self.factories = choices.map { (name: $0.key, make: $0.value) }
        let names = choices.map(\.key).joined(separator: ", ")
        self.describeUnknown = unknownMessage ?? { "Unknown value '\($0)' for \(option): use one of \(names)." }
    }

    /// The name the launch arguments chose (the default when the option is absent).
    public var choice: String { context.option(for: option) ?? defaultChoice }

    /// The dependency, created the first time it is asked for. An unknown name, or the
    /// option without a value, is the app stopping (`AppFatalError`).
    public func value() throws -> Value {
        if let created { return created }
        if context.contains(option: option), context.option(for: option) == nil {
            let names = factories.map(\.name).joined(separator: ", ")
            throw AppFatalError("\(option) needs a value: one of \(names).")
        }
        let name = choice
        guard let factory = factories.first(where: { $0.name == name }) else { throw AppFatalError(describeUnknown(name)) }
        let made = try factory.make()
        created = made
        return made
    }
}
