//! The handshake, then a small elastic thread pool that reads frames and
//! runs handlers.
//!
//! The pool is leader/follower: one thread at a time holds stdin and reads a
//! line; it then hands the reading role to an idle thread (just by releasing
//! the lock) and runs the handler itself. A frame therefore reaches its
//! handler on the thread that read it, with no queue or wake-up in between
//! (the hot path costs about what a hand-written loop costs), while a slow
//! handler never stops the next frame from being read. When no thread is
//! idle the reader spawns one before handling. Keys, panel closes and events
//! take a ticket while stdin is held and run in ticket order, so a panel
//! never sees `x` before the `down` that preceded it.

use std::io::{self, BufRead, BufReader};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use zot_ext_protocol::{
    ExtToHost, Hello, HostToExt, Ready, RegisterCommand, RegisterTool, ShutdownAck, Subscribe,
};

use crate::context::{Context, HostInfo};
use crate::dispatch::{self, Handlers, Parsed};
use crate::extension::Extension;
use crate::wire::{self, Writer};
use crate::Error;

/// Idle threads kept beyond the reader; more than this and finished
/// handlers exit instead of queueing for stdin.
const MAX_IDLE: usize = 4;

type Input = Box<dyn BufRead + Send>;

/// Runs `ext` on the process's real stdin/stdout.
pub(crate) fn run(ext: Extension) -> Result<(), Error> {
    let out = Arc::new(Writer::take_stdout()?);
    let input: Input = Box::new(BufReader::with_capacity(64 * 1024, io::stdin()));
    run_with(ext, input, out)
}

/// The handshake and the pool over any pipe pair.
pub(crate) fn run_with(
    mut ext: Extension,
    mut input: Input,
    out: Arc<Writer>,
) -> Result<(), Error> {
    let name = ext.name.clone();
    out.send(&ExtToHost::Hello(Hello {
        name: name.clone(),
        version: Some(ext.version.clone()).filter(|v| !v.is_empty()),
        capabilities: ext.inferred_capabilities(),
    }))?;

    let Some(host) = await_hello_ack(&name, &mut input, &out)? else {
        return Ok(());
    };
    if let Some(hook) = ext.on_hello.take() {
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| hook(&mut ext, &host))) {
            wire::log(
                &name,
                format!(
                    "on_hello panicked: {}; registering what was set up before it",
                    dispatch::panic_message(&*p)
                ),
            );
        }
    }
    announce(&ext, &out)?;

    let shared = Arc::new(Shared {
        handlers: Handlers::from_extension(&ext),
        ctx: Context::new(&name, host, out),
        input: Mutex::new(input),
        waiting: AtomicUsize::new(0),
        done: AtomicBool::new(false),
        finished: (Mutex::new(false), Condvar::new()),
        next_ticket: AtomicUsize::new(0),
        turn: (Mutex::new(0), Condvar::new()),
    });
    spawn_worker(&shared);
    let (lock, cv) = &shared.finished;
    let mut finished = lock.lock().unwrap_or_else(|e| e.into_inner());
    while !*finished {
        finished = cv.wait(finished).unwrap_or_else(|e| e.into_inner());
    }
    Ok(())
}

/// Reads until `hello_ack`. `None` means zot asked us to shut down first.
fn await_hello_ack(name: &str, input: &mut Input, out: &Writer) -> Result<Option<HostInfo>, Error> {
    let mut buf = Vec::new();
    loop {
        if !wire::read_line(input, &mut buf)? {
            return Err(Error::NoHelloAck);
        }
        match dispatch::parse(&buf) {
            Parsed::Frame(HostToExt::HelloAck(ack)) => return Ok(Some(ack.into())),
            Parsed::Frame(HostToExt::Shutdown(_)) => {
                out.send(&ExtToHost::ShutdownAck(ShutdownAck {}))?;
                return Ok(None);
            }
            Parsed::Frame(other) => {
                wire::log(name, format!("ignoring {other:?} sent before hello_ack"))
            }
            Parsed::Bad(_, why) => wire::log(name, why),
        }
    }
}

