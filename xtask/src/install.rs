//! `cargo run -p xtask -- install --prefix DIR [--target TRIPLE] [--no-strip]`: builds the
//! release library and lays it out as a C/C++ package under DIR:
//!
//! ```text
//! include/sinew.h, include/sinew.hpp
//! lib/libsinew.so.0.1.0          Linux: stripped, SONAME libsinew.so.0.1 (set here, patchelf)
//! lib/libsinew.so.0.1 -> libsinew.so.0.1.0, lib/libsinew.so -> libsinew.so.0.1
//! lib/libsinew.so.0.1.0.debug    its debug symbols (objcopy --only-keep-debug; the library
//!                                names it in .gnu_debuglink, so gdb and perf find it beside it)
//! lib/libsinew.dylib             macOS: install name @rpath/libsinew.dylib (set here,
//!                                install_name_tool; cargo's copy keeps its build path)
//! bin/sinew.dll                  Windows; lib/libsinew.dll.a (MinGW) or lib/sinew.dll.lib
//!                                (MSVC): the import library; bin/sinew.pdb (MSVC), or
//!                                bin/sinew.dll.debug (MinGW: objcopy as on Linux)
//! lib/libsinew.a or lib/sinew.lib  the static library (debug info stripped)
//! lib/cmake/Sinew/               SinewConfig.cmake, SinewConfigVersion.cmake: find_package(Sinew)
//! lib/pkgconfig/                 sinew.pc (shared), sinew-static.pc
//! share/doc/sinew/               the licences
//! ```
//!
//! The SONAME is set on the installed copy, not by the build: a program linked against
//! `target/release/libsinew.so` (the README's plain `cargo build`, scripts/test-c.sh) must find
//! it by that name, and `target/release` has no `libsinew.so.0.1`. It is the ABI version: under
//! Cargo's rules a 0.x release breaks compatibility with each minor version, from 1.0 on with each
//! major one.
//!
//! Both libraries come from one `cargo build --release --lib` (the manifest's crate types are
//! cdylib, rlib and staticlib). The system libraries the static one needs are rustc's own list
//! for the target (`--print native-static-libs`, from an empty crate: Sinew's dependencies are
//! pure Rust and add none), written into the CMake and pkg-config files.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Options {
    pub prefix: PathBuf,
    /// None: the host's triple.
    pub target: Option<String>,
    pub strip: bool,
}

/// The file names of one platform's libraries.
struct Layout {
    /// The cdylib as cargo writes it, and where it goes under the prefix.
    shared_built: &'static str,
    shared_installed: String,
    /// Linux: the SONAME written into the installed library.
    soname: Option<String>,
    /// Links to the shared library (Linux: the SONAME and the development name).
    links: Vec<(String, String)>,
    /// The import library cargo writes beside a Windows DLL, if any.
    implib: Option<&'static str>,
    static_built: &'static str,
    static_installed: &'static str,
}

fn layout(target: &str, version: &str) -> Layout {
    if target.contains("windows") {
        let msvc = target.contains("msvc");
        Layout {
            shared_built: "sinew.dll",
            shared_installed: "bin/sinew.dll".into(),
            soname: None,
            links: Vec::new(),
            implib: Some(if msvc { "sinew.dll.lib" } else { "libsinew.dll.a" }),
            static_built: if msvc { "sinew.lib" } else { "libsinew.a" },
            static_installed: if msvc { "lib/sinew.lib" } else { "lib/libsinew.a" },
        }
    } else if target.contains("apple") {
        Layout {
            shared_built: "libsinew.dylib",
            shared_installed: "lib/libsinew.dylib".into(),
            soname: None,
            links: Vec::new(),
            implib: None,
            static_built: "libsinew.a",
            static_installed: "lib/libsinew.a",
        }
    } else {
        let soname = format!("libsinew.so.{}", abi_version(version));
        let real = format!("libsinew.so.{version}");
        Layout {
            shared_built: "libsinew.so",
            shared_installed: format!("lib/{real}"),
            links: vec![(format!("lib/{soname}"), real), ("lib/libsinew.so".into(), soname.clone())],
            soname: Some(soname),
            implib: None,
            static_built: "libsinew.a",
            static_installed: "lib/libsinew.a",
        }
    }
}

