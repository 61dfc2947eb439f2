#include "CICUFloor.h"

#include <time.h>

// The three ICU 76 entry points, as `_FoundationICU` exports them (ICU's C API, renamed with the
// `swift_` prefix). Declared here so this target needs no ICU include path; the formatter handles
// are opaque to it.
typedef uint16_t icu_char;
typedef int icu_status;
int32_t swift_unum_formatDecimal(const void *format, const char *number, int32_t length, icu_char *result,
                                 int32_t capacity, void *position, icu_status *status);
int32_t swift_ulistfmt_format(const void *format, const icu_char *const strings[], const int32_t *lengths,
                              int32_t count, icu_char *result, int32_t capacity, icu_status *status);
int32_t swift_udat_format(const void *format, double date, icu_char *result, int32_t capacity, void *position,
                          icu_status *status);

static int64_t now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

int64_t caffe_icu_floor_run(const caffe_icu_call *calls, size_t count, size_t passes, uint64_t *units) {
    icu_char buffer[512];
    uint64_t written = 0;
    int64_t start = now_ns();
    for (size_t pass = 0; pass < passes; pass++) {
        for (size_t index = 0; index < count; index++) {
            const caffe_icu_call *call = &calls[index];
            icu_status status = 0;
            int32_t length = 0;
            switch (call->kind) {
            case caffe_icu_call_decimal:
                length = swift_unum_formatDecimal(call->formatter, call->decimal, call->decimal_length, buffer,
                                                  512, 0, &status);
                break;
            case caffe_icu_call_list:
                length = swift_ulistfmt_format(call->formatter, call->items, call->item_lengths, call->item_count,
                                               buffer, 512, &status);
                break;
            case caffe_icu_call_date:
                length = swift_udat_format(call->formatter, call->milliseconds, buffer, 512, 0, &status);
                break;
            }
            // ICU's failures are positive codes; warnings are negative.
            if (status > 0) return -1;
            written += (uint64_t)length;
        }
    }
    int64_t elapsed = now_ns() - start;
    *units = written;
    return elapsed;
}
