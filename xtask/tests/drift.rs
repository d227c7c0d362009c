//! The committed header and C# declarations must equal a fresh generation from src/ffi, so
//! an ABI change that was not regenerated and committed fails the test suite
//! (`cargo test -p xtask`; scripts/test.sh runs it).

fn assert_current(path: &str) {
    let root = xtask::repo_root();
    let generated = xtask::generate(&root).unwrap_or_else(|e| panic!("{e}"));
    let fresh = generated.iter().find(|g| g.path == path).expect("a generated file");
    if let Some(message) = xtask::drift(&root, fresh) {
        panic!("{message}");
    }
}

#[test]
fn c_header_matches_a_fresh_generation() {
    assert_current(xtask::HEADER);
}

#[test]
fn csharp_declarations_match_a_fresh_generation() {
    assert_current(xtask::CSHARP);
}

#[test]
fn csharp_properties_match_a_fresh_generation() {
    assert_current(xtask::PROPERTIES);
}
