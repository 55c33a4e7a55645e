/*
 * hsdis for JMH's perfasm profiler on Debian: the libhsdis0-fcml package exports only the old
 * entry point (decode_instructions), while JDK 9 and later call decode_instructions_virtual. This
 * forwards the new call to the old one; the code to decode is in the running JVM's memory, so the
 * buffer is the code itself. Built and used by bench/perfasm.sh.
 */
#include <stdint.h>

typedef void *(*event_callback)(void *stream, const char *event, void *arg);
typedef int (*printf_callback)(void *stream, const char *format, ...);

extern void *decode_instructions(void *start, void *end, event_callback event, void *event_stream,
                                 printf_callback print, void *print_stream, const char *options);

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer,
                                  uintptr_t length, event_callback event, void *event_stream,
                                  printf_callback print, void *print_stream, const char *options,
                                  int newline) {
    (void) start_va;
    (void) end_va;
    (void) newline;
    return decode_instructions(buffer, buffer + length, event, event_stream, print, print_stream, options);
}
