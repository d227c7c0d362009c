//! The repository's developer commands (xtask/src/main.rs lists them):
//!
//! - `install` and `package` (install.rs, package/): the release library laid out as a C/C++
//!   package, and the Unity package. They use the committed `include/sinew.h` and
//!   `bindings/csharp/*.g.cs` as they are.
//! - `generate` and `check` (generate/, behind the `generate` feature): cbindgen and csbindgen
//!   write those files from `src/ffi`. Their dependencies (syn, serde, toml, regex, ...) are
//!   most of what this crate would compile, so `install` and `package` build without them.
//!
//! This used to be the library's build script; as a workspace member it is compiled only by
//! the people who run these commands, not by every user of the library.

#[cfg(any(feature = "generate", test))]
pub mod generate;
pub mod install;
pub mod package;

use std::path::{Path, PathBuf};

/// The command that rewrites the generated files; every failure message names it.
pub const GENERATE: &str = "cargo run -p xtask --features generate -- generate";

/// The committed C header, relative to the repository root.
pub const HEADER: &str = "include/sinew.h";

/// The committed C# declarations, relative to the repository root.
pub const CSHARP: &str = "bindings/csharp/NativeMethods.g.cs";

/// The committed PascalCase properties over the C# structs' fields (from `CSHARP`).
pub const PROPERTIES: &str = "bindings/csharp/Properties.g.cs";

/// Every generated file, in the order `generate` writes them.
pub const FILES: &[&str] = &[HEADER, CSHARP, PROPERTIES];

/// The repository root (the parent of this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask lives in the repository").to_path_buf()
}
