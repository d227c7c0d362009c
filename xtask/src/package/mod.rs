//! `cargo run -p xtask -- package [--out DIR] [--no-windows] [--macos] [--url BASE] [--sources-only]`:
//! the release artefacts, on any OS that runs cargo.
//!
//! ```text
//! DIR/com.sinew.physics-<version>.tgz        the Unity package (UPM tarball: a top-level
//!                                            package/ directory; "Add package from tarball...")
//! DIR/sinew-<version>-<triple>.tar.gz        per target: `xtask install`'s tree (headers, shared
//!                                            and static libraries, CMake and pkg-config files)
//!                                            under sinew-<version>-<triple>/
//! DIR/sinew-<version>-<triple>.zip           the same tree as a zip, for Windows targets
//! ```
//! DIR defaults to `package/` in cargo's target directory. Targets: the host always;
//! x86_64-pc-windows-gnu as well when its rustup target and MinGW (x86_64-w64-mingw32-gcc) are
//! present, unless `--no-windows`; with `--macos`, a universal libsinew.dylib (x86_64 + arm64)
//! through `cargo zigbuild` (on PATH) for the Unity package only.
//!
//! The Unity package is unity-sample/Packages/com.sinew.physics, filled first with what is
//! built rather than committed (the sample project then opens with the same files):
//! Runtime/Wrapper/ (copies of bindings/csharp), Documentation~/ (docs/unity.md), LICENSE.md
//! (the two licences), the native plugins and every plugin's .meta with its fixed GUID and
//! import settings. GUIDs of generated files are md5 of the package-relative path, so they are
//! the same on every machine. `--sources-only` does that filling without building (tests).
//! `--url BASE` writes documentationUrl, changelogUrl and licensesUrl into the tarball's
//! package.json, under BASE (the repository's web address at the release's tag); the committed
//! package.json has no URL because the repository has no public address of its own yet.

pub mod links;
pub mod tar;
pub mod zip;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::install;

pub const PACKAGE: &str = "unity-sample/Packages/com.sinew.physics";
const WINDOWS_GNU: &str = "x86_64-pc-windows-gnu";

pub struct Options {
    pub out: PathBuf,
    pub windows: bool,
    pub macos: bool,
    pub url: Option<String>,
    pub sources_only: bool,
}

/// A native plugin of the Unity package: where it goes and how Unity imports it.
struct Plugin {
    path: &'static str,
    guid: &'static str,
    /// The editor and standalone platform it is enabled for, Unity's names.
    editor_os: &'static str,
    cpu: &'static str,
    standalone: &'static str,
}

const PLUGINS: [Plugin; 3] = [
    Plugin {
        path: "Runtime/Plugins/Linux/x86_64/libsinew.so",
        guid: "748a128952d6d3ce8f192389e4d3d551",
        editor_os: "Linux",
        cpu: "x86_64",
        standalone: "Linux64",
    },
    Plugin {
        path: "Runtime/Plugins/Windows/x86_64/sinew.dll",
        guid: "7d705ca3f315d8ffac4132836c5dc912",
        editor_os: "Windows",
        cpu: "x86_64",
        standalone: "Win64",
    },
    Plugin {
        path: "Runtime/Plugins/macOS/libsinew.dylib",
        guid: "8927e6ae237e97d9f160a5beedf423e8",
        editor_os: "OSX",
        cpu: "AnyCPU",
        standalone: "OSXUniversal",
    },
];

