//! The handshake, then the loop that reads frames and runs handlers.
//!
//! One thread at a time is the reader. It reads a frame and runs the handler
//! itself, inline, so a frame reaches its handler with no queue, no thread
//! hand-off and no wake-up syscall: the hot path costs what a hand-written
//! loop costs (see the SDK section of docs/performance.md). A watchdog
//! thread looks at the reader every millisecond while frames are flowing;
//! when one handler has run for a whole tick, the watchdog promotes another
//! thread (an idle one, or a new one) to reader, so a slow tool delays other
//! frames by a millisecond or two, never by its own duration. The slow
//! handler's thread, once done, sees it lost the reader role and goes idle.
//! Keys, panel closes and events take a ticket when read and run in ticket
//! order, so a panel never sees `x` before the `down` that preceded it.

use std::io::{self, BufRead, BufReader};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use zot_ext_protocol::{
    ExtToHost, Hello, HostToExt, Ready, RegisterCommand, RegisterTool, ShutdownAck, Subscribe,
};

use crate::context::{Context, HostInfo};
use crate::dispatch::{self, Handlers, Parsed};
use crate::extension::Extension;
use crate::wire::{self, Writer};
use crate::Error;

/// Idle threads kept for promotion; more than this and demoted threads exit.
const MAX_IDLE: usize = 4;
/// How often the watchdog looks at the reader while frames are flowing.
const TICK: Duration = Duration::from_millis(1);
/// Ticks without a running handler before the watchdog parks itself, so an
/// idle extension uses no CPU.
const IDLE_TICKS: u32 = 50;

type Input = Box<dyn BufRead + Send>;

// `run` is declared here rather than beside the builder methods so the
// extension module stays below the runtime: the runtime reads what an
// `Extension` registered, the extension knows nothing of how it is run.
impl Extension {
    /// Speaks the protocol on stdin/stdout until zot sends `shutdown` (then
    /// `Ok`) or closes stdin (also `Ok`: zot is gone, there is no one left
    /// to tell).
    pub fn run(self) -> Result<(), Error> {
        let out = Arc::new(Writer::take_stdout()?);
        let input: Input = Box::new(BufReader::with_capacity(64 * 1024, io::stdin()));
        run_with(self, input, out)
    }
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
        auth: None,
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
        busy: AtomicU64::new(0),
        next_seq: AtomicU64::new(1),
        idle: (Mutex::new(Idle::default()), Condvar::new()),
        watchdog: (Mutex::new(()), Condvar::new()),
        watchdog_parked: AtomicBool::new(false),
        done: AtomicBool::new(false),
        finished: (Mutex::new(false), Condvar::new()),
        next_ticket: AtomicUsize::new(0),
        turn: (Mutex::new(0), Condvar::new()),
    });
    {
        let s = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("zot-ext-watchdog".into())
            .spawn(move || watchdog(s));
        if let Err(e) = spawned {
            // Without it handlers still run, only one at a time.
            shared
                .ctx
                .log(format!("could not start the watchdog thread: {e}"));
        }
    }
    spawn_reader(&shared);
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
            ..Default::default()
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
    /// The reader takes this to read one line; never held while handling.
    input: Mutex<Input>,
    /// The sequence number of the frame the reader is handling, 0 when it
    /// is reading. Whoever swaps a non-zero value out of it owns the
    /// decision: the reader (done in time, stays reader) or the watchdog
    /// (too slow, elects another reader). Exactly one reader at all times.
    busy: AtomicU64,
    next_seq: AtomicU64,
    /// Idle threads waiting to be promoted.
    idle: (Mutex<Idle>, Condvar),
    /// The watchdog parks here when nothing is flowing.
    watchdog: (Mutex<()>, Condvar),
    watchdog_parked: AtomicBool,
    /// Set on `shutdown` or end of stdin; threads leave when they see it.
    done: AtomicBool,
    /// Signals `run` that the extension is finished.
    finished: (Mutex<bool>, Condvar),
    /// Tickets for ordered frames, handed out by the reader.
    next_ticket: AtomicUsize,
    /// The ticket whose turn it is.
    turn: (Mutex<usize>, Condvar),
}

/// The idle pool: how many wait, and how many promotions are pending.
#[derive(Default)]
struct Idle {
    waiting: usize,
    promotions: usize,
}

