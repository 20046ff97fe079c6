extension Duration {
    /// This duration in seconds, as a Double (for display, rates and animation fractions).
    public var seconds: Double {
        let (whole, atto) = components
        return Double(whole) + Double(atto) * 1e-18
    }

    /// This duration in whole nanoseconds: frame timestamps on the wire, jitter arithmetic.
    public var nanoseconds: Int64 {
        let (whole, atto) = components
        return whole * 1_000_000_000 + atto / 1_000_000_000
    }
}
