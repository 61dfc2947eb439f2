#ifndef CAFFE_ICU_FLOOR_H
#define CAFFE_ICU_FLOOR_H

#include <stddef.h>
#include <stdint.h>

/// The ICU4C floor of `caffe-sim bench core`: the formatting calls an order needs, made from C
/// straight into ICU 76 (the toolchain's `_FoundationICU`, symbols prefixed `swift_`). The
/// formatters are opened by the Swift side — the very ICU objects the core formats with — and only
/// the calls are timed here.

typedef enum {
    caffe_icu_call_decimal = 0,  ///< unum_formatDecimal: currency amounts and percentages
    caffe_icu_call_list = 1,     ///< ulistfmt_format
    caffe_icu_call_date = 2,     ///< udat_format
} caffe_icu_call_kind;

typedef struct {
    caffe_icu_call_kind kind;
    /// A UNumberFormat*, UListFormatter* or UDateFormat*.
    const void *formatter;
    /// decimal: the number as plain decimal text.
    const char *decimal;
    int32_t decimal_length;
    /// list: the items as UTF-16.
    const uint16_t *const *items;
    const int32_t *item_lengths;
    int32_t item_count;
    /// date: milliseconds since 1970.
    double milliseconds;
} caffe_icu_call;

/// Makes every call `passes` times over; returns the nanoseconds taken (CLOCK_MONOTONIC), or -1 if
/// ICU reported an error. `units` receives the UTF-16 units written, so the work cannot be elided.
int64_t caffe_icu_floor_run(const caffe_icu_call *calls, size_t count, size_t passes, uint64_t *units);

#endif
