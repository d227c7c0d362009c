//! Facts the pages state in more than one place agree with the one place they come from:
//! the Rust version every page and script asks for is `Cargo.toml`'s `rust-version`, and
//! every C# class a host must dispose of is named in both lists of `IDisposable` wrappers
//! (README.md's C# section and the C# README's "Lifetime"). Both once disagreed (a script
//! hinted Rust 1.85 while the crate needed 1.89; `Ragdoll` and `SoftBody` were missing from
//! the lists).

use std::fs;
use std::path::{Path, PathBuf};

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The files of `dir` (not recursive) whose name ends with `ext`.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).filter(|p| p.to_string_lossy().ends_with(ext)).collect();
    out.sort();
    out
}

/// Every `1.NN` version that a "… or newer" phrase of `text` asks for, with its line.
fn versions_asked(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(at) = rest.find("or newer") {
            let before = &rest[..at];
            // The last "1.NN" before the phrase, in the same line.
            if let Some(start) = before.rfind("1.") {
                let digits: String = before[start + 2..].chars().take_while(|c| c.is_ascii_digit()).collect();
                if !digits.is_empty() && before.contains("Rust") {
                    out.push((format!("1.{digits}"), line.trim().to_string()));
                }
            }
            rest = &rest[at + "or newer".len()..];
        }
    }
    out
}

#[test]
fn every_page_asks_for_the_rust_version_the_crate_declares() {
    let root = xtask::repo_root();
    let manifest = read(&root.join("Cargo.toml"));
    let declared = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("Cargo.toml declares rust-version")
        .to_string();
    let mut pages = vec![root.join("README.md"), root.join("bindings/csharp/README.md")];
    pages.extend(files(&root.join("docs"), ".md"));
    pages.extend(files(&root.join("scripts"), ".sh"));
    let mut asked = 0;
    let mut wrong = Vec::new();
    for page in &pages {
        for (version, line) in versions_asked(&read(page)) {
            asked += 1;
            if version != declared {
                wrong.push(format!("{}: asks for Rust {version}, Cargo.toml says {declared}: {line}", page.display()));
            }
        }
    }
    // The README and the demo script both say it; finding none means the scan is broken.
    assert!(asked >= 2, "found only {asked} statements of the Rust version");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The public, non-abstract classes of the C# wrapper a host disposes of: those declared
/// `: IDisposable` and those deriving from `Body` (which is).
fn disposable_classes(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for file in files(dir, ".cs") {
        for line in read(&file).lines() {
            let line = line.trim();
            if !line.starts_with("public") || line.contains("abstract") {
                continue;
            }
            let Some(at) = line.find("class ") else { continue };
            let rest = &line[at + "class ".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            let bases = rest.split_once(':').map_or("", |(_, b)| b);
            if bases.split(',').map(str::trim).any(|b| b == "IDisposable" || b == "Body") {
                out.push(name);
            }
        }
    }
    out.sort();
    out
}

/// The sentence of `text` holding `marker`, up to its full stop or semicolon.
fn sentence_with<'a>(text: &'a str, marker: &str) -> &'a str {
    let at = text.find(marker).unwrap_or_else(|| panic!("no '{marker}' in the page"));
    let start = text[..at].rfind(['.', '\n']).map_or(0, |s| s + 1);
    let end = at + text[at..].find([';', '\n']).unwrap_or(text.len() - at);
    // A list may wrap over two lines: take the next line too.
    let end = if text[end..].starts_with('\n') { end + 1 + text[end + 1..].find([';', '\n']).unwrap_or(0) } else { end };
    &text[start..end]
}

#[test]
fn both_lists_of_disposable_wrappers_name_every_disposable_class() {
    let root = xtask::repo_root();
    let classes = disposable_classes(&root.join("bindings/csharp"));
    for expected in ["World", "Cloth", "Rope", "Strands", "SoftBody", "Ragdoll", "Collider"] {
        assert!(classes.iter().any(|c| c == expected), "the scan misses {expected}: found {classes:?}");
    }
    let readme = read(&root.join("README.md"));
    let top = sentence_with(&readme, "`IDisposable` wrappers (");
    let csharp = read(&root.join("bindings/csharp/README.md"));
    let lifetime = sentence_with(&csharp, "**Lifetime.**");
    let mut missing = Vec::new();
    for class in &classes {
        if !top.contains(&format!("`Sinew.{class}`")) {
            missing.push(format!("README.md's IDisposable wrappers do not name Sinew.{class}: {top:?}"));
        }
        if !lifetime.contains(&format!("`{class}`")) {
            missing.push(format!("bindings/csharp/README.md's Lifetime does not name {class}: {lifetime:?}"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
