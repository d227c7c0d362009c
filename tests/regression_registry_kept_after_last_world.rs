//! Found by tests/c/unload.c under valgrind: after the last world was destroyed the
//! process-wide world registry kept its slot and free-list vectors (96 bytes there; 24
//! bytes per world that was ever alive at once), so a host that unloads the library
//! (dlclose; the Unity editor on a domain reload) leaked them at every unload: a library's
//! statics are never dropped. Destroying the last world now frees the registry; handles stay
//! unique because serials are process-wide, so a handle from before is still refused.

mod common;
use common::*;
use sinew::ffi::registry::registry_bytes;

#[test]
fn destroying_the_last_world_frees_the_registry() {
    let mut d = world_desc();
    d.thread_count = 1;
    let mut handles = Vec::new();
    for _ in 0..64 {
        let w = create_world(&d);
        ok(sinew_world_step(w, 1.0 / 60.0));
        handles.push(w);
    }
    let held = registry_bytes();
    assert!(held >= 64 * 16, "64 worlds held in {held} bytes");
    for &w in &handles[..63] {
        ok(sinew_world_destroy(w));
    }
    assert!(registry_bytes() >= held, "the registry shrank while a world was alive");
    ok(sinew_world_destroy(handles[63]));
    assert_eq!(registry_bytes(), 0, "the registry keeps {} bytes after the last world was destroyed", registry_bytes());
    // Handles from before are still refused, and a new world works and has a new handle.
    for &h in &handles {
        assert_eq!(sinew_world_step(h, 1.0 / 60.0), SINEW_INVALID_HANDLE);
    }
    let w = create_world(&d);
    assert!(handles.iter().all(|h| h.id != w.id), "a new world reused an old handle");
    ok(sinew_world_step(w, 1.0 / 60.0));
    ok(sinew_world_destroy(w));
    assert_eq!(sinew_world_destroy(w), SINEW_INVALID_HANDLE);
}