/// Unity's PluginImporter settings for one plugin: enabled in the editor and one standalone
/// platform, excluded from the others.
fn plugin_meta(p: &Plugin) -> String {
    let mut s = format!(
        "fileFormatVersion: 2\nguid: {}\nPluginImporter:\n  externalObjects: {{}}\n  serializedVersion: 2\n  iconMap: {{}}\n  \
         executionOrder: {{}}\n  defineConstraints: []\n  isPreloaded: 0\n  isOverridable: 0\n  isExplicitlyReferenced: 0\n  \
         validateReferences: 1\n  platformData:\n  - first:\n      : Any\n    second:\n      enabled: 0\n      settings:\n        \
         Exclude Editor: 0\n",
        p.guid
    );
    let standalones = ["Linux64", "OSXUniversal", "Win", "Win64"];
    for s2 in standalones {
        s += &format!("        Exclude {s2}: {}\n", u8::from(s2 != p.standalone));
    }
    s += &format!(
        "  - first:\n      Any: \n    second:\n      enabled: 0\n      settings: {{}}\n  - first:\n      Editor: Editor\n    \
         second:\n      enabled: 1\n      settings:\n        CPU: {}\n        DefaultValueInitialized: true\n        OS: {}\n",
        p.cpu, p.editor_os
    );
    for s2 in standalones {
        let on = s2 == p.standalone;
        s += &format!(
            "  - first:\n      Standalone: {s2}\n    second:\n      enabled: {}\n      settings:\n        CPU: {}\n",
            u8::from(on),
            if on { p.cpu } else { "None" }
        );
    }
    s + "  userData: \n  assetBundleName: \n  assetBundleVariant: \n"
}

/// Which plugin a target's shared library becomes, if any.
fn plugin_for(triple: &str) -> Option<&'static Plugin> {
    if triple.starts_with("x86_64") && triple.contains("linux") {
        Some(&PLUGINS[0])
    } else if triple.starts_with("x86_64") && triple.contains("windows") {
        Some(&PLUGINS[1])
    } else if triple.contains("apple-darwin") {
        Some(&PLUGINS[2])
    } else {
        None
    }
}

/// A GUID that does not change between machines or runs.
pub fn guid_for(package_relative: &str) -> String {
    format!("{:x}", md5::compute(format!("com.sinew.physics/{package_relative}")))
}

fn script_meta(guid: &str) -> String {
    format!(
        "fileFormatVersion: 2\nguid: {guid}\nMonoImporter:\n  externalObjects: {{}}\n  serializedVersion: 2\n  \
         defaultReferences: []\n  executionOrder: 0\n  icon: {{instanceID: 0}}\n  userData: \n  assetBundleName: \n  \
         assetBundleVariant: \n"
    )
}

fn text_meta(guid: &str) -> String {
    format!("fileFormatVersion: 2\nguid: {guid}\nTextScriptImporter:\n  externalObjects: {{}}\n  userData: \n  assetBundleName: \n  assetBundleVariant: \n")
}

pub fn package(root: &Path, options: &Options) -> Result<(), String> {
    let pkg = root.join(PACKAGE);
    fill_sources(root, &pkg)?;
    if options.sources_only {
        return Ok(());
    }
    check_abi(root)?;
    let version = install::package_version(root)?;
    let out = &options.out;
    let stage = out.join("stage");
    let _ = fs::remove_dir_all(&stage);
    mkdir(&stage)?;

    let host = install::host_triple()?;
    let mut targets = vec![(host.clone(), None)];
    if options.windows && !host.contains("windows") {
        match windows_toolchain() {
            Ok(()) => targets.push((WINDOWS_GNU.to_string(), Some(WINDOWS_GNU.to_string()))),
            Err(why) => println!("package: no Windows build ({why})"),
        }
    }
    // Every target's tools before the first build (`install` checks its own again).
    for (triple, _) in &targets {
        install::check_tools(triple, true)?;
    }
    let mut built_plugins = Vec::new();
    let mut archives = Vec::new();
    for (triple, target) in &targets {
        let name = format!("sinew-{version}-{triple}");
        let prefix = stage.join(&name);
        install::install(root, &install::Options { prefix: prefix.clone(), target: target.clone(), strip: true })?;
        let archive = out.join(format!("{name}.tar.gz"));
        write_tar_gz(&archive, &prefix, &name)?;
        archives.push(archive);
        if triple.contains("windows") {
            let archive = out.join(format!("{name}.zip"));
            write_zip(&archive, &prefix, &name)?;
            archives.push(archive);
        }
        if let Some(plugin) = plugin_for(triple) {
            let shared = installed_shared(&prefix, triple, &version);
            copy(&shared, &pkg.join(plugin.path))?;
            built_plugins.push(plugin.path);
        }
    }
    if options.macos {
        let dylib = build_macos(root)?;
        copy(&dylib, &pkg.join(PLUGINS[2].path))?;
        built_plugins.push(PLUGINS[2].path);
    }
    for plugin in &PLUGINS {
        let meta = pkg.join(format!("{}.meta", plugin.path));
        mkdir(meta.parent().expect("a plugin folder"))?;
        write(&meta, plugin_meta(plugin).as_bytes())?;
        // Built by an earlier run from older sources, it could implement another ABI version.
        let binary = pkg.join(plugin.path);
        if !built_plugins.contains(&plugin.path) && binary.exists() {
            fs::remove_file(&binary).map_err(|e| format!("could not remove {}: {e}", binary.display()))?;
            println!("package: removed {} of an earlier run (not built this time)", plugin.path);
        }
    }

    let manifest = package_json(&pkg, &version, options.url.as_deref())?;
    let tgz = out.join(format!("com.sinew.physics-{version}.tgz"));
    // package.json as given. A plugin's .meta (and its folder's) without the
    // library would make Unity warn on every import of the immutable package: append_tree
    // leaves out every .meta whose asset is not in the archive.
    write_upm(&tgz, &pkg, &manifest)?;

    println!("\npackage: {}", tgz.display());
    for plugin in &built_plugins {
        let size = fs::metadata(pkg.join(plugin)).map(|m| m.len()).unwrap_or(0);
        println!("  {plugin:<46} {size:>9} bytes");
    }
    for archive in &archives {
        println!("package: {}", archive.display());
    }
    Ok(())
}

