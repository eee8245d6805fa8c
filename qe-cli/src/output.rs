//! A standard output that cannot be written (`qe … | head -1`, a full disk): what happens then.
//! The `print!`/`println!` of this crate call [`failed`].

use std::io::{ErrorKind, Write};
use std::sync::{Mutex, PoisonError};

/// The exit code when standard output is a closed pipe: 128 + SIGPIPE, as a shell reports a
/// program that SIGPIPE stopped.
pub const BROKEN_PIPE_EXIT_CODE: i32 = 141;

type Hook = Box<dyn FnOnce() + Send>;

static ON_FAILURE: Mutex<Option<Hook>> = Mutex::new(None);

/// Runs `hook` once if standard output fails, before `qe` exits: `qe play` saves its record.
pub fn on_failure(hook: impl FnOnce() + Send + 'static) {
    *ON_FAILURE.lock().unwrap_or_else(PoisonError::into_inner) = Some(Box::new(hook));
}

/// Standard output failed with `e`: runs the [`on_failure`] hook, then exits, quietly with
/// [`BROKEN_PIPE_EXIT_CODE`] for a closed pipe, else as bad input does (exit 3) with a message.
pub fn failed(e: &std::io::Error) -> ! {
    let hook = ON_FAILURE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take();
    if let Some(hook) = hook {
        hook();
    }
    crate::agent::stop_all();
    if e.kind() == ErrorKind::BrokenPipe {
        std::process::exit(BROKEN_PIPE_EXIT_CODE);
    }
    let failure = crate::Failure::BadInput(format!("cannot write the output: {e}"));
    let _ = writeln!(std::io::stderr(), "qe: {}", failure.message());
    std::process::exit(failure.code().into());
}