/// The SONAME's version: `0.MINOR` before 1.0, `MAJOR` after.
pub fn abi_version(version: &str) -> String {
    let mut parts = version.split('.');
    let major = parts.next().unwrap_or("0");
    let minor = parts.next().unwrap_or("0");
    if major == "0" { format!("0.{minor}") } else { major.to_string() }
}

pub fn install(root: &Path, options: &Options) -> Result<(), String> {
    let version = package_version(root)?;
    let target = match &options.target {
        Some(t) => t.clone(),
        None => host_triple()?,
    };
    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let built = match &options.target {
        Some(t) => target_dir.join(t).join("release"),
        None => target_dir.join("release"),
    };
    let target_args: Vec<String> = options.target.iter().flat_map(|t| ["--target".to_string(), t.clone()]).collect();

    // Both libraries: the manifest's cdylib and staticlib.
    run(cargo().args(["build", "--release", "--lib"]).args(&target_args).current_dir(root))?;
    let native = native_static_libs(&target_dir, options.target.as_deref())?;

    let lay = layout(&target, &version);
    let prefix = &options.prefix;
    for dir in ["include", "lib/cmake/Sinew", "lib/pkgconfig", "share/doc/sinew", "bin"] {
        fs::create_dir_all(prefix.join(dir)).map_err(|e| format!("could not create {}: {e}", prefix.join(dir).display()))?;
    }
    for header in ["sinew.h", "sinew.hpp"] {
        copy(&root.join("include").join(header), &prefix.join("include").join(header))?;
    }
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        copy(&root.join(licence), &prefix.join("share/doc/sinew").join(licence))?;
    }

    let shared_dst = prefix.join(&lay.shared_installed);
    let binutils = Binutils::for_target(&target);
    match (&binutils, options.strip) {
        (Some(tools), true) => tools.strip_with_debug_file(&built.join(lay.shared_built), &shared_dst)?,
        _ => copy(&built.join(lay.shared_built), &shared_dst)?,
    }
    if target.contains("apple") {
        // Untested here (no macOS host): the tool is Xcode's.
        let id = Command::new("install_name_tool").args(["-id", "@rpath/libsinew.dylib"]).arg(&shared_dst).status();
        if !id.is_ok_and(|s| s.success()) {
            eprintln!("xtask install: warning: install_name_tool -id @rpath/libsinew.dylib failed; the library keeps cargo's install name");
        }
    }
    if let Some(soname) = &lay.soname {
        run(Command::new("patchelf").args(["--set-soname", soname]).arg(&shared_dst))
            .map_err(|e| format!("{e}\n(the SONAME is set with patchelf: install it, e.g. apt-get install patchelf)"))?;
    }
    for (link, points_to) in &lay.links {
        link_or_copy(prefix, link, points_to)?;
    }
    // MSVC keeps the DLL's symbols apart already: ship them beside it.
    let pdb = built.join("sinew.pdb");
    if target.contains("msvc") && pdb.exists() {
        copy(&pdb, &prefix.join("bin/sinew.pdb"))?;
    }
    if let Some(implib) = lay.implib {
        copy(&built.join(implib), &prefix.join("lib").join(implib))?;
    }
    let static_dst = prefix.join(lay.static_installed);
    copy(&built.join(lay.static_built), &static_dst)?;
    if let (Some(tools), true) = (&binutils, options.strip) {
        // Best effort: MinGW's objcopy refuses the empty members of the windows-gnu archive,
        // which then stays as cargo wrote it.
        // Its own complaint is captured: a successful install printed an objcopy "error".
        let stripped = Command::new(&tools.objcopy).arg("--strip-debug").arg(&static_dst).output();
        if !stripped.as_ref().is_ok_and(|o| o.status.success()) {
            eprintln!("xtask install: note: objcopy could not strip the static library (MinGW's refuses its empty members); it keeps its debug info");
            copy(&built.join(lay.static_built), &static_dst)?;
        }
    }

    let cmake_libs = cmake_link_items(&native);
    let substitute = |template: &str| -> Result<String, String> {
        let text = fs::read_to_string(root.join("cmake").join(template)).map_err(|e| format!("could not read cmake/{template}: {e}"))?;
        Ok(text
            .replace("@SINEW_VERSION@", &version)
            .replace("@SINEW_ABI_VERSION@", &abi_version(&version))
            .replace("@SINEW_TARGET@", &target)
            .replace("@SINEW_STATIC_LIBS@", &cmake_libs.join(";"))
            .replace("@SINEW_NATIVE_STATIC_LIBS@", &native.join(" ")))
    };
    write(&prefix.join("lib/cmake/Sinew/SinewConfig.cmake"), &substitute("SinewConfig.cmake.in")?)?;
    write(&prefix.join("lib/cmake/Sinew/SinewConfigVersion.cmake"), &substitute("SinewConfigVersion.cmake.in")?)?;
    write(&prefix.join("lib/pkgconfig/sinew.pc"), &substitute("sinew.pc.in")?)?;
    write(
        &prefix.join("lib/pkgconfig/sinew-static.pc"),
        &substitute("sinew-static.pc.in")?.replace("@SINEW_STATIC_FILE@", lay.static_installed.trim_start_matches("lib/")),
    )?;
    println!("installed Sinew {version} for {target} into {}", prefix.display());
    println!("  shared: {}", lay.shared_installed);
    println!("  static: {} (needs: {})", lay.static_installed, native.join(" "));
    Ok(())
}