/// The library as `install` laid it out: the real file, not a link.
fn installed_shared(prefix: &Path, triple: &str, version: &str) -> PathBuf {
    if triple.contains("windows") {
        prefix.join("bin/sinew.dll")
    } else if triple.contains("apple") {
        prefix.join("lib/libsinew.dylib")
    } else {
        prefix.join(format!("lib/libsinew.so.{version}"))
    }
}

fn windows_toolchain() -> Result<(), String> {
    let installed = Command::new("rustup").args(["target", "list", "--installed"]).output();
    match installed {
        Ok(out) if String::from_utf8_lossy(&out.stdout).lines().any(|l| l.trim() == WINDOWS_GNU) => {}
        _ => return Err(format!("rustup target {WINDOWS_GNU} not installed: rustup target add {WINDOWS_GNU}")),
    }
    match Command::new("x86_64-w64-mingw32-gcc").arg("--version").output() {
        Ok(out) if out.status.success() => Ok(()),
        _ => Err("x86_64-w64-mingw32-gcc not found: install MinGW-w64".into()),
    }
}

/// A universal (x86_64 + arm64) libsinew.dylib with cargo-zigbuild: zig links against its own
/// macOS stubs, so this runs without an Apple SDK. Not run on a Mac.
fn build_macos(root: &Path) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["zigbuild", "--release", "--lib", "--target", "universal2-apple-darwin"])
        .current_dir(root)
        .status()
        .map_err(|e| format!("could not run cargo zigbuild: {e}"))?;
    if !status.success() {
        return Err("cargo zigbuild --target universal2-apple-darwin failed (is cargo-zigbuild on PATH?)".into());
    }
    let target_dir = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    Ok(target_dir.join("universal2-apple-darwin/release/libsinew.dylib"))
}

