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
//!
//! Before building, it checks that the programs it runs afterwards are there (`needs`: patchelf,
//! objcopy) and stops naming their packages if not. The files are written into a temporary
//! directory and moved under DIR only when all are there (`Stage`): a failed install leaves no
//! DIR behind, or an existing one as it was.

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
    // Before the build: a missing tool fails here, not after minutes of compiling.
    let tools = Tools::find(&target, options.strip)?;
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
    let build = Build { built, target, version, native };
    // Dropped on an error: the staged files go, and the prefix stays as it was.
    let stage = Stage::new(&options.prefix)?;
    let untouched = |e: String| format!("{e}\nnothing was installed into {}", options.prefix.display());
    lay_out(root, &stage.tree(), &build, &lay, &tools).map_err(untouched)?;
    stage.commit().map_err(untouched)?;
    println!("installed Sinew {} for {} into {}", build.version, build.target, options.prefix.display());
    println!("  shared: {}", lay.shared_installed);
    println!("  static: {} (needs: {})", lay.static_installed, build.native.join(" "));
    Ok(())
}

/// What `cargo build` made and the facts the installed files record.
struct Build {
    /// cargo's output directory (`target/release` or `target/TRIPLE/release`).
    built: PathBuf,
    target: String,
    version: String,
    /// rustc's system libraries for the static library.
    native: Vec<String>,
}

