//! `make bench-checkpoints`: the checkpoint taken before a prompt on a
//! 10 000-file repository with 10 files changed since the last one, as a
//! ratio to `git add -A && git write-tree` on a copy of the same
//! repository in the same run (the floor: what git itself needs to see
//! the same change). Goal: ≤ 1.2×. Written to docs/performance.md.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use zot_lib::checkpoints::size::Limits;
use zot_lib::checkpoints::Checkpoints;

const FILES: usize = 10_000;
const CHANGED: usize = 10;
const ROUNDS: usize = 15;

fn git(cwd: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(cwd)
        .env("GIT_AUTHOR_NAME", "b")
        .env("GIT_AUTHOR_EMAIL", "b@b")
        .env("GIT_COMMITTER_NAME", "b")
        .env("GIT_COMMITTER_EMAIL", "b@b")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn write_report(section: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/performance.md");
    let old = std::fs::read_to_string(&path).unwrap();
    let (b, e) = (
        "<!-- checkpoints-bench:start -->",
        "<!-- checkpoints-bench:end -->",
    );
    let block = format!("{b}\n{section}{e}");
    let new = match (old.find(b), old.find(e)) {
        (Some(i), Some(j)) => format!("{}{}{}", &old[..i], block, &old[j + e.len()..]),
        _ => format!("{}\n\n## Checkpoints\n\n{block}\n", old.trim_end()),
    };
    std::fs::write(&path, new).unwrap();
}

#[test]
#[ignore = "benchmark: run with `make bench-checkpoints`"]
fn bench_checkpoints() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let proj = tmp.path().join("proj");
    let copy = tmp.path().join("copy");
    for d in 0..FILES / 100 {
        let dir = proj.join(format!("src/mod{d:03}"));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..100 {
            std::fs::write(
                dir.join(format!("file{f:03}.rs")),
                format!("// {d} {f}\nfn f() {{}}\n"),
            )
            .unwrap();
        }
    }
    git(&proj, &["init", "-q"]);
    git(&proj, &["add", "-A"]);
    git(&proj, &["commit", "-qm", "init"]);
    let cp = Command::new("cp")
        .arg("-a")
        .arg(&proj)
        .arg(&copy)
        .status()
        .unwrap();
    assert!(cp.success());

    let cps = Checkpoints::new(&home, &proj, Limits::default());
    // The first checkpoint of a run measures the project and fills the
    // shadow index (a cold start; timed apart).
    let t = Instant::now();
    assert!(cps.before_prompt().id.is_some());
    let first = t.elapsed();
    // The floor's index is warm too (its commit wrote it).
    git(&copy, &["add", "-A"]);

    let (mut ours, mut floor) = (Vec::new(), Vec::new());
    for round in 0..ROUNDS {
        for i in 0..CHANGED {
            let rel = format!("src/mod{:03}/file{:03}.rs", i * 7 % 100, round % 100);
            for root in [&proj, &copy] {
                std::fs::write(root.join(&rel), format!("// changed in round {round}\n")).unwrap();
            }
        }
        // Alternate which runs first so neither always finds a warmer cache.
        let mut time_ours = || {
            let t = Instant::now();
            let taken = cps.before_prompt();
            ours.push(t.elapsed());
            assert!(taken.id.is_some() && taken.problem.is_none(), "{taken:?}");
        };
        let mut time_floor = || {
            let t = Instant::now();
            let out = Command::new("sh")
                .arg("-c")
                .arg("git add -A && git write-tree")
                .current_dir(&copy)
                .output()
                .unwrap();
            floor.push(t.elapsed());
            assert!(out.status.success());
        };
        if round % 2 == 0 {
            time_ours();
            time_floor();
        } else {
            time_floor();
            time_ours();
        }
    }
    let (o, f) = (median(ours), median(floor));
    let ratio = o.as_secs_f64() / f.as_secs_f64();
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".into());
    let section = format!(
        "Measured by `make bench-checkpoints` (`src-tauri/tests/bench_checkpoints.rs`, {profile} build); load average {load} when it ran.\n\n\
         | what | median of {ROUNDS} | floor (same run) | ratio | goal |\n\
         |---|---|---|---|---|\n\
         | checkpoint before a prompt, {FILES} files, {CHANGED} changed since the last one | {} | {} (`git add -A && git write-tree` on a copy) | {ratio:.2}× | ≤ 1.2× |\n\
         | the first checkpoint of a run (measures the project, fills the shadow index) | {} | | | |\n\n\
         The model request of a prompt waits for its checkpoint, so a prompt's added latency is the first row.\n",
        ms(o),
        ms(f),
        ms(first),
        profile = if cfg!(debug_assertions) { "debug" } else { "release" },
    );
    print!("{section}");
    write_report(&section);
}
