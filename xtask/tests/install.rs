//! `xtask install` as a user runs it, without a tool it needs: it must say which and where to
//! get it before building anything, and leave the prefix as it found it. (Linux: the tool is
//! patchelf, which only an ELF target needs.)
#![cfg(target_os = "linux")]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `program`'s absolute path from this process's PATH.
fn which(program: &str) -> PathBuf {
    let path = std::env::var_os("PATH").expect("a PATH");
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{program} is not on PATH"))
}

/// Runs `xtask install --prefix PREFIX` with a PATH holding only links to `tools`. CARGO points
/// nowhere, so an install that started building before checking its tools would fail on that
/// instead, and CARGO_TARGET_DIR is under `scratch`, so whatever it wrote there would show.
fn install_with_only(tools: &[&str], scratch: &Path, prefix: &Path) -> Output {
    let bin = scratch.join("bin");
    fs::create_dir_all(&bin).unwrap();
    for tool in tools {
        std::os::unix::fs::symlink(which(tool), bin.join(tool)).unwrap();
    }
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(["install", "--prefix"])
        .arg(prefix)
        .env("PATH", &bin)
        .env("RUSTC", which("rustc"))
        .env("CARGO", scratch.join("no-cargo-here"))
        .env("CARGO_TARGET_DIR", scratch.join("target"))
        .output()
        .expect("xtask runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-install-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every path under `dir` (the tool links' folder `bin` left out) with its size, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.file_name().is_some_and(|n| n == "bin") {
            continue;
        }
        let meta = fs::symlink_metadata(&path).unwrap();
        out.push(format!("{} {}", path.display(), meta.len()));
        if meta.is_dir() {
            out.extend(listing(&path));
        }
    }
    out.sort();
    out
}

fn assert_refused_for_patchelf(out: &Output, scratch: &Path) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "exit status; stderr:\n{stderr}");
    assert!(stderr.contains("nothing was built or installed"), "{stderr}");
    assert!(stderr.contains("patchelf") && stderr.contains("apt-get install patchelf"), "{stderr}");
    // objcopy was on PATH: only the missing tool is named.
    assert!(!stderr.contains("apt-get install binutils"), "{stderr}");
    assert!(!scratch.join("target").exists(), "nothing was built: {stderr}");
}

#[test]
fn without_patchelf_install_stops_before_building_and_creates_no_prefix() {
    let dir = scratch("new");
    let prefix = dir.join("parent/prefix");
    let out = install_with_only(&["objcopy"], &dir, &prefix);
    assert_refused_for_patchelf(&out, &dir);
    assert_eq!(listing(&dir), Vec::<String>::new(), "neither the prefix nor its parent was made");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_patchelf_install_leaves_an_existing_prefix_unchanged() {
    let dir = scratch("existing");
    let prefix = dir.join("prefix");
    fs::create_dir_all(prefix.join("include")).unwrap();
    fs::write(prefix.join("include/sinew.h"), "an older install's header").unwrap();
    let before = listing(&dir);
    let out = install_with_only(&["objcopy"], &dir, &prefix);
    assert_refused_for_patchelf(&out, &dir);
    assert_eq!(listing(&dir), before);
    assert_eq!(fs::read_to_string(prefix.join("include/sinew.h")).unwrap(), "an older install's header");
    fs::remove_dir_all(&dir).unwrap();
}
