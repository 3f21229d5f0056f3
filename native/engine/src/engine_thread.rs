//! The engine thread's body under supervision (see [`crate::supervisor`]).

use crate::engine::Command;
use crate::fault::{self, Fault, Message, Work};
use crate::ingest::Core;
use crate::net::Datagram;
use std::sync::mpsc::{Receiver, Sender};

/// Runs the engine thread's loop; a panic is reported (charged to what it was working on),
/// the graph dropped, and the loop starts again, empty, until the supervisor rebuilds it.
pub(crate) fn engine_thread(
    mut core: Core,
    data: Receiver<Datagram>,
    commands: Receiver<Command>,
    faults: Sender<Message>,
) {
    loop {
        let run = std::panic::AssertUnwindSafe(|| core.run(&data, &commands));
        match std::panic::catch_unwind(run) {
            Ok(()) => return,
            Err(payload) => {
                // Charged before the graph goes: the culprit's name is read from it.
                let culprit = core.culprit(fault::current_work());
                let fault = Fault::caught("trib-engine".into(), &*payload, culprit, true);
                fault::working_on(Work::Idle);
                core.discard_graph();
                if faults.send(Message::Fault(fault)).is_err() {
                    return;
                }
            }
        }
    }
}
