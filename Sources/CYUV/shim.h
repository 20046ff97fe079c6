// libyuv's 2:1 box shrink of BGRA frames and BGRA -> I420 (BT.601, limited range).
#include <libyuv/scale_argb.h>
#include <libyuv/convert_from_argb.h>
