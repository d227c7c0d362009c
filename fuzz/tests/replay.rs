//! Replays every committed input of every target (fuzz/corpus/<target>/*: the corpus the
//! fuzzer kept, and each input that once found a bug) through the same harness libFuzzer
//! runs, on the stable toolchain. A failure names the file; rerun it alone with
//! `SINEW_FUZZ_INPUT=<file> cargo test --manifest-path fuzz/Cargo.toml`.

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
}

fn replay(target: &str) {
    let run = sinew_fuzz::harness(target).unwrap();
    let only = std::env::var_os("SINEW_FUZZ_INPUT").map(PathBuf::from);
    let files = match &only {
        Some(f) if f.to_string_lossy().contains(target) => vec![f.clone()],
        Some(_) => return,
        None => inputs(target),
    };
    // A corpus that went missing would make this test pass without testing anything.
    assert!(only.is_some() || files.len() >= 20, "{target}: only {} corpus inputs", files.len());
    let mut failed = Vec::new();
    let mut times = Vec::new();
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let start = std::time::Instant::now();
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            failed.push(f.display().to_string());
        }
        times.push((start.elapsed().as_secs_f64(), f));
    }
    println!("{target}: {} inputs replayed, {} failed", files.len(), failed.len());
    if std::env::var_os("SINEW_FUZZ_TIMES").is_some() {
        // Where an input's time goes: the slowest inputs, and the total (wall clock, one run).
        times.sort_by(|a, b| b.0.total_cmp(&a.0));
        let total: f64 = times.iter().map(|t| t.0).sum();
        println!("{target}: {total:.3} s in all, {:.3} ms per input", 1e3 * total / times.len().max(1) as f64);
        for (t, f) in times.iter().take(15) {
            println!("  {:8.3} ms  {}", t * 1e3, f.display());
        }
    }
    assert!(failed.is_empty(), "{target}: these inputs fail:\n{}", failed.join("\n"));
}

#[test]
fn abi_calls() {
    replay("abi_calls");
}

#[test]
fn cook_mesh() {
    replay("cook_mesh");
}

#[test]
fn cook_soft() {
    replay("cook_soft");
}

#[test]
fn descriptors() {
    replay("descriptors");
}