/// Writes the package's files under `prefix` (the stage's tree, a new directory).
fn lay_out(root: &Path, prefix: &Path, build: &Build, lay: &Layout, tools: &Tools) -> Result<(), String> {
    let (built, target, version, native) = (&build.built, &build.target, &build.version, &build.native);
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
    match &tools.objcopy {
        Some(objcopy) => strip_with_debug_file(objcopy, &built.join(lay.shared_built), &shared_dst)?,
        None => copy(&built.join(lay.shared_built), &shared_dst)?,
    }
    if target.contains("apple") {
        // Untested here (no macOS host): the tool is Xcode's.
        let id = Command::new("install_name_tool").args(["-id", "@rpath/libsinew.dylib"]).arg(&shared_dst).status();
        if !id.is_ok_and(|s| s.success()) {
            eprintln!("xtask install: warning: install_name_tool -id @rpath/libsinew.dylib failed; the library keeps cargo's install name");
        }
    }
    if let (Some(soname), Some(patchelf)) = (&lay.soname, &tools.patchelf) {
        run(Command::new(patchelf).args(["--set-soname", soname]).arg(&shared_dst))?;
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
    if let Some(objcopy) = &tools.objcopy {
        // Best effort: MinGW's objcopy refuses the empty members of the windows-gnu archive,
        // which then stays as cargo wrote it.
        // Its own complaint is captured: a successful install printed an objcopy "error".
        let stripped = Command::new(objcopy).arg("--strip-debug").arg(&static_dst).output();
        if !stripped.as_ref().is_ok_and(|o| o.status.success()) {
            eprintln!("xtask install: note: objcopy could not strip the static library (MinGW's refuses its empty members); it keeps its debug info");
            copy(&built.join(lay.static_built), &static_dst)?;
        }
    }

    let cmake_libs = cmake_link_items(native);
    let substitute = |template: &str| -> Result<String, String> {
        let text = fs::read_to_string(root.join("cmake").join(template)).map_err(|e| format!("could not read cmake/{template}: {e}"))?;
        Ok(text
            .replace("@SINEW_VERSION@", version)
            .replace("@SINEW_ABI_VERSION@", &abi_version(version))
            .replace("@SINEW_TARGET@", target)
            .replace("@SINEW_STATIC_LIBS@", &cmake_libs.join(";"))
            .replace("@SINEW_NATIVE_STATIC_LIBS@", &native.join(" ")))
    };
    write(&prefix.join("lib/cmake/Sinew/SinewConfig.cmake"), &substitute("SinewConfig.cmake.in")?)?;
    write(&prefix.join("lib/cmake/Sinew/SinewConfigVersion.cmake"), &substitute("SinewConfigVersion.cmake.in")?)?;
    write(&prefix.join("lib/pkgconfig/sinew.pc"), &substitute("sinew.pc.in")?)?;
    write(
        &prefix.join("lib/pkgconfig/sinew-static.pc"),
        &substitute("sinew-static.pc.in")?.replace("@SINEW_STATIC_FILE@", lay.static_installed.trim_start_matches("lib/")),
    )
}

/// A program `install` runs after the build, and where to get it.
struct Need {
    program: &'static str,
    /// The Debian/Ubuntu package that has it.
    apt: &'static str,
    /// What it does here, for the message when it is missing.
    purpose: &'static str,
}

/// The programs `install` runs for `target`: patchelf for an ELF library's SONAME, and when
/// stripping, the objcopy of the target's object format.
fn needs(target: &str, strip: bool) -> Vec<Need> {
    let mut needs = Vec::new();
    if strip && target.contains("windows-gnu") {
        needs.push(Need {
            program: "x86_64-w64-mingw32-objcopy",
            apt: "binutils-mingw-w64-x86-64",
            purpose: "moves sinew.dll's debug info into sinew.dll.debug (or pass --no-strip)",
        });
    }
    // MSVC keeps its symbols in sinew.pdb already; macOS would use dsymutil and strip -x. A
    // Linux library built on another OS stays as it is.
    if strip && target.contains("linux") && cfg!(target_os = "linux") {
        needs.push(Need {
            program: "objcopy",
            apt: "binutils",
            purpose: "moves the library's debug info into a .debug file beside it (or pass --no-strip)",
        });
    }
    if !target.contains("windows") && !target.contains("apple") {
        needs.push(Need {
            program: "patchelf",
            apt: "patchelf",
            purpose: "writes the installed library's SONAME (cargo's copy has none)",
        });
    }
    needs
}

/// The programs of `needs`, found on PATH.
struct Tools {
    /// None: nothing is stripped.
    objcopy: Option<PathBuf>,
    /// None: the target's library has no SONAME.
    patchelf: Option<PathBuf>,
}

impl Tools {
    /// Fails, naming every missing program and its package, when one of `needs` does not run.
    fn find(target: &str, strip: bool) -> Result<Tools, String> {
        let needs = needs(target, strip);
        let runs = |program: &str| Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success());
        let missing: Vec<&Need> = needs.iter().filter(|n| !runs(n.program)).collect();
        if !missing.is_empty() {
            let mut message = format!("nothing was built or installed: the install for {target} needs");
            for n in missing {
                message += &format!("\n  {}, which {}. Install it: apt-get install {}", n.program, n.purpose, n.apt);
            }
            return Err(message);
        }
        let program = |suffix: &str| needs.iter().find(|n| n.program.ends_with(suffix)).map(|n| PathBuf::from(n.program));
        Ok(Tools { objcopy: program("objcopy"), patchelf: program("patchelf") })
    }
}

/// Checks the programs an install for `target` runs (see `install`), without building.
pub fn check_tools(target: &str, strip: bool) -> Result<(), String> {
    Tools::find(target, strip).map(|_| ())
}

/// Writes `dst` without debug sections and `dst.debug` with only them, linked by
/// .gnu_debuglink (its file name and CRC).
fn strip_with_debug_file(objcopy: &Path, src: &Path, dst: &Path) -> Result<(), String> {
    let mut debug = dst.as_os_str().to_owned();
    debug.push(".debug");
    let debug = PathBuf::from(debug);
    run(Command::new(objcopy).arg("--only-keep-debug").arg(src).arg(&debug))?;
    run(Command::new(objcopy)
        .args(["--strip-debug", "--strip-unneeded"])
        .arg(format!("--add-gnu-debuglink={}", debug.display()))
        .arg(src)
        .arg(dst))
}

