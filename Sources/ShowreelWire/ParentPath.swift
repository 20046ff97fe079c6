extension String {
    /// The path without its last component, as `NSString.deletingLastPathComponent` gives it
    /// ("a/b/c" -> "a/b", "a/b/" -> "a", "c" -> "", "/c" -> "/"). Written out because
    /// Foundation's traps on a path of one character ("c") on Linux, and a test, session or
    /// glob may well be called that.
    package var parentPath: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        var parent = path[..<slash]
        while parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }
}
