//! The committed header and C# declarations must equal a fresh generation from src/ffi
//! (build.rs writes the fresh copies to OUT_DIR).

fn compare(committed: &str, fresh_name: &str) {
    let root = env!("CARGO_MANIFEST_DIR");
    let fresh_path = format!("{}/{}", env!("OUT_DIR"), fresh_name);
    let fresh = std::fs::read_to_string(&fresh_path)
        .unwrap_or_else(|e| panic!("build.rs did not generate {fresh_path}: {e} (see the cargo:warning lines of the build)"));
    let committed_path = format!("{root}/{committed}");
    let old = std::fs::read_to_string(&committed_path).unwrap_or_default();
    assert!(
        old == fresh,
        "{committed} differs from what src/ffi generates now.\n\
         If the ABI change is intended, run `SINEW_BLESS=1 cargo build` and commit {committed}."
    );
}

#[test]
fn c_header_matches_a_fresh_generation() {
    compare("include/sinew.h", "sinew.h");
}

#[test]
fn csharp_declarations_match_a_fresh_generation() {
    compare("bindings/csharp/NativeMethods.g.cs", "NativeMethods.g.cs");
}
