/// A number of seconds a client may send: finite and within bounds. Every such number is checked
/// against one of these before it becomes a `Duration`, whose initialiser traps on infinity, NaN
/// or more seconds than an Int64 holds, and so would take the whole server down with it.
package struct SecondsLimit: Sendable, Equatable {
    package var max: Double
    package var allowsZero: Bool

    package init(max: Double, allowsZero: Bool = true) {
        self.max = max
        self.allowsZero = allowsZero
    }

    /// What is wrong with `value`, as a phrase to follow the field's name; nil when it is fine.
    package func problem(with value: Double) -> String? {
        guard value.isFinite, allowsZero ? value >= 0 : value > 0, value <= max else { return expectation(got: "\(value)") }
        return nil
    }

    /// What is wrong with a number sent as text (a query parameter); nil when it is fine.
    package func problem(withText text: String) -> String? {
        guard let value = Double(text) else { return expectation(got: "'\(text)'") }
        return problem(with: value)
    }

    private func expectation(got: String) -> String {
        "must be a number of seconds \(allowsZero ? "from 0" : "above 0") to \(Int(max)), got \(got)"
    }
}
