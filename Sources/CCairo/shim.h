#ifndef SHOWREEL_CCAIRO_SHIM_H
#define SHOWREEL_CCAIRO_SHIM_H
#include <cairo/cairo.h>
// Text: Pango lays out and HarfBuzz shapes (Arabic joining, bidi, font fallback to Noto).
#include <pango/pangocairo.h>
// PNG files: libpng's simplified API (errors come back as a status, no longjmp).
#include <png.h>
#include <stdint.h>
#include <string.h>
// JPEG files (a trace's thumbnails): libjpeg-turbo, straight from BGRA. Its errors longjmp,
// which Swift cannot catch, so the whole encode is the C function below.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <jpeglib.h>

struct showreel_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
};

static void showreel_jpeg_error_exit(j_common_ptr info) {
    longjmp(((struct showreel_jpeg_error *)info->err)->escape, 1);
}

static void showreel_jpeg_silence(j_common_ptr info, int level) { (void)info; (void)level; }

/// Encodes a BGRA picture as a baseline JFIF (4:2:0) at `quality` into a buffer of its own
/// (`*bytes`, `*size`; free it with `free`). Returns 0, or -1 when libjpeg failed (nothing to free).
static inline int showreel_jpeg_encode(
    const uint8_t *pixels, int width, int height, int bytes_per_row, int quality, unsigned char **bytes,
    unsigned long *size) {
    struct jpeg_compress_struct info;
    struct showreel_jpeg_error error;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = showreel_jpeg_error_exit;
    error.manager.emit_message = showreel_jpeg_silence;
    *bytes = NULL;
    *size = 0;
    if (setjmp(error.escape)) {
        jpeg_destroy_compress(&info);
        free(*bytes);
        *bytes = NULL;
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, bytes, size);
    info.image_width = (JDIMENSION)width;
    info.image_height = (JDIMENSION)height;
    info.input_components = 4;
    info.in_color_space = JCS_EXT_BGRA;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)info.next_scanline * bytes_per_row);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    return 0;
}

/// Eight BGRA pixels: the opacity check ANDs eight at a time.
typedef uint32_t showreel_pixels8 __attribute__((ext_vector_type(8)));

/// Whether every pixel of a BGRA picture has alpha 255: a loop Swift's debug builds would run
/// twenty times slower. A header's inline function is compiled as the module that imports it
/// is (unoptimised in debug builds, where tests take their screenshots), so it takes eight
/// pixels a step itself: 0.85 ms for a 780x1688 screen at -O0 instead of 5.2.
static inline int showreel_is_opaque(const uint8_t *pixels, int width, int height, int bytes_per_row) {
    for (int row = 0; row < height; row++) {
        const uint8_t *line = pixels + (size_t)row * bytes_per_row;
        showreel_pixels8 all8 = (showreel_pixels8)(0xFF000000u);
        int column = 0;
        for (; column + 8 <= width; column += 8) {
            showreel_pixels8 eight;
            memcpy(&eight, line + (size_t)column * 4, sizeof eight);
            all8 &= eight;
        }
        uint32_t all = all8[0] & all8[1] & all8[2] & all8[3] & all8[4] & all8[5] & all8[6] & all8[7];
        for (; column < width; column++) {
            uint32_t pixel;
            memcpy(&pixel, line + (size_t)column * 4, sizeof pixel);
            all &= pixel;
        }
        if ((all & 0xFF000000u) != 0xFF000000u) return 0;
    }
    return 1;
}
#endif
