/* A stand-in libsinew.so that reports another ABI version, so LoadTests.cs can check that
 * the C# wrapper refuses it before any other call. Built by scripts/test-csharp.sh with
 * -DFAKE_ABI_VERSION=<n>. */
#include <stdint.h>

uint32_t sinew_abi_version(void) { return FAKE_ABI_VERSION; }

/* Present so that a wrapper which skipped the version check would crash loudly instead of
 * passing by accident. */
int sinew_world_create(const void *desc, void *out_world) {
    (void)desc;
    (void)out_world;
    __builtin_trap();
}
