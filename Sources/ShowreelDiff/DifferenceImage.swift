import ShowreelGraphics

/// Baseline, current and their difference side by side: what a reviewer looks at first. The
/// third panel is the current frame faded to grey with every visibly differing pixel in red;
/// the current panel has the changed area outlined.
enum DifferenceImage {
    static let gap = 8

    static func compose(_ first: FirstDifference) -> PixelBuffer {
        let a = first.baseline, b = first.current
        let height = max(a.height, b.height)
        let image = PixelBuffer(width: a.width + 2 * b.width + 2 * gap, height: height)
        fill(image, RGBA(red: 255, green: 255, blue: 255))
        copy(a, into: image, x: 0)
        copy(b, into: image, x: a.width + gap)
        let box = first.difference.boundingBox
        outline(image, x: a.width + gap + box.x, y: box.y, width: box.width, height: box.height)
        paintDifference(a, b, into: image, x: a.width + b.width + 2 * gap, threshold: first.tolerance)
        return image
    }

    private static func fill(_ image: PixelBuffer, _ color: RGBA) {
        image.withUnsafeMutableBytes { memory in
            for row in 0..<image.height {
                let base = memory.baseAddress!.advanced(by: row * image.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in 0..<image.width { store(color, base + x * 4) }
            }
        }
    }

    private static func copy(_ source: PixelBuffer, into image: PixelBuffer, x: Int) {
        source.withUnsafeBytes { from in
            image.withUnsafeMutableBytes { to in
                for row in 0..<source.height {
                    (to.baseAddress! + row * image.bytesPerRow + x * 4)
                        .copyMemory(from: from.baseAddress! + row * source.bytesPerRow, byteCount: source.width * 4)
                }
            }
        }
    }

    /// A 2-pixel red frame just outside the rectangle, clipped to the image.
    private static func outline(_ image: PixelBuffer, x: Int, y: Int, width: Int, height: Int) {
        let red = RGBA(red: 230, green: 0, blue: 0)
        let left = x - 2, right = x + width + 1, top = y - 2, bottom = y + height + 1
        image.withUnsafeMutableBytes { memory in
            func set(_ px: Int, _ py: Int) {
                guard px >= 0, py >= 0, px < image.width, py < image.height else { return }
                store(red, memory.baseAddress!.advanced(by: py * image.bytesPerRow + px * 4).assumingMemoryBound(to: UInt8.self))
            }
            for t in 0..<2 {
                for px in left...right { set(px, top + t); set(px, bottom - t) }
                for py in top...bottom { set(left + t, py); set(right - t, py) }
            }
        }
    }

    private static func paintDifference(_ a: PixelBuffer, _ b: PixelBuffer, into image: PixelBuffer, x: Int, threshold: Int) {
        let red = RGBA(red: 230, green: 0, blue: 0)
        b.withUnsafeBytes { current in
            a.withUnsafeBytes { baseline in
                image.withUnsafeMutableBytes { memory in
                    for row in 0..<b.height {
                        let pb = current.baseAddress!.advanced(by: row * b.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                        let pa =
                            row < a.height
                            ? baseline.baseAddress!.advanced(by: row * a.bytesPerRow).assumingMemoryBound(to: UInt8.self) : nil
                        let out = memory.baseAddress!.advanced(by: row * image.bytesPerRow + x * 4).assumingMemoryBound(to: UInt8.self)
                        for column in 0..<b.width {
                            var delta = 255
                            if let pa, column < a.width {
                                delta = 0
                                for c in 0..<3 { delta = max(delta, abs(Int(pa[column * 4 + c]) - Int(pb[column * 4 + c]))) }
                            }
                            if delta > threshold {
                                store(red, out + column * 4)
                            } else {
                                // Faded grey: where nothing changed, only the layout is worth seeing.
                                let luma = (Int(pb[column * 4]) + 2 * Int(pb[column * 4 + 1]) + Int(pb[column * 4 + 2])) / 4
                                let grey = UInt8(190 + luma / 4)
                                store(RGBA(red: grey, green: grey, blue: grey), out + column * 4)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func store(_ color: RGBA, _ pixel: UnsafeMutablePointer<UInt8>) {
        pixel[0] = color.blue; pixel[1] = color.green; pixel[2] = color.red; pixel[3] = color.alpha
    }
}
