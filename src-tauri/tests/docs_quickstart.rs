//! docs/extensions.md, "From nothing to a panel", followed literally: each
//! language's shell block is run line by line with this build's `zot` first
//! on PATH and an empty `ZOT_HOME`. Lines that start the interactive app
//! (`zot` with a flag and no subcommand, e.g. `zot --ext …`) or need the
//! network (`npm install`) are left out; every other line must succeed.

use std::path::Path;

/// The shell block that follows `**<lang>**` in the section.
fn block(doc: &str, lang: &str) -> Vec<String> {
    let section = doc
        .split("## From nothing to a panel")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the section exists");
    let after = section
        .split(&format!("**{lang}**"))
        .nth(1)
        .unwrap_or_else(|| panic!("no {lang} block"));
    let code = after
        .split("```bash\n")
        .nth(1)
        .and_then(|s| s.split("```").next())
        .unwrap_or_else(|| panic!("no bash block for {lang}"));
    code.lines()
        .map(|l| l.split(" #").next().unwrap_or("").trim().to_owned())
        .filter(|l| !l.is_empty())
        .collect()
}

fn runnable(line: &str) -> bool {
    // `zot` followed by a flag (no subcommand) starts the app.
    let starts_app = line
        .split("&&")
        .any(|part| part.trim().starts_with("zot -"));
    !starts_app && !line.contains("npm install")
}

fn follow(lang: &str) {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/extensions.md"),
    )
    .unwrap();
    let lines = block(&doc, lang);
    assert!(
        lines.iter().any(|l| l.starts_with("zot ext new")),
        "{lines:?}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_zot")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // One shell for the whole block, so `cd` carries over as in a terminal.
    let script: Vec<String> = lines
        .iter()
        .filter(|l| runnable(l))
        .map(|l| {
            format!(
                "{l} || {{ echo \"FAILED: {}\" >&2; exit 1; }}",
                l.replace('"', "'")
            )
        })
        .collect();
    let out = std::process::Command::new("sh")
        .args(["-c", &script.join("\n")])
        .current_dir(&work)
        .env("PATH", path)
        .env("ZOT_HOME", &home)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{lang}:\n{}\nstdout:\n{}\nstderr:\n{}",
        script.join("\n"),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("all checks passed"), "{stdout}");
}

#[test]
fn the_python_quick_start_works_as_written() {
    follow("Python");
}

#[test]
fn the_typescript_quick_start_works_as_written() {
    follow("TypeScript");
}