/// What the package holds that is not committed: the wrapper copies, the documentation and
/// the licence, each generated file with a .meta of a fixed GUID.
fn fill_sources(root: &Path, pkg: &Path) -> Result<(), String> {
    let dest = pkg.join("Runtime/Wrapper");
    mkdir(&dest)?;
    for entry in read_dir(&dest)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".cs") || name.ends_with(".cs.meta") {
            fs::remove_file(entry.path()).map_err(|e| format!("could not remove {}: {e}", entry.path().display()))?;
        }
    }
    let mut names: Vec<String> = Vec::new();
    for dir in ["bindings/csharp", "bindings/csharp/Unity"] {
        let mut files: Vec<PathBuf> = read_dir(&root.join(dir))?
            .into_iter()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "cs"))
            .collect();
        files.sort();
        for f in files {
            let name = f.file_name().expect("a file name").to_string_lossy().into_owned();
            if names.contains(&name) {
                return Err(format!("two wrapper files are named {name}; Runtime/Wrapper is flat"));
            }
            copy(&f, &dest.join(&name))?;
            write(&dest.join(format!("{name}.meta")), script_meta(&guid_for(&format!("Runtime/Wrapper/{name}"))).as_bytes())?;
            names.push(name);
        }
    }
    println!("package: wrapper: {} files from bindings/csharp -> {PACKAGE}/Runtime/Wrapper", names.len());

    // Documentation~ and other folders ending in ~ are not imported by Unity: no .meta.
    // The manual and the pages it links, with the pictures each shows (`](name.png)`,
    // beside it in docs/); every link in them must resolve inside the package (checked below).
    let docs = pkg.join("Documentation~");
    if docs.exists() {
        fs::remove_dir_all(&docs).map_err(|e| format!("could not empty {}: {e}", docs.display()))?;
    }
    mkdir(&docs)?;
    for (source, name) in MANUAL {
        let page = read_text(&root.join("docs").join(source))?;
        copy(&root.join("docs").join(source), &docs.join(name))?;
        for picture in local_images(&page) {
            copy(&root.join("docs").join(&picture), &docs.join(&picture))?;
        }
    }

    let mut licence = String::from(
        "# License\n\nSinew is licensed under either of the MIT license or the Apache License, Version 2.0, at your option \
         (SPDX: `MIT OR Apache-2.0`). Both texts follow.\n\n## MIT\n\n",
    );
    licence += &read_text(&root.join("LICENSE-MIT"))?;
    licence += "\n## Apache-2.0\n\n";
    licence += &read_text(&root.join("LICENSE-APACHE"))?;
    write(&pkg.join("LICENSE.md"), licence.as_bytes())?;
    write(&pkg.join("LICENSE.md.meta"), text_meta(&guid_for("LICENSE.md")).as_bytes())?;
    check_pages(pkg)
}

/// The package's manual: docs/unity.md under the name Unity's Package Manager opens, and the
/// pages it links, under their own names (so its links keep working).
const MANUAL: [(&str, &str); 3] = [("unity.md", "com.sinew.physics.md"), ("materials.md", "materials.md"), ("conventions.md", "conventions.md")];

/// Every Markdown page of the package links only to what the package holds (its heading
/// anchors included), and its README names every component and sample.
fn check_pages(pkg: &Path) -> Result<(), String> {
    let mut pages = Vec::new();
    links::markdown_files(pkg, &mut pages)?;
    links::markdown_files(&pkg.join("Documentation~"), &mut pages)?;
    pages.sort();
    let mut problems = links::broken_links_in(&pages, pkg)?;
    problems.extend(links::unlisted(pkg)?);
    if problems.is_empty() {
        println!("package: every link of the package's pages resolves inside it; its README lists every component and sample");
        return Ok(());
    }
    // docs/unity.md is the manual's source: a link it makes is fixed there.
    Err(format!("the package's pages need fixing (Documentation~/com.sinew.physics.md is docs/unity.md):\n  {}", problems.join("\n  ")))
}

/// The file names of the images a Markdown text links beside itself: `](name.png)` with no
/// folder and no scheme, in order of appearance, each once.
fn local_images(markdown: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for piece in markdown.split("](").skip(1) {
        let Some(target) = piece.split(')').next() else { continue };
        let image = [".png", ".jpg", ".gif", ".svg"].iter().any(|x| target.ends_with(x));
        if image && !target.contains('/') && !target.contains(':') && !names.iter().any(|n| n == target) {
            names.push(target.to_string());
        }
    }
    names
}

/// A package whose wrapper expects another ABI version than the library would refuse to load
/// its own library (SinewLoadException).
fn check_abi(root: &Path) -> Result<(), String> {
    let header = read_text(&root.join("include/sinew.h"))?;
    let wrapper = read_text(&root.join("bindings/csharp/SinewLibrary.cs"))?;
    let header_abi = header.lines().find_map(|l| l.strip_prefix("#define SINEW_ABI_VERSION ")).map(|v| v.split_whitespace().next().unwrap_or("").to_string());
    let wrapper_abi = wrapper
        .lines()
        .find_map(|l| l.split("const uint ExpectedAbiVersion = ").nth(1))
        .map(|v| v.trim_end_matches(|c: char| !c.is_ascii_digit()).to_string());
    match (header_abi, wrapper_abi) {
        (Some(h), Some(w)) if h == w => Ok(()),
        (h, w) => Err(format!(
            "include/sinew.h has SINEW_ABI_VERSION {h:?} but bindings/csharp/SinewLibrary.cs expects {w:?}: the package's \
             wrapper would refuse this library. Update the wrapper first."
        )),
    }
}

