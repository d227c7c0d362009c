/* Loading and unloading libsinew in a loop, as the Unity editor does on a domain reload and
 * a game on a level change: each round dlopen()s the library, resolves what it calls with
 * dlsym(), builds worlds of one and two worker threads (with a pacer thread, wake_ahead_us)
 * (the first half of the rounds from a host thread that exits before the unload, the
 * rest from the main thread) holding a grid cloth large enough to split across threads, a rope, a humanoid ragdoll, a
 * soft-body lattice and a collider, steps them synchronously and with
 * step_begin/step_end, checks the readback is finite, destroys everything and dlclose()s.
 *
 * After each round: every thread the library started has been joined (the process has
 * exactly the threads it had before the first dlopen, counted in /proc/self/task), and
 * dlclose() returned 0. In the first half the library must really be unmapped
 * (dlopen(RTLD_NOLOAD) no longer finds it), so each of those rounds loads a fresh copy.
 * Once the main thread has called it, glibc keeps it mapped until that thread exits (the
 * thread holds thread-local destructors of the library's standard library), as it does for
 * any Rust or C++ library; the rest of the rounds check that loading and unloading a
 * still-mapped library is as safe, and the count of unmapped rounds is printed.
 * Run under valgrind by scripts/test-c.sh (no errors, nothing definitely or indirectly lost).
 *
 *   unload <path to libsinew.so> [rounds]     (default 200)
 *
 * Compiled as strict C99 (-Wall -Wextra -Werror -pedantic) with -pthread; not linked to
 * libsinew. */

#define _POSIX_C_SOURCE 200809L

#include "sinew.h"

#include <dirent.h>
#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int g_checks;

static void die(int round, const char *what, const char *detail) {
    printf("FAIL round %d: %s: %s\n", round, what, detail ? detail : "");
    printf("unload: %d checks passed, then a failure\n", g_checks);
    exit(1);
}

/* The library's functions this host calls, resolved per load. */
typedef struct Api {
    uint32_t (*abi_version)(void);
    const char *(*last_error_message)(void);
    SinewResult (*world_desc_default)(SinewWorldDesc *);
    SinewResult (*world_create)(const SinewWorldDesc *, SinewWorld *);
    SinewResult (*world_destroy)(SinewWorld);
    SinewResult (*world_step)(SinewWorld, float);
    SinewResult (*world_step_begin)(SinewWorld, float);
    SinewResult (*world_step_end)(SinewWorld);
    SinewResult (*cloth_grid_desc_default)(SinewClothGridDesc *);
    SinewResult (*cloth_create_grid)(SinewWorld, const SinewClothGridDesc *, SinewBody *);
    SinewResult (*rope_desc_default)(SinewRopeDesc *);
    SinewResult (*rope_create)(SinewWorld, const SinewRopeDesc *, SinewBody *);
    SinewResult (*soft_lattice_desc_default)(SinewSoftLatticeDesc *);
    SinewResult (*softbody_create_lattice)(SinewWorld, const SinewSoftLatticeDesc *, SinewBody *);
    SinewResult (*collider_desc_default)(SinewColliderDesc *);
    SinewResult (*collider_create)(SinewWorld, const SinewColliderDesc *, SinewCollider *);
    SinewResult (*humanoid_bones_default)(SinewHumanoidBones *);
    SinewResult (*ragdoll_settings_default)(SinewRagdollSettings *);
    SinewResult (*ragdoll_create_humanoid)(SinewWorld, const SinewHumanoidBones *, const SinewRagdollSettings *, SinewRagdoll *);
    SinewResult (*body_get_vertex_count)(SinewBody, size_t *);
    SinewResult (*body_read_positions)(SinewBody, SinewVec3 *, size_t);
    SinewResult (*body_destroy)(SinewBody);
} Api;

static void resolve(void *lib, const char *name, void *slot, int round) {
    void *p = dlsym(lib, name);
    if (!p) die(round, name, dlerror());
    /* ISO C has no conversion from void * to a function pointer; POSIX guarantees that the
     * representations agree, so copy the bits. */
    memcpy(slot, &p, sizeof p);
}

