//! The keys zot was started with must not stay in its environment block or
//! argument area: `/proc/<zot>/environ` and `/proc/<zot>/cmdline` show
//! those areas to every process of the user that may ptrace zot (and to
//! root, whatever zot does), and an extension or the model's `bash` is such
//! a process. The kernel shows the memory the areas were built in, so
//! `unsetenv` alone changes nothing there.
//!
//! So the first thing `run` does, before zot starts a thread of its own,
//! is [`start`]: it takes the credential variables
//! (`child_env::CREDENTIAL_VARS`: the provider keys, `ZOT_RPC_TOKEN`,
//! `ZOTCORE_RPC_TOKEN`) and `--api-key`'s value into memory ([`var`],
//! [`api_key`]), then overwrites their bytes in place with zeros, in the
//! two areas whose bounds the kernel publishes in `/proc/self/stat`, and
//! unsets the variables so no child inherits them. A start without a key
//! costs a look through the environment and the arguments; one with a key
//! costs a read of `/proc/self/stat` and a few writes, not a second
//! `execve` (docs/security.md, "zot's keys and /proc", has the numbers
//! that decided it). Everywhere, the process is also made non-dumpable,
//! so a process of the same non-root user cannot ptrace it or read its
//! memory.

use std::ffi::{OsStr, OsString};
use std::ops::Range;
use std::sync::OnceLock;

use zot_ext_host::child_env::CREDENTIAL_VARS;

/// The flag whose value is a key.
const API_KEY_FLAG: &str = "--api-key";

/// The keys zot was started with.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Started {
    /// Credential variables, by name.
    vars: Vec<(String, String)>,
    /// `--api-key`'s value.
    api_key: Option<String>,
}

/// Set once by [`start`].
static STARTED: OnceLock<Started> = OnceLock::new();

/// The value of credential variable `name` zot was started with: the one
/// taken at start (it is gone from the environment since), else the
/// environment (a platform where [`start`] leaves it there).
pub fn var(name: &str) -> Option<String> {
    if let Some(v) = STARTED
        .get()
        .and_then(|s| s.vars.iter().find(|(n, _)| n == name))
    {
        return Some(v.1.clone());
    }
    std::env::var(name).ok()
}

/// `--api-key`'s value, when it was taken at start (the argument area then
/// holds an empty string in its place, which is what clap parses).
pub fn api_key() -> Option<String> {
    STARTED.get().and_then(|s| s.api_key.clone())
}

/// Runs first in `run`: takes the keys, wipes them from the environment
/// block and the argument area, and makes the process non-dumpable.
pub fn start() {
    #[cfg(target_os = "linux")]
    {
        linux::take_keys();
        // SAFETY: prctl with PR_SET_DUMPABLE takes plain integers.
        unsafe {
            libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        }
    }
}

/// `--api-key VALUE` / `--api-key=VALUE` in `argv` (without argv[0]), up
/// to a `--` (after which everything is a positional). A value that is
/// not UTF-8, or a flag with no value, is left for clap to refuse.
fn api_key_in(argv: &[OsString]) -> Option<String> {
    let mut key = None;
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        if a == API_KEY_FLAG {
            if let Some(v) = it.next() {
                key = v.to_str().map(str::to_owned).or(key);
            }
        } else if let Some(v) = a
            .to_str()
            .and_then(|s| s.strip_prefix(API_KEY_FLAG))
            .and_then(|s| s.strip_prefix('='))
        {
            key = Some(v.to_owned());
        }
    }
    key
}

/// The credential variables in `env`.
fn credentials<'a>(env: impl IntoIterator<Item = (&'a OsStr, &'a OsStr)>) -> Vec<(String, String)> {
    env.into_iter()
        .filter_map(|(n, v)| {
            let n = n.to_str()?;
            CREDENTIAL_VARS
                .contains(&n)
                .then(|| (n.to_owned(), v.to_string_lossy().into_owned()))
        })
        .collect()
}

/// The NUL-terminated strings of an area, with their ranges.
fn strings(area: &[u8]) -> impl Iterator<Item = (Range<usize>, &[u8])> {
    let mut at = 0;
    area.split(|b| *b == 0).map(move |s| {
        let r = at..at + s.len();
        at = r.end + 1;
        (r, s)
    })
}