/// objcopy for the target's object format, when it is installed.
struct Binutils {
    objcopy: PathBuf,
}

impl Binutils {
    fn for_target(target: &str) -> Option<Binutils> {
        let candidates: &[&str] = if target.contains("windows-gnu") {
            &["x86_64-w64-mingw32-objcopy"]
        } else if target.contains("linux") && cfg!(target_os = "linux") {
            &["objcopy"]
        } else {
            // MSVC keeps its symbols in sinew.pdb already; macOS would use dsymutil and strip -x.
            &[]
        };
        candidates
            .iter()
            .find(|tool| Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success()))
            .map(|tool| Binutils { objcopy: PathBuf::from(tool) })
    }

    /// Writes `dst` without debug sections and `dst.debug` with only them, linked by
    /// .gnu_debuglink (its name and CRC).
    fn strip_with_debug_file(&self, src: &Path, dst: &Path) -> Result<(), String> {
        let mut debug = dst.as_os_str().to_owned();
        debug.push(".debug");
        let debug = PathBuf::from(debug);
        run(Command::new(&self.objcopy).arg("--only-keep-debug").arg(src).arg(&debug))?;
        run(Command::new(&self.objcopy)
            .args(["--strip-debug", "--strip-unneeded"])
            .arg(format!("--add-gnu-debuglink={}", debug.display()))
            .arg(src)
            .arg(dst))
    }
}