#define RESOLVE(field, name) resolve(lib, name, &api->field, round)

static void load_api(void *lib, Api *api, int round) {
    RESOLVE(abi_version, "sinew_abi_version");
    RESOLVE(last_error_message, "sinew_last_error_message");
    RESOLVE(world_desc_default, "sinew_world_desc_default");
    RESOLVE(world_create, "sinew_world_create");
    RESOLVE(world_destroy, "sinew_world_destroy");
    RESOLVE(world_step, "sinew_world_step");
    RESOLVE(world_step_begin, "sinew_world_step_begin");
    RESOLVE(world_step_end, "sinew_world_step_end");
    RESOLVE(cloth_grid_desc_default, "sinew_cloth_grid_desc_default");
    RESOLVE(cloth_create_grid, "sinew_cloth_create_grid");
    RESOLVE(rope_desc_default, "sinew_rope_desc_default");
    RESOLVE(rope_create, "sinew_rope_create");
    RESOLVE(soft_lattice_desc_default, "sinew_soft_lattice_desc_default");
    RESOLVE(softbody_create_lattice, "sinew_softbody_create_lattice");
    RESOLVE(collider_desc_default, "sinew_collider_desc_default");
    RESOLVE(collider_create, "sinew_collider_create");
    RESOLVE(humanoid_bones_default, "sinew_humanoid_bones_default");
    RESOLVE(ragdoll_settings_default, "sinew_ragdoll_settings_default");
    RESOLVE(ragdoll_create_humanoid, "sinew_ragdoll_create_humanoid");
    RESOLVE(body_get_vertex_count, "sinew_body_get_vertex_count");
    RESOLVE(body_read_positions, "sinew_body_read_positions");
    RESOLVE(body_destroy, "sinew_body_destroy");
}

static const Api *g_api;
static int g_round;

static void ok(SinewResult r, const char *what) {
    if (r != SINEW_OK) {
        char detail[512];
        snprintf(detail, sizeof detail, "result %d: %s", (int)r, g_api->last_error_message());
        die(g_round, what, detail);
    }
    g_checks++;
}

#define OK(call) ok((call), #call)

/* Threads of this process now. */
static int thread_count(void) {
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] != '.') n++;
    }
    closedir(d);
    return n;
}

static void check_finite(const Api *api, SinewBody b, const char *what) {
    static SinewVec3 buf[4096];
    size_t n = 0, i;
    OK(api->body_get_vertex_count(b, &n));
    if (n > 4096) die(g_round, what, "more vertices than the buffer");
    OK(api->body_read_positions(b, buf, n));
    for (i = 0; i < n; i++) {
        if (!isfinite(buf[i].x) || !isfinite(buf[i].y) || !isfinite(buf[i].z)) die(g_round, what, "a non-finite position");
    }
    g_checks++;
}