/// The bytes of the argument area to wipe: the value of each `--api-key`
/// that [`api_key_in`] would take (argv[0] and what follows `--` are left
/// alone).
fn arg_spans(area: &[u8]) -> Vec<Range<usize>> {
    let flag = API_KEY_FLAG.as_bytes();
    let mut out = Vec::new();
    let mut it = strings(area).skip(1);
    while let Some((r, s)) = it.next() {
        if s == b"--" {
            break;
        }
        if s == flag {
            if let Some((v, bytes)) = it.next() {
                if std::str::from_utf8(bytes).is_ok() {
                    out.push(v);
                }
            }
        } else if s.len() > flag.len() && s.starts_with(flag) && s.get(flag.len()) == Some(&b'=') {
            out.push(r.start + flag.len() + 1..r.end);
        }
    }
    out.retain(|r| !r.is_empty());
    out
}

/// The bytes of the environment block to wipe: the value of each
/// `NAME=VALUE` whose name is in `names`.
fn env_spans(area: &[u8], names: &[&str]) -> Vec<Range<usize>> {
    strings(area)
        .filter_map(|(r, s)| {
            let eq = s.iter().position(|b| *b == b'=')?;
            let name = s.get(..eq)?;
            names
                .iter()
                .any(|n| n.as_bytes() == name)
                .then(|| r.start + eq + 1..r.end)
        })
        .filter(|r| !r.is_empty())
        .collect()
}

/// `arg_start`, `arg_end`, `env_start`, `env_end` from a `/proc/<pid>/stat`
/// line (fields 48 to 51 of proc(5); the command, field 2, may hold spaces
/// and parentheses, so fields are counted after its last `)`).
fn area_bounds(stat: &str) -> Option<(Range<usize>, Range<usize>)> {
    let rest = stat.get(stat.rfind(')')? + 1..)?;
    let f: Vec<usize> = rest
        .split_whitespace()
        .skip(45)
        .take(4)
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match f.as_slice() {
        [a, b, c, d] if a <= b && c <= d => Some((*a..*b, *c..*d)),
        _ => None,
    }
}

#[cfg(target_os = "linux")]
mod linux {
    //! The wipe itself: the areas' bounds from `/proc/self/stat`, the
    //! spans found in a copy, zeros written over them.

    use super::*;

    /// See [`super::start`].
    pub(super) fn take_keys() {
        let argv: Vec<OsString> = std::env::args_os().collect();
        let api_key = api_key_in(argv.get(1..).unwrap_or_default());
        let env: Vec<(OsString, OsString)> = std::env::vars_os().collect();
        let vars = credentials(env.iter().map(|(n, v)| (n.as_os_str(), v.as_os_str())));
        if vars.is_empty() && api_key.is_none() {
            return;
        }
        if let Err(e) = wipe(&vars) {
            eprintln!(
                "zot: warning: could not wipe the API keys from zot's environment and command line ({e}); they stay readable in /proc/{}/environ and cmdline",
                std::process::id()
            );
        }
        // Gone from `environ` too, so no child inherits them (the host and
        // the bash tool drop them anyway) and nothing reads the zeros.
        for (n, _) in &vars {
            std::env::remove_var(n);
        }
        for v in vars.iter().map(|(_, v)| v).chain(api_key.as_ref()) {
            zot_ext_host::child_env::add_secret_value(v);
        }
        let _ = STARTED.set(Started { vars, api_key });
    }

    /// Overwrites the keys' bytes in both areas.
    fn wipe(vars: &[(String, String)]) -> Result<(), String> {
        let stat = std::fs::read_to_string("/proc/self/stat")
            .map_err(|e| format!("cannot read /proc/self/stat: {e}"))?;
        let (args, env) =
            area_bounds(&stat).ok_or("/proc/self/stat does not show the areas' bounds")?;
        let names: Vec<&str> = vars.iter().map(|(n, _)| n.as_str()).collect();
        zero(args, arg_spans);
        zero(env, |a| env_spans(a, &names));
        Ok(())
    }

