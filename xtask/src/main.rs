//! ```text
//! cargo run -p xtask --features generate -- generate [FILE...]
//!                                            write include/sinew.h, bindings/csharp/NativeMethods.g.cs
//!                                            and Properties.g.cs from src/ffi
//! cargo run -p xtask --features generate -- check [FILE...]
//!                                            exit 1 if a committed file differs from a fresh generation
//! cargo run -p xtask -- install --prefix DIR [--target TRIPLE] [--no-strip]
//!                                            build the release library and install headers, shared
//!                                            and static libraries, CMake and pkg-config files
//! cargo run -p xtask -- package [--out DIR] [--no-windows] [--macos] [--url BASE] [--sources-only]
//!                                            the Unity package (UPM .tgz) and a C/C++ archive per
//!                                            target (see xtask/src/package/mod.rs)
//! ```
//!
//! FILE limits the command to some of the generated files (paths as above). Without the
//! `generate` feature, `generate` and `check` exit with status 2 and say the command above:
//! `install` and `package` use the committed files and compile none of the generators.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, files)) = args.split_first() else {
        return usage();
    };
    match command.as_str() {
        "install" => install(files),
        "package" => package(files),
        "generate" | "check" => generated_files(command, files),
        _ => usage(),
    }
}

#[cfg(not(feature = "generate"))]
fn generated_files(command: &str, _files: &[String]) -> ExitCode {
    eprintln!(
        "xtask: `{command}` runs cbindgen and csbindgen, which are built only with the `generate` feature:\n\
         \x20   cargo run -p xtask --features generate -- {command}"
    );
    ExitCode::from(2)
}

/// `generate` writes the generated files that differ from a fresh generation; `check` lists them
/// and fails.
#[cfg(feature = "generate")]
fn generated_files(command: &str, files: &[String]) -> ExitCode {
    use xtask::generate;
    for f in files {
        if !xtask::FILES.contains(&f.as_str()) {
            eprintln!("xtask: {f} is not a generated file (those are: {})", xtask::FILES.join(", "));
            return ExitCode::from(2);
        }
    }
    let wanted = |path: &str| files.is_empty() || files.iter().any(|f| f == path);

    let root = xtask::repo_root();
    let generated = match generate::generate(&root) {
        Ok(generated) => generated,
        Err(e) => {
            eprintln!("xtask: {e}");
            return ExitCode::FAILURE;
        }
    };
    let selected = generated.iter().filter(|g| wanted(g.path));

    match command {
        "generate" => {
            for g in selected {
                if generate::drift(&root, g).is_none() {
                    println!("{} is up to date", g.path);
                    continue;
                }
                if let Err(e) = std::fs::write(root.join(g.path), &g.text) {
                    eprintln!("xtask: could not write {}: {e}", g.path);
                    return ExitCode::FAILURE;
                }
                println!("wrote {}", g.path);
            }
            ExitCode::SUCCESS
        }
        "check" => {
            let mut stale = 0;
            for g in selected {
                match generate::drift(&root, g) {
                    None => println!("{} matches src/ffi", g.path),
                    Some(message) => {
                        eprintln!("{message}");
                        stale += 1;
                    }
                }
            }
            if stale == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        _ => usage(),
    }
}

fn install(args: &[String]) -> ExitCode {
    let mut options = xtask::install::Options { prefix: PathBuf::new(), target: None, strip: true };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.clone().next()) {
            ("--prefix", Some(dir)) => options.prefix = PathBuf::from(dir),
            ("--target", Some(triple)) => options.target = Some(triple.clone()),
            ("--no-strip", _) => {
                options.strip = false;
                continue;
            }
            _ => return usage(),
        }
        args.next();
    }
    if options.prefix.as_os_str().is_empty() {
        return usage();
    }
    // Relative to where the command was run, not to the repository.
    if options.prefix.is_relative() {
        options.prefix = std::env::current_dir().expect("a current directory").join(&options.prefix);
    }
    match xtask::install::install(&xtask::repo_root(), &options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask install: {e}");
            ExitCode::FAILURE
        }
    }
}

fn package(args: &[String]) -> ExitCode {
    let root = xtask::repo_root();
    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let mut options = xtask::package::Options {
        out: target_dir.join("package"),
        windows: true,
        macos: false,
        url: None,
        sources_only: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--no-windows" => options.windows = false,
            "--macos" => options.macos = true,
            "--sources-only" => options.sources_only = true,
            "--out" | "--url" => {
                let Some(value) = args.next() else { return usage() };
                if arg == "--out" {
                    options.out = PathBuf::from(value);
                } else {
                    options.url = Some(value.clone());
                }
            }
            _ => return usage(),
        }
    }
    if options.out.is_relative() {
        options.out = std::env::current_dir().expect("a current directory").join(&options.out);
    }
    if let Err(e) = std::fs::create_dir_all(&options.out) {
        eprintln!("xtask package: could not create {}: {e}", options.out.display());
        return ExitCode::FAILURE;
    }
    match xtask::package::package(&root, &options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask package: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: cargo run -p xtask --features generate -- generate [FILE...]   write the generated files from src/ffi\n\
         \x20      cargo run -p xtask --features generate -- check [FILE...]      fail if a committed one differs from a fresh generation\n\
         \x20      cargo run -p xtask -- install --prefix DIR [--target TRIPLE] [--no-strip]\n\
         \x20      cargo run -p xtask -- package [--out DIR] [--no-windows] [--macos] [--url BASE] [--sources-only]\n\
         generated files: {}",
        xtask::FILES.join(", ")
    );
    ExitCode::from(2)
}
