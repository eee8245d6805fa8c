//! The progress bar of `qe simulate`: [`indicatif`], drawn on standard error, and only when it is a
//! terminal; never in `--json` output or when standard error is piped or redirected.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// A progress bar over `total` games, or nothing when it must not be drawn.
pub struct Progress {
    bar: Option<ProgressBar>,
}

/// The bar: games done of the total, the rate, the time elapsed and the estimated time left, then
/// a message (the `--sprt` test's LLR).
const TEMPLATE: &str =
    "[{bar:30}] {human_pos}/{human_len} games · {rate} · {elapsed} · ETA {eta}{msg}";

impl Progress {
    /// A bar over `total` games, drawn when `wanted` (not `--json`) and standard error is a
    /// terminal.
    pub fn new(total: u64, wanted: bool) -> Progress {
        if !wanted || !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let style = ProgressStyle::with_template(TEMPLATE)
            .expect("a valid template")
            .with_key(
                "rate",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{:.0} games/s", state.per_sec());
                },
            )
            .progress_chars("#>.");
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
            .with_style(style);
        Progress { bar: Some(bar) }
    }

    /// Whether the bar is drawn.
    pub fn is_drawn(&self) -> bool {
        self.bar.is_some()
    }

    /// Sets the number of games done.
    pub fn set(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
        }
    }

    /// Sets the text shown after the bar.
    pub fn message(&self, text: String) {
        if let Some(bar) = &self.bar {
            bar.set_message(text);
        }
    }

    /// Leaves the bar as it stands (complete, or where an interruption stopped it), and ends its
    /// line, so that what follows starts on a line of its own.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.abandon();
            eprintln!();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_is_valid_and_no_bar_is_drawn_when_not_wanted() {
        assert!(ProgressStyle::with_template(TEMPLATE).is_ok());
        let p = Progress::new(10, false);
        assert!(!p.is_drawn());
        p.set(5);
        p.message(" · LLR 0.5".into());
        p.finish();
    }
}
