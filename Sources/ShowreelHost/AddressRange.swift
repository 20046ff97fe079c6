import NIOCore
import ShowreelHTTP

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address or CIDR block (`10.0.0.7`, `10.0.0.0/8`, `fd00::/8`) that clients
/// of a host bound beyond loopback must come from.
struct AddressRange: Sendable, Equatable {
    let bytes: [UInt8]
    let prefixLength: Int

    init?(parsing text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.addressBytes(String(parts[0])) else { return nil }
        var prefix = bytes.count * 8
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(\.isASCIIDigit), let length = Int(parts[1]), length <= bytes.count * 8 else {
                return nil
            }
            prefix = length
        }
        self.bytes = bytes
        prefixLength = prefix
    }

    func contains(_ address: SocketAddress) -> Bool {
        address.ipAddress.map(contains(ipAddress:)) ?? false
    }

    func contains(ipAddress text: String) -> Bool {
        guard var candidate = Self.addressBytes(text) else { return false }
        // An IPv4 client on a dual-stack socket shows up as ::ffff:a.b.c.d.
        if candidate.count == 16, bytes.count == 4, candidate.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] {
            candidate = Array(candidate.suffix(4))
        }
        guard candidate.count == bytes.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(candidate, bytes) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - bits))
            if a & mask != b & mask { return false }
            remaining -= bits
        }
        return true
    }

    /// The 4 or 16 bytes of a numeric address; nil for names and malformed text.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}
