import ShowreelGraphics

/// Distinct background colours, one per synthetic frame (repeating).
public let palette: [RGBA] = [
    RGBA(red: 220, green: 40, blue: 40), RGBA(red: 40, green: 200, blue: 60), RGBA(red: 40, green: 60, blue: 220),
    RGBA(red: 230, green: 200, blue: 40), RGBA(red: 200, green: 50, blue: 200), RGBA(red: 40, green: 200, blue: 200),
    RGBA(red: 240, green: 240, blue: 240), RGBA(red: 30, green: 30, blue: 30),
]

/// A synthetic screen: a background colour that changes per frame plus a white square that moves.
public func makePixels(index: Int, width: Int = 320, height: Int = 240) -> PixelBuffer {
    let buffer = PixelBuffer(width: width, height: height)
    let colour = palette[index % palette.count]
    let square = 40
    let squareX = (index * 23) % max(1, width - square)
    let squareY = min(20, max(0, height - square))
    buffer.withUnsafeMutableBytes { bytes in
        for y in 0..<height {
            for x in 0..<width {
                let inSquare = x >= squareX && x < squareX + square && y >= squareY && y < squareY + square
                let offset = y * buffer.bytesPerRow + x * 4
                bytes[offset] = inSquare ? 255 : colour.blue
                bytes[offset + 1] = inSquare ? 255 : colour.green
                bytes[offset + 2] = inSquare ? 255 : colour.red
                bytes[offset + 3] = 255
            }
        }
    }
    return buffer
}

public func makeFrame(index: Int, at time: Duration, width: Int = 320, height: Int = 240) -> Frame {
    Frame(pixels: makePixels(index: index, width: width, height: height), presentationTime: time)
}

/// A point of the background, away from the moving square.
public func backgroundPoint(width: Int, height: Int) -> (x: Int, y: Int) { (width - 12, height - 12) }

public func isClose(_ a: RGBA, _ b: RGBA, tolerance: Int = 16) -> Bool {
    abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
        && abs(Int(a.blue) - Int(b.blue)) <= tolerance
}