/// rustc's list of the system libraries a static library for `target` needs, from an empty
/// crate built in `scratch`.
fn native_static_libs(scratch: &Path, target: Option<&str>) -> Result<Vec<String>, String> {
    let dir = scratch.join("native-static-libs");
    fs::create_dir_all(&dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    write(&dir.join("probe.rs"), "")?;
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut command = Command::new(&rustc);
    command.args(["--crate-type", "staticlib", "--crate-name", "probe", "--print", "native-static-libs", "-o"]);
    command.arg(dir.join("probe.a")).arg(dir.join("probe.rs"));
    if let Some(t) = target {
        command.args(["--target", t]);
    }
    let output = command.output().map_err(|e| format!("could not run {rustc}: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("{rustc} --print native-static-libs failed:\n{stderr}"));
    }
    native_static_libs_note(&stderr).ok_or_else(|| format!("{rustc} printed no native-static-libs line:\n{stderr}"))
}

/// The libraries of rustc's `note: native-static-libs: -lgcc_s -lutil ...` line.
fn native_static_libs_note(stderr: &str) -> Option<Vec<String>> {
    let line = stderr.lines().find_map(|l| l.split_once("native-static-libs:").map(|(_, rest)| rest))?;
    Some(line.split_whitespace().map(str::to_string).collect())
}

/// rustc's list as CMake link items: `-lm` becomes `m`, `-framework X` one item, MSVC's
/// `X.lib` stays and its `/defaultlib:msvcrt` goes (CMake picks the C runtime itself).
fn cmake_link_items(native: &[String]) -> Vec<String> {
    let mut items = Vec::new();
    let mut words = native.iter();
    while let Some(word) = words.next() {
        if word == "-framework" {
            if let Some(name) = words.next() {
                items.push(format!("-framework {name}"));
            }
        } else if let Some(lib) = word.strip_prefix("-l") {
            if !items.iter().any(|i| i == lib) {
                items.push(lib.to_string());
            }
        } else if !word.starts_with("/defaultlib") {
            items.push(word.clone());
        }
    }
    items
}

pub(crate) fn package_version(root: &Path) -> Result<String, String> {
    let manifest = fs::read_to_string(root.join("Cargo.toml")).map_err(|e| format!("could not read Cargo.toml: {e}"))?;
    let package = manifest.split("[package]").nth(1).ok_or("Cargo.toml has no [package]")?;
    package
        .lines()
        .find_map(|l| l.trim().strip_prefix("version = \"").and_then(|v| v.strip_suffix('"')))
        .map(str::to_string)
        .ok_or_else(|| "Cargo.toml's [package] has no version".to_string())
}

pub(crate) fn host_triple() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc).arg("-vV").output().map_err(|e| format!("could not run {rustc}: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV printed no host".to_string())
}

fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

fn run(command: &mut Command) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("could not run {command:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{command:?} failed ({status})")) }
}

fn copy(src: &Path, dst: &Path) -> Result<(), String> {
    // A link left by an earlier install would be followed; replace it.
    let _ = fs::remove_file(dst);
    fs::copy(src, dst).map(|_| ()).map_err(|e| format!("could not copy {} to {}: {e}", src.display(), dst.display()))
}

fn write(dst: &Path, text: &str) -> Result<(), String> {
    fs::write(dst, text).map_err(|e| format!("could not write {}: {e}", dst.display()))
}

/// `prefix/link` pointing to `points_to` (a name in the same directory); a copy where links
/// cannot be made.
fn link_or_copy(prefix: &Path, link: &str, points_to: &str) -> Result<(), String> {
    let link = prefix.join(link);
    let _ = fs::remove_file(&link);
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(points_to, &link).map_err(|e| format!("could not link {}: {e}", link.display()))
    }
    #[cfg(not(unix))]
    {
        copy(&link.parent().expect("under the prefix").join(points_to), &link)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_abi_version_is_the_minor_before_one_and_the_major_after() {
        assert_eq!(abi_version("0.1.0"), "0.1");
        assert_eq!(abi_version("0.12.3"), "0.12");
        assert_eq!(abi_version("1.4.2"), "1");
    }

    #[test]
    fn rustc_libraries_become_cmake_items() {
        let linux: Vec<String> = "-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc".split(' ').map(String::from).collect();
        assert_eq!(cmake_link_items(&linux), ["gcc_s", "util", "rt", "pthread", "m", "dl", "c"]);
        let mac: Vec<String> = "-framework System -lc -lm".split(' ').map(String::from).collect();
        assert_eq!(cmake_link_items(&mac), ["-framework System", "c", "m"]);
        let msvc: Vec<String> = "kernel32.lib ntdll.lib /defaultlib:msvcrt".split(' ').map(String::from).collect();
        assert_eq!(cmake_link_items(&msvc), ["kernel32.lib", "ntdll.lib"]);
    }

    #[test]
    fn the_note_line_is_found_among_cargo_output() {
        let stderr = "note: link against the following native artifacts\nnote: native-static-libs: -lgcc_s -lc\n\n    Finished";
        assert_eq!(native_static_libs_note(stderr), Some(vec!["-lgcc_s".to_string(), "-lc".to_string()]));
        assert_eq!(native_static_libs_note("Finished"), None);
    }
}
