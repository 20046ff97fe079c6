#ifndef SHOWREEL_CCAIRO_SHIM_H
#define SHOWREEL_CCAIRO_SHIM_H
#include <cairo/cairo.h>
// Text: Pango lays out and HarfBuzz shapes (Arabic joining, bidi, font fallback to Noto).
#include <pango/pangocairo.h>
// PNG files: libpng's simplified API (errors come back as a status, no longjmp).
#include <png.h>
#include <stdint.h>

/// Whether every pixel of a BGRA picture has alpha 255: a loop Swift's debug builds would run
/// twenty times slower.
static inline int showreel_is_opaque(const uint8_t *pixels, int width, int height, int bytes_per_row) {
    for (int row = 0; row < height; row++) {
        const uint32_t *line = (const uint32_t *)(pixels + (size_t)row * bytes_per_row);
        uint32_t all = 0xFF000000u;
        for (int column = 0; column < width; column++) all &= line[column];
        if ((all & 0xFF000000u) != 0xFF000000u) return 0;
    }
    return 1;
}
#endif
