//! The hello example: slash commands with the Rust SDK, one of them
//! registered only after `hello_ack` told us the project directory.

use zot_ext::{Extension, Response};

fn main() {
    let mut ext = Extension::new("hello", "1.0.0");
    ext.command("hello", "say hi", |_ctx, _args| {
        Response::prompt("Greet me in one short sentence.")
    })
    .command("shout", "display the args in capitals", |_ctx, args| {
        if args.is_empty() {
            Response::error("usage: /shout <text>")
        } else {
            Response::display(args.to_uppercase())
        }
    });
    // Registered after hello_ack, because it needs the host's metadata.
    ext.on_hello(|ext, host| {
        let cwd = host.cwd.display().to_string();
        if !cwd.is_empty() {
            ext.command(
                "cwd",
                "show the current project directory",
                move |_ctx, _| Response::display(cwd.clone()),
            );
        }
        let model = format!("{} / {}", host.provider, host.model);
        ext.command(
            "model-info",
            "show the active provider and model",
            move |_ctx, _| Response::display(model.clone()),
        );
    });
    if let Err(e) = ext.run() {
        eprintln!("hello: {e}");
        std::process::exit(1);
    }
}
