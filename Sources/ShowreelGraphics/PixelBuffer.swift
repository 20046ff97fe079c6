import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A BGRA8 image in memory: B, G, R, A bytes per pixel, rows `bytesPerRow` apart.
///
/// This is Cairo's ARGB32 layout on little-endian machines and FFmpeg's `AV_PIX_FMT_BGRA`,
/// so frames move from the renderer to the encoder without conversion. The storage is
/// immutable once published (`Sendable`); writers use `withUnsafeMutableBytes` before sharing.
public final class PixelBuffer: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    private let storage: UnsafeMutableRawBufferPointer

    public var byteCount: Int { storage.count }

    /// A zero-filled (transparent black) buffer.
    ///
    /// `zeroed: false` skips the fill for a buffer whose every byte is written next (a full
    /// render, a frame read off the wire): 5-11 MB of memset per frame on the hot paths.
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, zeroed: Bool = true) {
        precondition(width > 0 && height > 0, "a pixel buffer needs a positive size")
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow ?? width * 4
        precondition(self.bytesPerRow >= width * 4)
        let (storage, isZeroed) = FrameMemory.allocate(byteCount: self.bytesPerRow * height)
        self.storage = storage
        // Freshly mapped pages start zeroed: no fill needed for them.
        if zeroed, !isZeroed { storage.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// A copy of `bytes`, which must hold `bytesPerRow * height` bytes.
    public convenience init(width: Int, height: Int, bytesPerRow: Int, copying bytes: UnsafeRawBufferPointer) {
        self.init(width: width, height: height, bytesPerRow: bytesPerRow, zeroed: false)
        precondition(bytes.count >= storage.count, "not enough bytes for a \(width)x\(height) frame")
        storage.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<storage.count]))
    }

    /// `buffer` when it is `width` x `height` (its pixels as they are), else a new buffer of
    /// that size, not zeroed: for a buffer kept to be drawn over again.
    package static func reusing(_ buffer: PixelBuffer?, width: Int, height: Int) -> PixelBuffer {
        if let buffer, buffer.width == width, buffer.height == height { return buffer }
        return PixelBuffer(width: width, height: height, zeroed: false)
    }

    /// A buffer of its own with the same pixels, to draw on without touching this one.
    public func copy() -> PixelBuffer {
        withUnsafeBytes { PixelBuffer(width: width, height: height, bytesPerRow: bytesPerRow, copying: $0) }
    }

    /// Copies `other`'s pixels (a picture of the same size and layout) into this one.
    package func copyPixels(from other: PixelBuffer) {
        precondition(other.storage.count == storage.count, "copying pixels between pictures of different sizes")
        storage.copyMemory(from: UnsafeRawBufferPointer(other.storage))
    }

    /// Copies the pixels of `areas` from `other` (a picture of the same size and layout); all of
    /// them when `areas` is nil (where a recycled picture differs from the latest is unknown).
    package func copyPixels(in areas: [PixelArea]?, from other: PixelBuffer) {
        guard let areas else { return copyPixels(from: other) }
        for area in areas { copyPixels(in: area, from: other) }
    }

    /// Copies the pixels of `area` from `other` (a picture of the same size and layout).
    package func copyPixels(in area: PixelArea, from other: PixelBuffer) {
        precondition(other.storage.count == storage.count, "copying pixels between pictures of different sizes")
        let area = PixelArea(rows: area.rows.clamped(to: 0..<height), columns: area.columns.clamped(to: 0..<width))
        copyRows(of: area.rows, columns: area.columns, from: other, to: area)
    }

    /// A buffer of its own with the pixels of `area` (which lies on this picture).
    package func copy(_ area: PixelArea) -> PixelBuffer {
        precondition(
            !area.isEmpty && area.rows.clamped(to: 0..<height) == area.rows && area.columns.clamped(to: 0..<width) == area.columns,
            "copying \(area), which is empty or not within a \(width)x\(height) picture")
        let part = PixelBuffer(width: area.columns.count, height: area.rows.count, zeroed: false)
        part.copyRows(of: area.rows, columns: area.columns, from: self, to: PixelArea(rows: 0..<part.height, columns: 0..<part.width))
        return part
    }

    /// Puts `part` (a copy of an area of a picture this size) back over `area` of this picture.
    package func paste(_ part: PixelBuffer, over area: PixelArea) {
        precondition(part.width == area.columns.count && part.height == area.rows.count, "a part pasted over an area of another size")
        copyRows(of: 0..<part.height, columns: 0..<part.width, from: part, to: area)
    }

    /// Copies `rows` and `columns` of `other` into this picture, starting at `area`'s corner.
    private func copyRows(of rows: Range<Int>, columns: Range<Int>, from other: PixelBuffer, to area: PixelArea) {
        guard !columns.isEmpty, !rows.isEmpty else { return }
        // Run for every changed area of every frame drawn, in debug builds too: a plain loop.
        var from = UnsafeRawPointer(other.storage.baseAddress!) + rows.lowerBound * other.bytesPerRow + columns.lowerBound * 4
        var to = storage.baseAddress! + area.rows.lowerBound * bytesPerRow + area.columns.lowerBound * 4
        let (byteCount, fromStride, toStride) = (columns.count * 4, other.bytesPerRow, bytesPerRow)
        for _ in 0..<rows.count {
            to.copyMemory(from: from, byteCount: byteCount)
            from += fromStride
            to += toStride
        }
    }

    deinit { FrameMemory.deallocate(storage) }

    /// The most memory that freed frame buffers of one size keep for the next frames of that
    /// size (see `MappedMemory.frames`): what a process may hold beyond its live frames, per
    /// frame size it uses (a screen's, and a recording's shrunk frames').
    public static let spareMemoryLimit = 24 << 20

    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(storage))
    }

    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(storage)
    }

    /// The pixel at (x, y) as (red, green, blue, alpha).
    public func pixel(x: Int, y: Int) -> RGBA {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) is outside \(width)x\(height)")
        let offset = y * bytesPerRow + x * 4
        return RGBA(red: storage[offset + 2], green: storage[offset + 1], blue: storage[offset], alpha: storage[offset + 3])
    }

    /// True when both buffers hold the same visible pixels (row padding is ignored).
    public func hasSamePixels(as other: PixelBuffer) -> Bool {
        guard width == other.width, height == other.height else { return false }
        let rowBytes = width * 4
        for row in 0..<height {
            let a = storage.baseAddress! + row * bytesPerRow
            let b = other.storage.baseAddress! + row * other.bytesPerRow
            if memcmp(a, b, rowBytes) != 0 { return false }
        }
        return true
    }

    /// FNV-1a over the visible pixels: a cheap identity for golden images and determinism checks.
    public var contentHash: UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let rowBytes = width * 4
        for row in 0..<height {
            let base = storage.baseAddress!.advanced(by: row * bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for i in 0..<rowBytes {
                hash = (hash ^ UInt64(base[i])) &* 0x100_0000_01b3
            }
        }
        return hash
    }
}

