import Foundation

/// The top-level atoms (boxes) of a QuickTime or MP4 file, read from their headers alone: where
/// `moov` sits against `mdat` says whether a player can start before the whole file is in.
package enum MovieAtoms {
    /// The four-character types of the file's top-level atoms, in file order; stops at the
    /// first header that does not fit the file.
    package static func topLevel(of url: URL) throws -> [String] {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        var offset: UInt64 = 0
        var types: [String] = []
        while offset + 8 <= size, types.count < 10_000 {
            try handle.seek(toOffset: offset)
            guard let header = try handle.read(upToCount: 16), header.count >= 8 else { break }
            let bytes = [UInt8](header)
            var length = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: bytes[4..<8], as: UTF8.self)
            if length == 1, bytes.count >= 16 {
                length = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            } else if length == 0 {
                length = size - offset  // runs to the end of the file
            }
            guard length >= 8 else { break }
            types.append(type)
            offset += length
        }
        return types
    }
}
