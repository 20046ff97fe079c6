import ArgumentParser

/// What to do with the pixels outside the device's screen shape, as `simctl io --mask`.
enum MaskPolicy: String, ExpressibleByArgument, CaseIterable {
    /// The raw framebuffer, corners and all.
    case ignored
    /// Transparent outside the shape where the format allows it; H.264/HEVC and JPEG
    /// have no alpha, so it is rendered black, as simctl does.
    case alpha
    /// Black outside the shape.
    case black
}