/* One world of `threads` workers with every kind of object, stepped both ways. */
static void scene(const Api *api, uint32_t threads) {
    SinewWorldDesc wd;
    SinewWorld w;
    SinewClothGridDesc gd;
    SinewRopeDesc rd;
    SinewSoftLatticeDesc ld;
    SinewColliderDesc cd;
    SinewHumanoidBones hb;
    SinewRagdollSettings rs;
    SinewBody cloth, rope, soft;
    SinewCollider col;
    SinewRagdoll doll;
    SinewVec3 points[8];
    int i;

    OK(api->world_desc_default(&wd));
    wd.thread_count = threads;
    wd.wake_ahead_us = threads > 1 ? 500 : 0;
    OK(api->world_create(&wd, &w));

    OK(api->cloth_grid_desc_default(&gd));
    gd.columns = 48; /* past the size one step splits across two threads */
    gd.rows = 48;
    OK(api->cloth_create_grid(w, &gd, &cloth));

    for (i = 0; i < 8; i++) {
        points[i].x = 2.0f + 0.1f * (float)i;
        points[i].y = 2.0f;
        points[i].z = 0.0f;
    }
    OK(api->rope_desc_default(&rd));
    rd.points = points;
    rd.point_count = 8;
    OK(api->rope_create(w, &rd, &rope));

    OK(api->soft_lattice_desc_default(&ld));
    ld.origin.x = -2.0f;
    ld.origin.y = 1.0f;
    OK(api->softbody_create_lattice(w, &ld, &soft));

    OK(api->collider_desc_default(&cd));
    OK(api->collider_create(w, &cd, &col));
    (void)col;

    OK(api->humanoid_bones_default(&hb));
    OK(api->ragdoll_settings_default(&rs));
    OK(api->ragdoll_create_humanoid(w, &hb, &rs, &doll));
    (void)doll;

    for (i = 0; i < 3; i++) OK(api->world_step(w, 1.0f / 60.0f));
    for (i = 0; i < 3; i++) {
        OK(api->world_step_begin(w, 1.0f / 60.0f));
        OK(api->world_step_end(w));
    }
    check_finite(api, cloth, "cloth");
    check_finite(api, rope, "rope");
    check_finite(api, soft, "soft body");
    OK(api->body_destroy(rope));
    /* The world is destroyed with its objects, and while a step is still in flight. */
    OK(api->world_step_begin(w, 1.0f / 60.0f));
    OK(api->world_step_end(w));
    OK(api->world_step_begin(w, 1.0f / 60.0f));
    if (api->world_destroy(w) != SINEW_OK) {
        /* A destroy during an async step may be refused (SINEW_BUSY): end the step first. */
        OK(api->world_step_end(w));
        OK(api->world_destroy(w));
    }
}

static void *scenes(void *arg) {
    const Api *api = arg;
    scene(api, 2);
    scene(api, 1);
    return NULL;
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "libsinew.so";
    int rounds = argc > 2 ? atoi(argv[2]) : 200;
    int threads_before = thread_count();
    int unmapped = 0;
    Api api;

    for (g_round = 0; g_round < rounds; g_round++) {
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!lib) die(g_round, "dlopen", dlerror());
        memset(&api, 0, sizeof api);
        load_api(lib, &api, g_round);
        g_api = &api;
        if (api.abi_version() != SINEW_ABI_VERSION) die(g_round, "sinew_abi_version", "differs from the header's SINEW_ABI_VERSION");
        if (g_round >= rounds / 2) {
            scenes(&api);
        } else {
            /* A host thread that calls the library and exits before the unload. */
            pthread_t t;
            if (pthread_create(&t, NULL, scenes, &api) != 0 || pthread_join(t, NULL) != 0) die(g_round, "pthread", "could not run the round on a thread");
        }
        /* A joined thread can still be listed in /proc/self/task for a moment after its join
           returns (the kernel wakes the joiner before it removes the task), so the count is
           given up to a second to settle; a thread left running would stay listed. */
        int settled = thread_count();
        for (int wait = 0; settled != threads_before && wait < 1000; wait++) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
            settled = thread_count();
        }
        if (settled != threads_before) {
            char detail[64];
            snprintf(detail, sizeof detail, "%d threads, %d before the first load", settled, threads_before);
            die(g_round, "every library thread joined after the worlds were destroyed", detail);
        }
        g_checks++;
        g_api = NULL;
        if (dlclose(lib) != 0) die(g_round, "dlclose", dlerror());
        g_checks++;
        lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        if (lib) {
            dlclose(lib);
            /* Only the main thread's thread-local destructors may keep it mapped. */
            if (g_round < rounds / 2) die(g_round, "dlclose unmapped the library", "it is still loaded although its calling thread has exited");
        } else {
            unmapped++;
        }
        g_checks++;
    }
    printf("ok   %d rounds of dlopen, 2 worlds (2 and 1 worker threads, every object kind), dlclose\n", rounds);
    printf("ok   threads after the last round: %d (as before the first load)\n", thread_count());
    printf("     rounds whose dlclose unmapped the library: %d of %d (the first %d from exiting host threads)\n", unmapped, rounds, rounds / 2);
    printf("unload: %d checks passed, 0 failed\n", g_checks);
    return 0;
}
