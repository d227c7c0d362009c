//! Checks the Markdown a user reads: every relative link leads to a file that exists (inside
//! the Unity package, for the package's own pages: `Documentation~` ships without the
//! repository beside it), every `#anchor` to a heading of its page, and the package README
//! names every component and every sample the package has.

use std::fs;
use std::path::{Component, Path, PathBuf};

/// The broken links of the Markdown files under `dir` (recursively, `Plugins` skipped), each
/// as "file: link (why)", with links allowed to reach no further up than `boundary`.
pub fn broken_links(dir: &Path, boundary: &Path) -> Result<Vec<String>, String> {
    let mut pages = Vec::new();
    markdown_files(dir, &mut pages)?;
    pages.sort();
    broken_links_in(&pages, boundary)
}

/// The broken links of the given Markdown pages, as [`broken_links`].
pub fn broken_links_in(pages: &[PathBuf], boundary: &Path) -> Result<Vec<String>, String> {
    let mut broken = Vec::new();
    for page in pages {
        let text = read(page)?;
        for link in links(&text) {
            if let Some(why) = check_link(page, &text, &link, boundary)? {
                broken.push(format!("{}: {link} ({why})", page.display()));
            }
        }
    }
    Ok(broken)
}

/// What is wrong with `link` on `page` (whose text is `text`), or `None`.
fn check_link(page: &Path, text: &str, link: &str, boundary: &Path) -> Result<Option<String>, String> {
    if link.contains("://") || link.starts_with("mailto:") {
        return Ok(None);
    }
    let (path, anchor) = match link.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (link, None),
    };
    let (target, target_text) = if path.is_empty() {
        (page.to_path_buf(), Some(text.to_string()))
    } else {
        let target = normalise(&page.parent().unwrap_or(Path::new(".")).join(path));
        if !target.starts_with(normalise(boundary)) {
            return Ok(Some(format!("outside {}", boundary.display())));
        }
        if !target.exists() {
            return Ok(Some("no such file".into()));
        }
        let is_page = target.extension().is_some_and(|x| x == "md");
        (target.clone(), if is_page { Some(read(&target)?) } else { None })
    };
    if let (Some(anchor), Some(body)) = (anchor, target_text) {
        if !slugs(&body).iter().any(|s| s == anchor) {
            return Ok(Some(format!("no heading #{anchor} in {}", target.display())));
        }
    }
    Ok(None)
}

/// The targets of the Markdown links `[text](target)` and images `![alt](target)` in `text`,
/// outside code blocks and code spans.
pub fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: a `](x)` inside backticks is not a link.
        let plain: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        for piece in plain.split("](").skip(1) {
            if let Some(end) = piece.find(')') {
                let target = piece[..end].split_whitespace().next().unwrap_or("");
                if !target.is_empty() {
                    out.push(target.to_string());
                }
            }
        }
    }
    out
}

/// The anchors GitHub gives the headings of `text`: lowercase, letters, digits, `-` and `_`
/// kept, spaces to `-`, the rest dropped; a repeated slug gets `-1`, `-2`, ...
pub fn slugs(text: &str) -> Vec<String> {
    let (mut out, mut bases): (Vec<String>, Vec<String>) = (Vec::new(), Vec::new());
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let Some(title) = line.strip_prefix('#') else { continue };
        if fenced {
            continue;
        }
        let title = title.trim_start_matches('#');
        if !title.starts_with(' ') {
            continue;
        }
        let slug: String = title
            .trim()
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let repeats = bases.iter().filter(|s| **s == slug).count();
        out.push(if repeats == 0 { slug.clone() } else { format!("{slug}-{repeats}") });
        bases.push(slug);
    }
    out
}

/// What the package README leaves out: each component (a class with an `AddComponentMenu`
/// entry under "Sinew/" in `Runtime/`) and each sample of package.json it does not name.
pub fn unlisted(pkg: &Path) -> Result<Vec<String>, String> {
    let readme = read(&pkg.join("README.md"))?;
    let mut missing = Vec::new();
    let mut scripts: Vec<PathBuf> = fs::read_dir(pkg.join("Runtime"))
        .map_err(|e| format!("could not read {}: {e}", pkg.join("Runtime").display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cs"))
        .collect();
    scripts.sort();
    for script in scripts {
        let source = read(&script)?;
        let mut menu = false;
        for line in source.lines() {
            let line = line.trim();
            if line.starts_with("[AddComponentMenu(\"Sinew/") {
                menu = true;
            } else if menu && line.contains(" class ") {
                let name = line.split(" class ").nth(1).and_then(|r| r.split([' ', ':']).next()).unwrap_or("");
                if !readme.contains(&format!("`{name}`")) {
                    missing.push(format!("component {name} ({})", script.display()));
                }
                menu = false;
            }
        }
    }
    let manifest = read(&pkg.join("package.json"))?;
    for line in manifest.lines() {
        if let Some(rest) = line.trim().strip_prefix("\"displayName\": \"") {
            let name = rest.trim_end_matches([',', '"']);
            if name != "Sinew Physics" && !readme.contains(name) {
                missing.push(format!("sample \"{name}\" (package.json)"));
            }
        }
    }
    Ok(missing)
}

/// The Markdown files under `dir`, recursively, without `Plugins`, `target`, `.git` and the
/// generated `Documentation~` (the package checks its copy itself).
pub fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    for entry in fs::read_dir(dir).map_err(|e| format!("could not read {}: {e}", dir.display()))? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| !["Plugins", "target", ".git", "Documentation~"].iter().any(|s| n == *s)) {
                markdown_files(&path, out)?;
            }
        } else if path.extension().is_some_and(|x| x == "md") {
            out.push(path);
        }
    }
    Ok(())
}

/// `a/b/../c` as `a/c`, without touching the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_github() {
        let s = slugs("# Sinew Ragdoll (`SinewRagdoll`)\n## What was verified, and what was not\n## Units\n## Units\n```\n# not a heading\n```\n");
        assert_eq!(s, ["sinew-ragdoll-sinewragdoll", "what-was-verified-and-what-was-not", "units", "units-1"]);
    }

    #[test]
    fn links_skip_code() {
        let l = links("see [a](a.md#x) and ![p](p.png) but not `[b](b.md)`\n```\n[c](c.md)\n```\n[d](https://x.org/y)");
        assert_eq!(l, ["a.md#x", "p.png", "https://x.org/y"]);
    }

    #[test]
    fn a_broken_link_is_found_and_a_good_one_is_not() {
        let dir = std::env::temp_dir().join(format!("sinew-links-{}", std::process::id()));
        let docs = dir.join("docs");
        fs::create_dir_all(&docs).unwrap();
        fs::write(docs.join("a.md"), "# Top\n## Units here\n[ok](b.md#b-part) [self](#units-here) [gone](design.md#units) [up](../../x.md) [anchor](b.md#nope)\n").unwrap();
        fs::write(docs.join("b.md"), "# B part\n").unwrap();
        let broken = broken_links(&dir, &dir).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(broken.len(), 3, "{broken:?}");
        assert!(broken[0].contains("design.md#units (no such file)"), "{broken:?}");
        assert!(broken[1].contains("../../x.md (outside"), "{broken:?}");
        assert!(broken[2].contains("b.md#nope (no heading #nope"), "{broken:?}");
    }
}
