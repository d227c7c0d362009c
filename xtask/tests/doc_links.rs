//! The repository's own pages: every relative link leads to a file that exists and every
//! `#anchor` to a heading of its page (the Unity package's pages are checked by
//! `xtask package`, inside the package, where they ship).

use std::path::PathBuf;

use xtask::package::links;

#[test]
fn every_relative_link_of_the_repository_pages_resolves() {
    let root = xtask::repo_root();
    let mut pages: Vec<PathBuf> = vec![root.join("README.md")];
    for dir in ["docs", "bindings", "examples", "unity-sample", "fuzz", "tests"] {
        links::markdown_files(&root.join(dir), &mut pages).unwrap();
    }
    pages.sort();
    assert!(pages.len() > 10, "found only {} pages", pages.len());
    // The package README's links into Documentation~ reach what `xtask package` writes there
    // (checked by it, inside the package); a fresh clone has no Documentation~ yet.
    let broken: Vec<String> = links::broken_links_in(&pages, &root).unwrap().into_iter().filter(|b| !b.contains(": Documentation~/")).collect();
    assert!(broken.is_empty(), "{} broken links:\n  {}", broken.len(), broken.join("\n  "));
}