/// Sends every registration, the subscription, then `ready`.
fn announce(ext: &Extension, out: &Writer) -> Result<(), Error> {
    for c in &ext.commands {
        out.send(&ExtToHost::RegisterCommand(RegisterCommand {
            name: c.name.clone(),
            description: Some(c.description.clone()).filter(|d| !d.is_empty()),
        }))?;
    }
    for t in &ext.tools {
        out.send(&ExtToHost::RegisterTool(RegisterTool {
            name: t.name.clone(),
            description: Some(t.description.clone()).filter(|d| !d.is_empty()),
            schema: t.schema.clone(),
            deferred: t.deferred,
        }))?;
    }
    let mut sub = Subscribe::default();
    for (e, _) in &ext.events {
        let e = (*e).into();
        if !sub.events.contains(&e) {
            sub.events.push(e);
        }
    }
    use zot_ext_protocol::LifecycleEvent as L;
    for (set, e) in [
        (ext.on_tool_call.is_some(), L::ToolCall),
        (ext.on_turn_start.is_some(), L::TurnStart),
        (ext.on_assistant_message.is_some(), L::AssistantMessage),
    ] {
        if set {
            sub.intercept.push(e.into());
        }
    }
    if !sub.events.is_empty() || !sub.intercept.is_empty() {
        out.send(&ExtToHost::Subscribe(sub))?;
    }
    out.send(&ExtToHost::Ready(Ready {}))?;
    Ok(())
}

/// State every pool thread shares.
struct Shared {
    handlers: Handlers,
    ctx: Context,
    /// Whoever holds this is the reader.
    input: Mutex<Input>,
    /// Threads queued for the reader role; 0 means the reader must spawn.
    waiting: AtomicUsize,
    /// Set on `shutdown` or end of stdin; threads leave when they see it.
    done: AtomicBool,
    /// Signals `run` that the extension is finished.
    finished: (Mutex<bool>, Condvar),
    /// Tickets for ordered frames, handed out while `input` is held.
    next_ticket: AtomicUsize,
    /// The ticket whose turn it is.
    turn: (Mutex<usize>, Condvar),
}

impl Shared {
    fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
        let (lock, cv) = &self.finished;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cv.notify_all();
    }

    /// Runs an ordered frame when its ticket comes up.
    fn in_turn(&self, ticket: usize, f: impl FnOnce()) {
        let (lock, cv) = &self.turn;
        let mut turn = lock.lock().unwrap_or_else(|e| e.into_inner());
        while *turn != ticket {
            turn = cv.wait(turn).unwrap_or_else(|e| e.into_inner());
        }
        drop(turn);
        f(); // handlers are already panic-guarded in dispatch
        *lock.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        cv.notify_all();
    }
}

fn spawn_worker(shared: &Arc<Shared>) {
    let s = shared.clone();
    if let Err(e) = std::thread::Builder::new()
        .name("zot-ext".into())
        .spawn(move || worker(s))
    {
        shared
            .ctx
            .log(format!("could not start a handler thread: {e}"));
    }
}

fn worker(s: Arc<Shared>) {
    let mut buf = Vec::new();
    loop {
        s.waiting.fetch_add(1, Ordering::SeqCst);
        let (frame, ticket) = {
            let mut input = s.input.lock().unwrap_or_else(|e| e.into_inner());
            s.waiting.fetch_sub(1, Ordering::SeqCst);
            if s.done.load(Ordering::SeqCst) {
                return;
            }
            match wire::read_line(&mut *input, &mut buf) {
                Ok(true) => {}
                Ok(false) => return s.finish(),
                Err(e) => {
                    s.ctx.log(format!("reading from zot failed: {e}"));
                    return s.finish();
                }
            }
            let frame = match dispatch::parse(&buf) {
                Parsed::Frame(f) => f,
                Parsed::Bad(reply, why) => {
                    s.ctx.log(why);
                    if let Some(r) = reply {
                        s.ctx.send(r);
                    }
                    continue;
                }
            };
            if matches!(frame, HostToExt::Shutdown(_)) {
                // Still holding stdin, so nothing else is read after it.
                dispatch::dispatch(&s.handlers, &s.ctx, frame);
                return s.finish();
            }
            let ticket =
                dispatch::is_ordered(&frame).then(|| s.next_ticket.fetch_add(1, Ordering::SeqCst));
            if s.waiting.load(Ordering::SeqCst) == 0 {
                spawn_worker(&s);
            }
            (frame, ticket)
        };
        match ticket {
            Some(t) => s.in_turn(t, || dispatch::dispatch(&s.handlers, &s.ctx, frame)),
            None => dispatch::dispatch(&s.handlers, &s.ctx, frame),
        }
        if s.done.load(Ordering::SeqCst) || s.waiting.load(Ordering::SeqCst) >= MAX_IDLE {
            return;
        }
    }
}
