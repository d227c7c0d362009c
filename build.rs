//! Generates the C header (cbindgen) and the C# declarations (csbindgen) from `src/ffi`.
//!
//! Both are written to `OUT_DIR`; with `SINEW_BLESS=1` they are also copied over the
//! committed `include/sinew.h` and `bindings/csharp/NativeMethods.g.cs`. The drift tests
//! compare the committed files with the fresh ones, so a change to the ABI that was not
//! blessed and committed fails the test suite. Failures print a warning instead of
//! panicking, so rustc's own error about the source is not hidden.

use std::path::{Path, PathBuf};

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
];

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-changed=cbindgen.toml");
    // cbindgen reads the whole crate (a `pub const` anywhere lands in the header).
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-env-changed=SINEW_BLESS");
    let bless = std::env::var("SINEW_BLESS").is_ok_and(|v| v == "1");

    let header = out.join("sinew.h");
    match cbindgen::Config::from_file(root.join("cbindgen.toml"))
        .map_err(|e| e.to_string())
        .and_then(|config| cbindgen::generate_with_config(&root, config).map_err(|e| e.to_string()))
    {
        Ok(bindings) => {
            bindings.write_to_file(&header);
            if bless {
                copy(&header, &root.join("include/sinew.h"));
            }
        }
        Err(e) => println!("cargo:warning=cbindgen could not generate sinew.h: {e}"),
    }

    let cs = out.join("NativeMethods.g.cs");
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
        .always_included_types(["SinewTetherMode", "SinewKernel", "SinewPinMode", "SinewShape", "SinewBodyKind", "SinewStrandsMode"])
        .generate_csharp_file(&cs);
    match result {
        Ok(()) => {
            if bless {
                copy(&cs, &root.join("bindings/csharp/NativeMethods.g.cs"));
            }
        }
        Err(e) => println!("cargo:warning=csbindgen could not generate NativeMethods.g.cs: {e}"),
    }
}

fn copy(from: &Path, to: &Path) {
    if let Err(e) = std::fs::create_dir_all(to.parent().unwrap()).and_then(|_| std::fs::copy(from, to)) {
        println!("cargo:warning=could not update {}: {e}", to.display());
    }
}