/// The install's files, written into a temporary directory and moved under the prefix only
/// once all of them are there, so that a failure leaves the prefix as it was.
///
/// The directory is beside a new prefix (renamed to it at the end; the prefix's missing parents
/// are made for it and removed again on failure), and inside an existing one, whose parent
/// (/usr for /usr/local) may not be writable: there each file is renamed into place, the file it
/// replaces kept aside until all are in place, and put back if one cannot be.
struct Stage {
    prefix: PathBuf,
    /// The temporary directory: `tree/` holds the files as they go under the prefix, `replaced/`
    /// the files of an existing prefix they replace.
    dir: PathBuf,
    /// Whether the prefix existed (the files are merged into it) or not (`tree/` becomes it).
    existing: bool,
    /// The prefix's parents made to hold `dir`, outermost first.
    made: Vec<PathBuf>,
    committed: bool,
}

impl Stage {
    fn new(prefix: &Path) -> Result<Stage, String> {
        let existing = match fs::metadata(prefix) {
            Ok(meta) if meta.is_dir() => true,
            Ok(_) => return Err(format!("{} exists and is not a directory", prefix.display())),
            Err(_) => false,
        };
        let name = prefix.file_name().ok_or_else(|| format!("{} names no directory", prefix.display()))?;
        let temp = format!(".{}.sinew-install-{}", name.to_string_lossy(), std::process::id());
        let mut stage = Stage { prefix: prefix.to_path_buf(), dir: PathBuf::new(), existing, made: Vec::new(), committed: false };
        stage.dir = if existing {
            prefix.join(temp)
        } else {
            let parent = prefix.parent().ok_or_else(|| format!("{} has no parent directory", prefix.display()))?;
            make_dirs(parent, &mut stage.made)?;
            parent.join(temp)
        };
        // Left by an earlier run of the same process id that was killed.
        let _ = fs::remove_dir_all(&stage.dir);
        fs::create_dir(&stage.dir).map_err(|e| format!("could not create {}: {e}", stage.dir.display()))?;
        fs::create_dir(stage.tree()).map_err(|e| format!("could not create {}: {e}", stage.tree().display()))?;
        Ok(stage)
    }

    /// Where the files are written, laid out as under the prefix.
    fn tree(&self) -> PathBuf {
        self.dir.join("tree")
    }

    fn commit(mut self) -> Result<(), String> {
        if self.existing {
            merge(&self.tree(), &self.prefix, &self.dir.join("replaced"))?;
        } else {
            fs::rename(self.tree(), &self.prefix)
                .map_err(|e| format!("could not move {} to {}: {e}", self.tree().display(), self.prefix.display()))?;
        }
        self.committed = true;
        Ok(())
    }
}

impl Drop for Stage {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
        if !self.committed {
            for dir in self.made.iter().rev() {
                let _ = fs::remove_dir(dir);
            }
        }
    }
}

/// Creates `dir` and its missing parents, appending each one made to `made` (outermost first).
fn make_dirs(dir: &Path, made: &mut Vec<PathBuf>) -> Result<(), String> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent() {
        make_dirs(parent, made)?;
    }
    fs::create_dir(dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
    made.push(dir.to_path_buf());
    Ok(())
}

/// One step of `merge`, undone in reverse order when a later one fails.
enum Step {
    MadeDir(PathBuf),
    /// A file moved to `dst`; `kept` holds the file it replaced.
    Moved { dst: PathBuf, kept: Option<PathBuf> },
}

/// Moves every file and link under `tree` to the same place under `prefix`, the files they
/// replace into `replaced`; on failure, puts everything back as it was.
fn merge(tree: &Path, prefix: &Path, replaced: &Path) -> Result<(), String> {
    let mut files = Vec::new();
    files_under(tree, Path::new(""), &mut files)?;
    let mut steps = Vec::new();
    let result = files.iter().try_for_each(|rel| merge_one(&tree.join(rel), &prefix.join(rel), &replaced.join(rel), &mut steps));
    if result.is_err() {
        for step in steps.iter().rev() {
            match step {
                Step::MadeDir(dir) => {
                    let _ = fs::remove_dir(dir);
                }
                Step::Moved { dst, kept } => {
                    let _ = fs::remove_file(dst);
                    if let Some(kept) = kept {
                        let _ = fs::rename(kept, dst);
                    }
                }
            }
        }
    }
    result
}

