#ifndef SHOWREEL_CFFMPEG_SHIM_H
#define SHOWREEL_CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/channel_layout.h>
#include <libavutil/audio_fifo.h>

// Function-like macros do not import into Swift; these wrap the ones we need.
static inline int showreel_averror(int posixError) { return AVERROR(posixError); }
static inline int showreel_averror_eof(void) { return AVERROR_EOF; }
static inline int showreel_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int showreel_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int showreel_averror_encoder_not_found(void) { return AVERROR_ENCODER_NOT_FOUND; }
static inline int64_t showreel_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational showreel_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline unsigned int showreel_mktag(char a, char b, char c, char d) { return MKTAG(a, b, c, d); }

#endif
