//! The host's one outward stream: [`HostEvent`]s on a bounded queue the app
//! drains. A leaf: it knows nothing of extensions, so every other module
//! can post without importing the host.

use tokio::sync::mpsc;
use zot_ext_protocol::rpc::UiEvent;

/// How many host events may wait for the app before new ones are dropped.
pub const EVENT_QUEUE: usize = 1024;

/// Something the app should show or do, in the order it happened.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum HostEvent {
    /// Notes, panel frames, errors and registry changes, ready for the UI.
    Ui(UiEvent),
    /// An extension's `submit` (blank text is already dropped).
    Submit {
        /// Who submitted.
        extension: String,
        /// The prompt.
        text: String,
    },
}

/// The sending end of the event queue.
#[derive(Clone)]
pub(crate) struct Bus(mpsc::Sender<HostEvent>);

impl Bus {
    /// A bus and the receiver the app drains, holding [`EVENT_QUEUE`] events.
    pub fn new() -> (Bus, mpsc::Receiver<HostEvent>) {
        let (tx, rx) = mpsc::channel(EVENT_QUEUE);
        (Bus(tx), rx)
    }

    /// Queues `ev`; returns `false` only when it was dropped because the
    /// queue is full (an app that stopped listening is not an error).
    pub fn post(&self, ev: HostEvent) -> bool {
        !matches!(self.0.try_send(ev), Err(mpsc::error::TrySendError::Full(_)))
    }
}
