/// An error that knows which HTTP status it answers as: the automation API sends it, and the
/// in-process transport reports the same status, so a test sees one failure either way.
public protocol HTTPStatusError: Error {
    var httpStatus: Int { get }
}