    /// Copies `area` out of this process's memory, asks `spans` what to
    /// wipe, and writes zeros there.
    fn zero(area: Range<usize>, spans: impl Fn(&[u8]) -> Vec<Range<usize>>) {
        let len = area.len();
        if len == 0 {
            return;
        }
        let base = area.start as *mut u8;
        let mut copy = vec![0u8; len];
        // SAFETY: the kernel says these bytes are this process's argument
        // (or environment) area: mapped, writable, on the main stack, and
        // referenced from Rust only through the C pointers of argv and
        // environ, which read them as C strings.
        unsafe {
            std::ptr::copy_nonoverlapping(base, copy.as_mut_ptr(), len);
            for r in spans(&copy) {
                if r.end <= len {
                    std::ptr::write_bytes(base.add(r.start), 0, r.len());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    /// An area as the kernel lays it out: NUL-terminated strings.
    fn area(v: &[&str]) -> Vec<u8> {
        v.iter().flat_map(|s| s.bytes().chain([0])).collect()
    }

    /// `area` with `spans` zeroed, back as strings.
    fn wiped(v: &[&str], spans: impl Fn(&[u8]) -> Vec<Range<usize>>) -> Vec<u8> {
        let mut a = area(v);
        for r in spans(&a.clone()) {
            a[r].fill(0);
        }
        a
    }

    #[test]
    fn the_api_key_is_found_in_both_spellings_but_not_after_a_double_dash() {
        let k = |v: &[&str]| api_key_in(&os(v));
        assert_eq!(
            k(&["--mode", "rpc", "--api-key", "sk-1", "-e", "x"]).as_deref(),
            Some("sk-1")
        );
        assert_eq!(
            k(&["ext", "doctor", "--api-key=sk-2"]).as_deref(),
            Some("sk-2")
        );
        assert_eq!(k(&["-p", "--", "--api-key", "x"]), None);
        assert_eq!(k(&["--api-key"]), None);
        assert_eq!(k(&["--api-keys", "x"]), None);
    }

    #[test]
    fn the_argument_area_loses_exactly_the_keys() {
        let got = wiped(
            &[
                "zot",
                "--api-key",
                "sk-1",
                "--mode",
                "rpc",
                "--api-key=sk-22",
                "--",
                "--api-key",
                "p",
            ],
            arg_spans,
        );
        assert_eq!(
            got,
            area(&[
                "zot",
                "--api-key",
                "\0\0\0\0",
                "--mode",
                "rpc",
                "--api-key=\0\0\0\0\0",
                "--",
                "--api-key",
                "p"
            ])
        );
        // argv[0] is never a flag, and a flag without a value wipes nothing.
        assert!(arg_spans(&area(&["--api-key", "x"])).is_empty());
        assert!(arg_spans(&area(&["zot", "--api-key"])).is_empty());
    }

    #[test]
    fn the_environment_block_loses_the_values_of_the_named_variables_only() {
        let got = wiped(
            &[
                "HOME=/h",
                "ANTHROPIC_API_KEY=sk-a",
                "X=ANTHROPIC_API_KEY=no",
                "ZOT_RPC_TOKEN=t",
            ],
            |a| env_spans(a, &["ANTHROPIC_API_KEY", "ZOT_RPC_TOKEN"]),
        );
        assert_eq!(
            got,
            area(&[
                "HOME=/h",
                "ANTHROPIC_API_KEY=\0\0\0\0",
                "X=ANTHROPIC_API_KEY=no",
                "ZOT_RPC_TOKEN=\0"
            ])
        );
    }

    #[test]
    fn the_areas_bounds_are_read_past_a_command_with_spaces_and_parens() {
        let fields: Vec<String> = (3..=52).map(|n| n.to_string()).collect();
        let stat = format!("42 (a) b (c) {}", fields.join(" "));
        assert_eq!(area_bounds(&stat), Some((48..49, 50..51)));
        let own = std::fs::read_to_string("/proc/self/stat").unwrap();
        let (args, env) = area_bounds(&own).unwrap();
        assert!(!args.is_empty() && !env.is_empty());
        assert!(area_bounds("1 (x) R 2").is_none());
    }

    #[test]
    fn only_credential_variables_are_taken() {
        let env = [
            (OsStr::new("HOME"), OsStr::new("/h")),
            (OsStr::new("OPENAI_API_KEY"), OsStr::new("sk-o")),
            (OsStr::new("ZOTCORE_RPC_TOKEN"), OsStr::new("tok")),
        ];
        assert_eq!(
            credentials(env),
            vec![
                ("OPENAI_API_KEY".to_owned(), "sk-o".to_owned()),
                ("ZOTCORE_RPC_TOKEN".to_owned(), "tok".to_owned())
            ]
        );
    }
}
