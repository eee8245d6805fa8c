//! Ctrl-C (SIGINT), and the termination signals SIGTERM and SIGHUP (a closed terminal), handled
//! alike. The first asks the running command to stop: `qe simulate` stops starting games, stops
//! waiting for `exec:` agents, and prints the table of the games finished so far; `qe play` saves
//! its record (a SPOILER when the game is unfinished) and stops. Either way `qe` exits with
//! [`EXIT_CODE`]. A second one stops `qe` at once.

use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code after a Ctrl-C: 128 + SIGINT, as a shell reports a command that SIGINT killed.
pub const EXIT_CODE: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Handles Ctrl-C from now on: it sets [`requested`], then runs `action` (on a thread of its
/// own, while the rest of the program runs on). Call it once.
pub fn install(action: impl Fn() + Send + 'static) {
    let installed = ctrlc::set_handler(move || {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            crate::agent::stop_all();
            std::process::exit(EXIT_CODE.into());
        }
        action();
    });
    if let Err(e) = installed {
        eprintln!("qe: Ctrl-C will stop qe at once: {e}");
    }
}

/// Whether Ctrl-C was pressed.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
