import Foundation

/// Edits a finished MOV or MP4's track headers in place, for what libavformat's muxer has no
/// option for: it turns the first track of each kind on (`tkhd` flag "enabled") whatever the
/// stream's disposition says, and an enabled subtitle track is shown from the start.
enum TrackHeaders {
    /// Clears the "enabled" flag of the track numbered `trackID` (the stream's index + 1, as
    /// the muxer numbers them): players then leave it off until the viewer picks it.
    static func disable(trackID: Int, in url: URL) throws(RecorderError) {
        let path = url.path
        guard let file = FileHandle(forUpdatingAtPath: path) else {
            throw .writeFailed(file: path, message: "could not open the file to turn its subtitles off by default")
        }
        defer { try? file.close() }
        do {
            guard let moov = try findBox("moov", in: file) else {
                throw RecorderError.writeFailed(file: path, message: "no moov box, so the subtitles could not be turned off by default")
            }
            try file.seek(toOffset: moov.payload)
            guard let body = try file.read(upToCount: Int(moov.end - moov.payload)), body.count == Int(moov.end - moov.payload) else {
                throw RecorderError.writeFailed(file: path, message: "the moov box is cut short")
            }
            let bytes = [UInt8](body)
            for trak in boxes(in: bytes, from: 0, to: bytes.count) where trak.type == "trak" {
                guard let tkhd = boxes(in: bytes, from: trak.payload, to: trak.end).first(where: { $0.type == "tkhd" }),
                    tkhd.end - tkhd.payload >= 24
                else { continue }
                let version = bytes[tkhd.payload]
                let idOffset = tkhd.payload + (version == 1 ? 20 : 12)
                let id = bytes[idOffset..<idOffset + 4].reduce(0) { $0 << 8 | Int($1) }
                guard id == trackID else { continue }
                let flagsOffset = UInt64(tkhd.payload + 3)
                try file.seek(toOffset: moov.payload + flagsOffset)
                try file.write(contentsOf: [bytes[tkhd.payload + 3] & ~0x01])
                return
            }
            throw RecorderError.writeFailed(file: path, message: "no track \(trackID) to turn off by default")
        } catch let error as RecorderError {
            throw error
        } catch {
            throw .writeFailed(file: path, message: error.localizedDescription)
        }
    }

    private struct Box {
        var type: String
        /// Where the box's contents begin and where the box ends.
        var payload: Int
        var end: Int
    }

    /// The boxes laid one after another in `bytes[from..<to]`.
    private static func boxes(in bytes: [UInt8], from: Int, to: Int) -> [Box] {
        var found: [Box] = []
        var offset = from
        while offset + 8 <= to {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            var header = 8
            if size == 1, offset + 16 <= to {
                size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {
                size = to - offset
            }
            guard size >= header, offset + size <= to else { break }
            found.append(Box(type: type, payload: offset + header, end: offset + size))
            offset += size
        }
        return found
    }

    /// A top-level box of the file, found by reading box headers only.
    private static func findBox(_ type: String, in file: FileHandle) throws -> (payload: UInt64, end: UInt64)? {
        let length = try file.seekToEnd()
        var offset: UInt64 = 0
        while offset + 8 <= length {
            try file.seek(toOffset: offset)
            guard let header = try file.read(upToCount: 16), header.count >= 8 else { return nil }
            let bytes = [UInt8](header)
            var size = bytes[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            var headerSize: UInt64 = 8
            if size == 1, bytes.count == 16 {
                size = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                headerSize = 16
            } else if size == 0 {
                size = length - offset
            }
            guard size >= headerSize else { return nil }
            if String(decoding: bytes[4..<8], as: UTF8.self) == type { return (offset + headerSize, min(offset + size, length)) }
            offset += size
        }
        return nil
    }
}
