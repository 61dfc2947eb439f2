// libFuzzer's entry point for programs that keep their own main (FuzzerInterface.h and
// FuzzerDriver.cpp in compiler-rt), available since LLVM 11. The runtime is linked by
// `-sanitize=fuzzer`; nothing here needs a library of its own.
#ifndef CAFFE_LIBFUZZER_H
#define CAFFE_LIBFUZZER_H

#include <stddef.h>
#include <stdint.h>

/// Parses libFuzzer's flags from argc/argv and runs the fuzzing loop (or the inputs named on the
/// command line), calling `callback` once per input. Returns the process's exit status.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
