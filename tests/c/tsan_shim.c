/* Linked into the C clients by scripts/sanitize.sh (tsan-c) only. gcc 12's ThreadSanitizer
 * runtime predates the __tsan_memcpy, __tsan_memmove and __tsan_memset entry points that
 * rustc's (LLVM's) instrumentation of libsinew calls; forward them to the C library's
 * functions, which that runtime intercepts and checks. Exported with -rdynamic so that
 * libsinew.so binds to them. */
#include <string.h>

void *__tsan_memcpy(void *dst, const void *src, size_t n);
void *__tsan_memmove(void *dst, const void *src, size_t n);
void *__tsan_memset(void *dst, int c, size_t n);

void *__tsan_memcpy(void *dst, const void *src, size_t n) { return memcpy(dst, src, n); }
void *__tsan_memmove(void *dst, const void *src, size_t n) { return memmove(dst, src, n); }
void *__tsan_memset(void *dst, int c, size_t n) { return memset(dst, c, n); }