/// One pixel's colour channels, 0...255.
public struct RGBA: Equatable, Sendable, CustomStringConvertible {
    public var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}

/// Where frame-sized buffers live. A buffer of a megabyte or more gets pages of its own (mmap).
/// Through malloc, glibc raises its mmap threshold after the first such buffer is freed and
/// serves later ones from its heaps, where freed frames stay resident: a device with two
/// recorders peaked 55 MB higher that way, and the demo at 508 MB. Freed mappings wait in a
/// small pool (`MappedMemory.frames`) for the next buffer of their size.
enum FrameMemory {
    static let mappedThreshold = 1 << 20

    static func isMapped(_ byteCount: Int) -> Bool { byteCount >= mappedThreshold }

    /// A buffer of `byteCount` bytes, and whether it is known to be all zeros.
    static func allocate(byteCount: Int) -> (UnsafeMutableRawBufferPointer, isZeroed: Bool) {
        guard isMapped(byteCount) else { return (.allocate(byteCount: byteCount, alignment: 64), false) }
        return MappedMemory.frames.allocate(byteCount: byteCount)
    }

    static func deallocate(_ storage: UnsafeMutableRawBufferPointer) {
        guard isMapped(storage.count) else { storage.deallocate(); return }
        MappedMemory.frames.deallocate(storage)
    }
}

/// Memory mapped in whole pages, with a pool of spare mappings by size.
///
/// A fresh mapping costs a page fault and a zeroed page for each of its 4 KiB pages (1300 of
/// them for a 780x1688 frame, about 2 ms here), which made the kernel a third of a
/// recording's CPU; so freed mappings wait in the pool, at most `spareLimit` bytes of each
/// size, for the next buffer of their size, and beyond it go back to the system. The limit is
/// per size so that one size freed in a burst (a recorder's queue of shrunk frames draining)
/// cannot crowd out the spares of another (the device's next screens), which then would be
/// mapped afresh, page by page. (Transparent huge
/// pages were tried and dropped: the kernel clears all 2 MiB of one at its first touch, which
/// measured eight times the cost of clearing the 4 KiB pages actually written.)
public final class MappedMemory: Sendable {
    /// Frame buffers (`PixelBuffer`s of a megabyte or more).
    public static let frames = MappedMemory(spareLimit: PixelBuffer.spareMemoryLimit)

    public let spareLimit: Int
    /// Base addresses of spare mappings by byte count.
    private let spares = Mutex<[Int: [UInt]]>([:])

    public init(spareLimit: Int) {
        self.spareLimit = spareLimit
    }

    /// A mapping of `byteCount` bytes, and whether it is known to be all zeros (a fresh one).
    public func allocate(byteCount: Int) -> (UnsafeMutableRawBufferPointer, isZeroed: Bool) {
        let spare = spares.withLock { $0[byteCount]?.popLast() }
        if let spare, let base = UnsafeMutableRawPointer(bitPattern: spare) {
            return (UnsafeMutableRawBufferPointer(start: base, count: byteCount), false)
        }
        guard let base = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            base != MAP_FAILED
        else {
            preconditionFailure("out of memory mapping \(byteCount) bytes")
        }
        return (UnsafeMutableRawBufferPointer(start: base, count: byteCount), true)
    }

    /// Returns a mapping from `allocate` to the pool, or to the system when the pool is full.
    public func deallocate(_ storage: UnsafeMutableRawBufferPointer) {
        guard let base = storage.baseAddress else { return }
        let kept = spares.withLock { spares -> Bool in
            guard ((spares[storage.count]?.count ?? 0) + 1) * storage.count <= spareLimit else { return false }
            spares[storage.count, default: []].append(UInt(bitPattern: base))
            return true
        }
        if !kept { munmap(base, storage.count) }
    }
}
