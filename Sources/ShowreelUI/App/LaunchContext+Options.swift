/// Reading launch arguments the way iOS apps do (`ProcessInfo.processInfo.arguments`):
/// `--name value` or `--name=value`.
extension LaunchContext {
    /// The value of the last `--name` option, if it has one: a repeated option's last value
    /// wins (what a test appends overrides a scheme's default); a valueless `--name` (at the
    /// end, or followed by another `--option`) gives nil. `contains(option:)` tells them apart.
    public func option(for name: String) -> String? {
        options(for: name).last ?? nil
    }

    /// Every occurrence of `--name`, first to last: its value, or nil when it has none.
    public func options(for name: String) -> [String?] {
        var values: [String?] = []
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if argument == name {
                let next = index + 1
                if next < arguments.endIndex, !arguments[next].hasPrefix("--") {
                    values.append(arguments[next])
                    index = next
                } else {
                    values.append(nil)
                }
            } else if argument.hasPrefix(name + "=") {
                values.append(String(argument.dropFirst(name.count + 1)))
            }
            index += 1
        }
        return values
    }

    /// Whether `--name` was passed at all (with or without a value).
    public func contains(option name: String) -> Bool { !options(for: name).isEmpty }
}