impl Shared {
    fn finish(&self) {
        self.done.store(true, Ordering::SeqCst);
        let (lock, cv) = &self.finished;
        *lock.lock().unwrap_or_else(|e| e.into_inner()) = true;
        cv.notify_all();
        self.idle.1.notify_all();
        self.watchdog.1.notify_all();
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

    /// Makes another thread the reader: an idle one if any, else a new one.
    fn promote(self: &Arc<Self>) {
        let (lock, cv) = &self.idle;
        let mut idle = lock.lock().unwrap_or_else(|e| e.into_inner());
        if idle.waiting > idle.promotions {
            idle.promotions += 1;
            cv.notify_one();
        } else {
            drop(idle);
            spawn_reader(self);
        }
    }

    /// Waits in the idle pool; `true` once promoted, `false` to exit.
    fn wait_for_promotion(&self) -> bool {
        let (lock, cv) = &self.idle;
        let mut idle = lock.lock().unwrap_or_else(|e| e.into_inner());
        if idle.waiting >= MAX_IDLE {
            return false;
        }
        idle.waiting += 1;
        while idle.promotions == 0 && !self.done.load(Ordering::SeqCst) {
            idle = cv.wait(idle).unwrap_or_else(|e| e.into_inner());
        }
        idle.waiting -= 1;
        if idle.promotions == 0 {
            return false;
        }
        idle.promotions -= 1;
        true
    }

    /// Wakes the watchdog if it parked (once per burst of frames).
    fn kick_watchdog(&self) {
        if self.watchdog_parked.swap(false, Ordering::SeqCst) {
            let _guard = self.watchdog.0.lock().unwrap_or_else(|e| e.into_inner());
            self.watchdog.1.notify_one();
        }
    }
}

fn spawn_reader(shared: &Arc<Shared>) {
    let s = shared.clone();
    if let Err(e) = std::thread::Builder::new()
        .name("zot-ext".into())
        .spawn(move || reader(s))
    {
        shared
            .ctx
            .log(format!("could not start a handler thread: {e}"));
    }
}

/// A pool thread: the reader until a slow handler loses it the role, then
/// idle until promoted again.
fn reader(s: Arc<Shared>) {
    let mut buf = Vec::new();
    loop {
        if !read_and_handle(&s, &mut buf) {
            // Demoted (or finished): wait to be the reader again.
            if s.done.load(Ordering::SeqCst) || !s.wait_for_promotion() {
                return;
            }
        }
    }
}

/// Reads one frame and handles it; `true` if this thread is still the
/// reader afterwards.
fn read_and_handle(s: &Arc<Shared>, buf: &mut Vec<u8>) -> bool {
    if s.done.load(Ordering::SeqCst) {
        return false;
    }
    let read = {
        let mut input = s.input.lock().unwrap_or_else(|e| e.into_inner());
        wire::read_line(&mut *input, buf)
    };
    match read {
        Ok(true) => {}
        Ok(false) => {
            s.ctx.dialogs.close();
            s.finish();
            return false;
        }
        Err(e) => {
            s.ctx.log(format!("reading from zot failed: {e}"));
            s.ctx.dialogs.close();
            s.finish();
            return false;
        }
    }
    let frame = match dispatch::parse(buf) {
        Parsed::Frame(f) => f,
        Parsed::Bad(reply, why) => {
            s.ctx.log(why);
            if let Some(r) = reply {
                s.ctx.send(r);
            }
            return true;
        }
    };
    if matches!(frame, HostToExt::Shutdown(_)) {
        // Nothing is read after it: this thread keeps the reader role.
        dispatch::dispatch(&s.handlers, &s.ctx, frame);
        s.finish();
        return false;
    }
    let ticket = dispatch::is_ordered(&frame).then(|| s.next_ticket.fetch_add(1, Ordering::SeqCst));
    let seq = s.next_seq.fetch_add(1, Ordering::Relaxed);
    s.busy.store(seq, Ordering::SeqCst);
    s.kick_watchdog();
    match ticket {
        Some(t) => s.in_turn(t, || dispatch::dispatch(&s.handlers, &s.ctx, frame)),
        None => dispatch::dispatch(&s.handlers, &s.ctx, frame),
    }
    // Still ours unless the watchdog promoted someone else meanwhile.
    s.busy
        .compare_exchange(seq, 0, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
}

/// Promotes a new reader when the current one has been handling the same
/// frame for a whole tick; parks when nothing is flowing.
fn watchdog(s: Arc<Shared>) {
    let mut quiet = 0;
    let mut last = 0;
    while !s.done.load(Ordering::SeqCst) {
        std::thread::sleep(TICK);
        let now = s.busy.load(Ordering::SeqCst);
        if now != 0 && now == last {
            if s.busy
                .compare_exchange(now, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                s.promote();
            }
            last = 0;
            continue;
        }
        last = now;
        quiet = if now == 0 { quiet + 1 } else { 0 };
        if quiet >= IDLE_TICKS {
            let (lock, cv) = &s.watchdog;
            let mut guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            s.watchdog_parked.store(true, Ordering::SeqCst);
            // Re-check after announcing the park, so a frame that started
            // in between is not missed.
            while s.watchdog_parked.load(Ordering::SeqCst)
                && s.busy.load(Ordering::SeqCst) == 0
                && !s.done.load(Ordering::SeqCst)
            {
                guard = cv.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
            s.watchdog_parked.store(false, Ordering::SeqCst);
            quiet = 0;
            last = 0;
        }
    }
}