/// Moves `src` to `dst`, the file at `dst` (if any) to `aside` first; records what it did.
fn merge_one(src: &Path, dst: &Path, aside: &Path, steps: &mut Vec<Step>) -> Result<(), String> {
    let mut made = Vec::new();
    let made_dirs = make_dirs(dst.parent().expect("under the prefix"), &mut made);
    steps.extend(made.into_iter().map(Step::MadeDir));
    made_dirs?;
    let kept = match fs::symlink_metadata(dst) {
        Ok(meta) if meta.is_dir() => return Err(format!("{} is a directory; the install puts a file there", dst.display())),
        Ok(_) => {
            fs::create_dir_all(aside.parent().expect("a parent"))
                .and_then(|()| fs::rename(dst, aside))
                .map_err(|e| format!("could not move {} aside: {e}", dst.display()))?;
            Some(aside.to_path_buf())
        }
        Err(_) => None,
    };
    if let Err(e) = fs::rename(src, dst) {
        if let Some(kept) = &kept {
            let _ = fs::rename(kept, dst);
        }
        return Err(format!("could not move {} to {}: {e}", src.display(), dst.display()));
    }
    steps.push(Step::Moved { dst: dst.to_path_buf(), kept });
    Ok(())
}

/// The files and links under `base/rel` (links not followed), as paths relative to `base`, sorted.
fn files_under(base: &Path, rel: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let dir = base.join(rel);
    let mut entries: Vec<fs::DirEntry> = fs::read_dir(&dir)
        .and_then(|entries| entries.collect())
        .map_err(|e| format!("could not list {}: {e}", dir.display()))?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let rel = rel.join(entry.file_name());
        if entry.file_type().map_err(|e| format!("{}: {e}", entry.path().display()))?.is_dir() {
            files_under(base, &rel, files)?;
        } else {
            files.push(rel);
        }
    }
    Ok(())
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

    /// A fresh directory under the system's temporary one, for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Every file, link and directory under `dir` with its contents or target, sorted.
    fn snapshot(dir: &Path) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in fs::read_dir(&d).unwrap() {
                let path = entry.unwrap().path();
                let rel = path.strip_prefix(dir).unwrap().display().to_string();
                let meta = fs::symlink_metadata(&path).unwrap();
                if meta.is_symlink() {
                    out.push(format!("{rel} -> {}", fs::read_link(&path).unwrap().display()));
                } else if meta.is_dir() {
                    out.push(format!("{rel}/"));
                    stack.push(path);
                } else {
                    out.push(format!("{rel}: {}", fs::read_to_string(&path).unwrap()));
                }
            }
        }
        out.sort();
        out
    }

    fn put(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    /// The staged files an install would move: a header, a library and its link, a licence.
    fn stage_files(tree: &Path) {
        put(&tree.join("include/sinew.h"), "new header");
        put(&tree.join("lib/libsinew.so.0.1.0"), "new library");
        #[cfg(unix)]
        std::os::unix::fs::symlink("libsinew.so.0.1.0", tree.join("lib/libsinew.so.0.1")).unwrap();
        put(&tree.join("share/doc/sinew/LICENSE-MIT"), "licence");
    }

    #[test]
    fn a_new_prefix_appears_whole_on_commit() {
        let dir = scratch("stage-new");
        let prefix = dir.join("a/b/prefix");
        let stage = Stage::new(&prefix).unwrap();
        stage_files(&stage.tree());
        assert!(!prefix.exists(), "nothing under the prefix before the commit");
        stage.commit().unwrap();
        let mut expected = vec!["include/", "include/sinew.h: new header", "lib/", "lib/libsinew.so.0.1.0: new library", "share/", "share/doc/", "share/doc/sinew/", "share/doc/sinew/LICENSE-MIT: licence"];
        if cfg!(unix) {
            expected.push("lib/libsinew.so.0.1 -> libsinew.so.0.1.0");
            expected.sort();
        }
        assert_eq!(snapshot(&prefix), expected);
        let beside: Vec<_> = fs::read_dir(dir.join("a/b")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(beside, ["prefix"], "the stage is gone");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failed_install_into_a_new_prefix_leaves_nothing() {
        let dir = scratch("stage-dropped");
        let prefix = dir.join("a/b/prefix");
        {
            let stage = Stage::new(&prefix).unwrap();
            stage_files(&stage.tree());
            assert!(dir.join("a/b").is_dir());
            // An error before commit drops the stage.
        }
        assert_eq!(snapshot(&dir), Vec::<String>::new(), "neither the prefix, its parents made for it, nor the stage remain");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_install_into_an_existing_prefix_replaces_its_files_and_keeps_the_others() {
        let dir = scratch("stage-merge");
        let prefix = dir.join("prefix");
        put(&prefix.join("include/sinew.h"), "old header");
        put(&prefix.join("include/other.h"), "someone else's");
        let stage = Stage::new(&prefix).unwrap();
        stage_files(&stage.tree());
        assert_eq!(fs::read_to_string(prefix.join("include/sinew.h")).unwrap(), "old header", "nothing replaced before the commit");
        stage.commit().unwrap();
        let after = snapshot(&prefix);
        assert!(after.contains(&"include/sinew.h: new header".to_string()), "{after:?}");
        assert!(after.contains(&"include/other.h: someone else's".to_string()), "{after:?}");
        assert!(after.contains(&"share/doc/sinew/LICENSE-MIT: licence".to_string()), "{after:?}");
        assert!(after.iter().all(|e| !e.contains("sinew-install")), "the stage is gone: {after:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_merge_that_fails_halfway_puts_the_prefix_back() {
        let dir = scratch("stage-rollback");
        let prefix = dir.join("prefix");
        put(&prefix.join("include/sinew.h"), "old header");
        // The last file in order cannot be placed: a directory is where it goes.
        put(&prefix.join("share/doc/sinew/LICENSE-MIT/keep"), "a directory's file");
        let before = snapshot(&prefix);
        let stage = Stage::new(&prefix).unwrap();
        stage_files(&stage.tree());
        let error = stage.commit().unwrap_err();
        assert!(error.contains("LICENSE-MIT is a directory"), "{error}");
        // The header was replaced and lib/ made before the failure: both undone.
        assert_eq!(snapshot(&prefix), before);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_tools_are_named_with_their_packages() {
        let linux = needs("x86_64-unknown-linux-gnu", true);
        let names: Vec<(&str, &str)> = linux.iter().map(|n| (n.program, n.apt)).collect();
        if cfg!(target_os = "linux") {
            assert_eq!(names, [("objcopy", "binutils"), ("patchelf", "patchelf")]);
        }
        let unstripped: Vec<&str> = needs("x86_64-unknown-linux-gnu", false).iter().map(|n| n.program).collect();
        assert_eq!(unstripped, ["patchelf"]);
        let mingw: Vec<&str> = needs("x86_64-pc-windows-gnu", true).iter().map(|n| n.program).collect();
        assert_eq!(mingw, ["x86_64-w64-mingw32-objcopy"]);
        assert!(needs("x86_64-pc-windows-msvc", true).is_empty());
        assert!(needs("aarch64-apple-darwin", true).is_empty());
    }

    #[test]
    fn the_note_line_is_found_among_cargo_output() {
        let stderr = "note: link against the following native artifacts\nnote: native-static-libs: -lgcc_s -lc\n\n    Finished";
        assert_eq!(native_static_libs_note(stderr), Some(vec!["-lgcc_s".to_string(), "-lc".to_string()]));
        assert_eq!(native_static_libs_note("Finished"), None);
    }
}
