//! Generates the C header (cbindgen) and the C# declarations (csbindgen) from `src/ffi`,
//! with the PascalCase properties over the C# structs (properties.rs), and compares them with
//! the committed `include/sinew.h`, `bindings/csharp/NativeMethods.g.cs` and `Properties.g.cs`
//! (the drift check: this module's tests).
//!
//! Compiled only with the `generate` feature (`cargo run -p xtask --features generate --
//! generate`) and in the lib's own test build (`cargo test -p xtask`, where cbindgen and
//! csbindgen are dev-dependencies): `install` and `package` build none of the generators'
//! dependencies.

pub mod properties;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::{CSHARP, GENERATE, HEADER, PROPERTIES};

/// The root of cbindgen's parse: `src/ffi/mod.rs` and the modules it declares, which are
/// the files of `src/ffi`. Nothing outside `src/ffi` can reach the header. (A per-file list
/// is not possible here: cbindgen follows the `mod` declarations of mod.rs, so listing its
/// modules as well would emit every function twice.)
const FFI_ROOT: &str = "src/ffi/mod.rs";

/// The files csbindgen reads (the `extern "C"` functions and the `repr(C)` types).
const FFI_FILES: &[&str] = &[
    "src/ffi/types.rs",
    "src/ffi/result.rs",
    "src/ffi/world.rs",
    "src/ffi/body.rs",
    "src/ffi/cloth.rs",
    "src/ffi/rope.rs",
    "src/ffi/collider.rs",
    "src/ffi/character.rs",
    "src/ffi/strands.rs",
    "src/ffi/ragdoll.rs",
    "src/ffi/getup.rs",
    "src/ffi/softbody.rs",
    "src/ffi/snapshot.rs",
];

/// A freshly generated file: its path relative to the root and its text.
pub struct Generated {
    pub path: &'static str,
    pub text: String,
}

/// Generates both files in memory.
pub fn generate(root: &Path) -> Result<Vec<Generated>, String> {
    let declarations = csharp(root)?;
    let properties = csharp_properties(root, &declarations)?;
    Ok(vec![
        Generated { path: HEADER, text: c_header(root)? },
        Generated { path: CSHARP, text: declarations },
        Generated { path: PROPERTIES, text: properties },
    ])
}

/// `bindings/csharp/Properties.g.cs` from the C# declarations and the wrapper's hand-written
/// files (whose own members of the same name stand).
pub fn csharp_properties(root: &Path, declarations: &str) -> Result<String, String> {
    let dir = root.join("bindings/csharp");
    let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cs") && !p.to_string_lossy().ends_with(".g.cs"))
        .collect();
    paths.sort();
    let mut handwritten = Vec::new();
    for p in paths {
        handwritten.push(std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?);
    }
    Ok(properties::csharp_properties(declarations, &handwritten))
}

/// `include/sinew.h`, with the settings of `cbindgen.toml`.
pub fn c_header(root: &Path) -> Result<String, String> {
    let config =
        cbindgen::Config::from_file(root.join("cbindgen.toml")).map_err(|e| format!("cbindgen.toml: {e}"))?;
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join(FFI_ROOT))
        .generate()
        .map_err(|e| format!("cbindgen could not generate {HEADER}: {e}"))?;
    let mut text = Vec::new();
    bindings.write(&mut text);
    String::from_utf8(text).map_err(|e| format!("cbindgen wrote non-UTF-8 text: {e}"))
}

/// `bindings/csharp/NativeMethods.g.cs`. csbindgen only writes files, so it writes a
/// temporary one, which is read back and removed.
pub fn csharp(root: &Path) -> Result<String, String> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let tmp = std::env::temp_dir().join(format!(
        "sinew-xtask-{}-{}-NativeMethods.g.cs",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let mut builder = csbindgen::Builder::default();
    for f in FFI_FILES {
        builder = builder.input_extern_file(root.join(f));
    }
    let result = builder
        .csharp_dll_name("sinew")
        .csharp_dll_name_if("UNITY_IOS && !UNITY_EDITOR", "__Internal")
        .csharp_namespace("Sinew")
        .csharp_class_name("NativeMethods")
        .csharp_class_accessibility("public")
        .csharp_use_nint_types(false)
        .csharp_use_function_pointer(false)
        // The mode enums, which no signature names (their fields and arguments are u32).
        .always_included_types(["SinewTetherMode", "SinewKernel", "SinewRigidSolver", "SinewMaterialPreset", "SinewPinMode", "SinewShape", "SinewBodyKind", "SinewStrandsMode", "SinewEventKind", "SinewRecoveryReason", "SinewJointKind", "SinewHumanoidBone", "SinewLyingSide", "SinewRagdollEvent"])
        .generate_csharp_file(&tmp)
        .map_err(|e| format!("csbindgen could not generate {CSHARP}: {e}"))
        .and_then(|()| std::fs::read_to_string(&tmp).map_err(|e| format!("reading {}: {e}", tmp.display())));
    let _ = std::fs::remove_file(&tmp);
    result
}

/// Compares a fresh generation with the committed file: `None` when they are equal,
/// otherwise a message that names the file, the first differing line and the command that
/// regenerates it.
pub fn drift(root: &Path, fresh: &Generated) -> Option<String> {
    let committed = match std::fs::read_to_string(root.join(fresh.path)) {
        Ok(text) => text,
        Err(e) => return Some(format!("{} could not be read ({e}); run `{GENERATE}` and commit it.", fresh.path)),
    };
    if committed == fresh.text {
        return None;
    }
    let mut old = committed.lines();
    let mut new = fresh.text.lines();
    let mut line = 1;
    let (old_line, new_line) = loop {
        match (old.next(), new.next()) {
            (a, b) if a != b => break (a.unwrap_or("<end of file>"), b.unwrap_or("<end of file>")),
            (None, None) => break ("<line endings differ>", ""),
            _ => line += 1,
        }
    };
    Some(format!(
        "{path} differs from what src/ffi generates now (first difference at line {line}):\n\
         \x20   committed: {old_line}\n\
         \x20   generated: {new_line}\n\
         If the ABI change is intended, run `{GENERATE}` and commit {path}.",
        path = fresh.path
    ))
}

/// The committed header and C# declarations must equal a fresh generation from src/ffi, so
/// an ABI change that was not regenerated and committed fails the test suite
/// (`cargo test -p xtask`; scripts/test.sh runs it with `--features generate`).
#[cfg(test)]
mod drift_tests {
    use super::*;

    fn assert_current(path: &str) {
        let root = crate::repo_root();
        let generated = generate(&root).unwrap_or_else(|e| panic!("{e}"));
        let fresh = generated.iter().find(|g| g.path == path).expect("a generated file");
        if let Some(message) = drift(&root, fresh) {
            panic!("{message}");
        }
    }

    #[test]
    fn c_header_matches_a_fresh_generation() {
        assert_current(HEADER);
    }

    #[test]
    fn csharp_declarations_match_a_fresh_generation() {
        assert_current(CSHARP);
    }

    #[test]
    fn csharp_properties_match_a_fresh_generation() {
        assert_current(PROPERTIES);
    }
}