/// package.json as the tarball has it: the committed one, its version checked against
/// Cargo.toml's, with the URLs under `url` added.
fn package_json(pkg: &Path, version: &str, url: Option<&str>) -> Result<String, String> {
    let text = read_text(&pkg.join("package.json"))?;
    let declared = format!("\"version\": \"{version}\"");
    if !text.contains(&declared) {
        return Err(format!("{PACKAGE}/package.json does not say {declared} (Cargo.toml's version)"));
    }
    let Some(base) = url else { return Ok(text) };
    let base = base.trim_end_matches('/');
    let urls = format!(
        "    \"documentationUrl\": \"{base}/docs/unity.md\",\n    \"changelogUrl\": \"{base}/{PACKAGE}/CHANGELOG.md\",\n    \
         \"licensesUrl\": \"{base}/{PACKAGE}/LICENSE.md\",\n"
    );
    let at = text.find("    \"keywords\"").ok_or("package.json has no \"keywords\" to put the URLs before")?;
    Ok(format!("{}{urls}{}", &text[..at], &text[at..]))
}

/// The UPM tarball: every file of the package under package/, package.json as given.
fn write_upm(tgz: &Path, pkg: &Path, manifest: &str) -> Result<(), String> {
    let file = fs::File::create(tgz).map_err(|e| format!("could not create {}: {e}", tgz.display()))?;
    let gz = flate2::write::GzEncoder::new(file, flate2::Compression::best());
    let mut w = tar::Writer::new(gz);
    append_tree(&mut w, pkg, "package", Some(("package.json", manifest.as_bytes())))?;
    w.finish().and_then(|gz| gz.finish()).map_err(|e| format!("could not write {}: {e}", tgz.display()))?;
    Ok(())
}

fn write_tar_gz(archive: &Path, dir: &Path, top: &str) -> Result<(), String> {
    let file = fs::File::create(archive).map_err(|e| format!("could not create {}: {e}", archive.display()))?;
    let mut w = tar::Writer::new(flate2::write::GzEncoder::new(file, flate2::Compression::best()));
    append_tree(&mut w, dir, top, None)?;
    w.finish().and_then(|gz| gz.finish()).map_err(|e| format!("could not write {}: {e}", archive.display()))?;
    Ok(())
}

/// The tree under `dir` as `top/...` in a zip (files only: a link is refused).
fn write_zip(archive: &Path, dir: &Path, top: &str) -> Result<(), String> {
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    files.sort();
    let file = fs::File::create(archive).map_err(|e| format!("could not create {}: {e}", archive.display()))?;
    let mut w = zip::Writer::new(std::io::BufWriter::new(file));
    for rel in files {
        let path = dir.join(&rel);
        let meta = fs::symlink_metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        if meta.file_type().is_symlink() {
            return Err(format!("{}: a symbolic link cannot go into {}", path.display(), archive.display()));
        }
        let data = fs::read(&path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
        let mode = if is_executable(&meta) { 0o755 } else { 0o644 };
        w.append(&format!("{top}/{rel}"), &data, mode).map_err(|e| format!("{rel}: {e}"))?;
    }
    w.finish()
        .and_then(|mut out| out.flush())
        .map_err(|e| format!("could not write {}: {e}", archive.display()))?;
    Ok(())
}

/// Files and links under `dir`, sorted, as `top/relative/path`; `replaced` gives one file's
/// contents instead of the file's own.
fn append_tree<W: std::io::Write>(
    w: &mut tar::Writer<W>,
    dir: &Path,
    top: &str,
    replaced: Option<(&str, &[u8])>,
) -> Result<(), String> {
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    files.sort();
    // A .meta whose file or folder is not in the archive (a folder of a plugin left out) goes too.
    let assets: Vec<&String> = files.iter().filter(|rel| !rel.ends_with(".meta")).collect();
    let has_asset = |meta: &str| {
        let asset = meta.strip_suffix(".meta").expect("a .meta");
        assets.iter().any(|a| a.as_str() == asset || a.strip_prefix(asset).is_some_and(|rest| rest.starts_with('/')))
    };
    let files: Vec<String> = files.iter().filter(|rel| !rel.ends_with(".meta") || has_asset(rel)).cloned().collect();
    for rel in files {
        let path = dir.join(&rel);
        let name = format!("{top}/{rel}");
        let meta = fs::symlink_metadata(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let result = if meta.file_type().is_symlink() {
            let target = fs::read_link(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            w.append(&tar::Entry::Symlink { path: &name, target: &target.to_string_lossy() })
        } else {
            let data = match replaced {
                Some((file, data)) if file == rel => data.to_vec(),
                _ => fs::read(&path).map_err(|e| format!("could not read {}: {e}", path.display()))?,
            };
            w.append(&tar::Entry::File { path: &name, data: &data, executable: is_executable(&meta) })
        };
        result.map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

#[cfg(unix)]
fn is_executable(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_: &fs::Metadata) -> bool {
    false
}

/// Relative paths with '/' of the files and links under `dir`; hidden files left out.
fn walk(base: &Path, dir: &Path, files: &mut Vec<String>) -> Result<(), String> {
    for entry in read_dir(dir)? {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| format!("{}: {e}", path.display()))?;
        if kind.is_dir() {
            walk(base, &path, files)?;
        } else {
            let rel = path.strip_prefix(base).expect("under base");
            files.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
        }
    }
    Ok(())
}

fn read_dir(dir: &Path) -> Result<Vec<fs::DirEntry>, String> {
    fs::read_dir(dir)
        .and_then(|entries| entries.collect())
        .map_err(|e| format!("could not list {}: {e}", dir.display()))
}

fn read_text(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))
}

fn mkdir(dir: &Path) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("could not create {}: {e}", dir.display()))
}

