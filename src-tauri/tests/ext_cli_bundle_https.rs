//! A `.zotx` installed from an `https://` URL through the real binary: a
//! local TLS server (Python's `http.server` behind `ssl`) with a
//! certificate from a throwaway CA that `SSL_CERT_FILE` makes the machine's
//! trust store. The bundle installs and its origin is the URL; a server
//! whose certificate nobody trusts, a missing file (404) and a server that
//! is not there are each refused with the URL and the reason, and nothing
//! is written.

use zot_test_support::cli;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use zot_test_support::cli::Env;
use zot_test_support::fixtures::write_ext;

/// `openssl` with `args`, in `dir`.
fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A CA (`ca.pem`) and a certificate for 127.0.0.1 it signed
/// (`leaf.pem`, `leaf.key`): webpki refuses a self-signed leaf as its own
/// anchor, so the chain is a real one.
fn certificates(dir: &Path) {
    openssl(
        dir,
        &[
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "2",
            "-subj",
            "/CN=zot test CA",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-keyout",
            "leaf.key",
            "-out",
            "leaf.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
    );
    std::fs::write(
        dir.join("leaf.ext"),
        "basicConstraints=CA:FALSE\nsubjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "leaf.pem",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
        ],
    );
}

const SERVER: &str = r#"
import http.server, ssl, sys
root, cert, key = sys.argv[1:4]
class Files(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **k):
        super().__init__(*a, directory=root, **k)
    def log_message(self, *a):
        pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Files)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(cert, key)
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
print(srv.server_address[1], flush=True)
srv.serve_forever()
"#;

/// Serves `root` over TLS; the child and its port.
struct Server(Child, u16);

impl Server {
    fn start(root: &Path, tls: &Path) -> Server {
        let mut child = Command::new("python3")
            .args(["-c", SERVER])
            .arg(root)
            .arg(tls.join("leaf.pem"))
            .arg(tls.join("leaf.key"))
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("no port: {line:?}"));
        Server(child, port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn bundle(env: &Env, served: &Path) -> PathBuf {
    let dir = env.path("src/greeter");
    write_ext(
        &dir,
        r#"{"name":"greeter","version":"1.0.0","exec":"./run.sh","permissions":["commands"]}"#,
    );
    let out = served.join("greeter.zotx");
    env.zot(&[
        "ext",
        "pack",
        dir.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ])
    .ok();
    out
}

fn install(env: &Env, url: &str, ca: Option<&Path>) -> cli::Run {
    let mut c = env.command(&["ext", "install", url]);
    match ca {
        Some(ca) => c.env("SSL_CERT_FILE", ca),
        // Only the machine's own roots, which never hold the test CA.
        None => c.env_remove("SSL_CERT_FILE"),
    };
    cli::Run(c.output().unwrap())
}

#[test]
fn a_bundle_installs_from_https_and_bad_servers_are_refused() {
    let env = Env::new();
    let tls = env.path("tls");
    let served = env.path("served");
    std::fs::create_dir_all(&tls).unwrap();
    std::fs::create_dir_all(&served).unwrap();
    certificates(&tls);
    bundle(&env, &served);
    let server = Server::start(&served, &tls);
    let base = format!("https://127.0.0.1:{}", server.1);
    let ca = tls.join("ca.pem");

    // Nobody trusts the certificate: refused, with the URL, nothing written.
    let url = format!("{base}/greeter.zotx");
    let err = install(&env, &url, None).failed();
    assert!(err.contains(&url), "{err}");
    assert!(err.to_lowercase().contains("certificate"), "{err}");
    assert!(!env.extensions().join("greeter").exists());

    // A file the server does not have.
    let missing = format!("{base}/nope.zotx");
    let err = install(&env, &missing, Some(&ca)).failed();
    assert!(err.contains(&missing) && err.contains("404"), "{err}");

    // Trusted: installed, and the URL is where it came from.
    let out = install(&env, &url, Some(&ca)).ok();
    assert!(out.contains("greeter"), "{out}");
    let list = env.zot(&["ext", "list", "--json"]).ok();
    let all: Vec<serde_json::Value> = serde_json::from_str(&list).unwrap();
    let g = all.iter().find(|e| e["name"] == "greeter").unwrap();
    assert!(g.to_string().contains(&url), "{g}");

    // The server is gone: refused with the URL.
    drop(server);
    let err = install(&env, &url, Some(&ca)).failed();
    assert!(err.contains(&url), "{err}");
}