fn copy(src: &Path, dst: &Path) -> Result<(), String> {
    mkdir(dst.parent().expect("a parent"))?;
    let _ = fs::remove_file(dst);
    fs::copy(src, dst).map(|_| ()).map_err(|e| format!("could not copy {} to {}: {e}", src.display(), dst.display()))
}

fn write(dst: &Path, data: &[u8]) -> Result<(), String> {
    fs::write(dst, data).map_err(|e| format!("could not write {}: {e}", dst.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The .meta files Unity reads are the ones committed (Unity deletes a plugin's .meta when
    /// the project is opened before the plugin exists; `package` writes them back from here).
    #[test]
    fn plugin_metas_are_the_committed_ones() {
        let root = crate::repo_root();
        for p in &PLUGINS {
            let committed = fs::read_to_string(root.join(PACKAGE).join(format!("{}.meta", p.path))).unwrap();
            assert_eq!(plugin_meta(p), committed, "{}", p.path);
        }
    }

    #[test]
    fn guids_are_md5_of_the_package_path() {
        // md5("com.sinew.physics/Runtime/Wrapper/World.cs"), as scripts/package-unity.sh made it.
        // (`printf '%s' com.sinew.physics/Runtime/Wrapper/World.cs | md5sum`)
        assert_eq!(guid_for("Runtime/Wrapper/World.cs"), "6f6df52bee8cb46ba39a2cefffe8284d");
        assert_ne!(guid_for("Runtime/Wrapper/World.cs"), guid_for("Runtime/Wrapper/Cloth.cs"));
    }

    #[test]
    fn the_manual_takes_its_own_pictures_along() {
        let md = "![a](unity-paint.png) and [b](other.md), ![c](../x.png), ![d](https://e/f.png), ![a](unity-paint.png) ![g](unity-gizmos.png)";
        assert_eq!(local_images(md), vec!["unity-paint.png".to_string(), "unity-gizmos.png".to_string()]);
    }

    #[test]
    fn urls_go_into_package_json() {
        let dir = std::env::temp_dir().join(format!("xtask-pkgjson-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("package.json"), "{\n    \"name\": \"x\",\n    \"version\": \"0.1.0\",\n    \"keywords\": []\n}\n").unwrap();
        let text = package_json(&dir, "0.1.0", Some("https://example.org/sinew/")).unwrap();
        assert!(text.contains("\"documentationUrl\": \"https://example.org/sinew/docs/unity.md\",\n"));
        assert!(package_json(&dir, "0.2.0", None).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
