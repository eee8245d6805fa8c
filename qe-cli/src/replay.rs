//! `qe replay [--json] FILE`: `RECORD.md`, "Replaying".

use std::path::PathBuf;

use clap::Args;
use qe_core::{Record, ReplayError};
use serde_json::json;

use crate::manifest::{self, setup_message};
use crate::show::{outcome_table, phase_text, seat_list, tile_name, turn_text};
use crate::{Common, Failure};

/// Extra `--help` text.
pub const HELP: &str = "\
Replays FILE (`-` for standard input) as RECORD.md says:
  - the game ended: prints the outcome (a score table, or with --json the RECORD.md outcome JSON
    {\"seats\": [...]}) and exits 0;
  - the game has not ended: prints the phase and who must act, exits 0;
  - a command is illegal: prints `command K: R-…: message` (K is 0-based) on stderr, exits 1;
  - the record is malformed: prints `qe: bad record: …` before running any command, exits 3.
--manifest FILE supplies the values for a record without its own `manifest` field; a record's own
manifest always wins.
--step walks through a record (one that replays without an illegal command) auction by auction,
as the seat --seat N saw it, or without --seat as a spectator saw it (public information only):
each auction's events as that viewer saw them while the game ran, then its view of the table.
When standard input is a terminal it pauses for Enter between auctions (q stops); piped, it does
not pause. After the end everything is revealed (R-VIS-7) with the score breakdown.";

/// `qe replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// Print JSON: the outcome as {"seats": [...]}, or {"pending": …} / {"illegal": …}
    #[arg(long, conflicts_with = "step")]
    pub json: bool,
    /// Walk through the game auction by auction, as --seat N (or a spectator) saw it
    #[arg(long)]
    pub step: bool,
    /// With --step: the seat whose view is shown (default: a spectator, public information only)
    #[arg(long, requires = "step", value_parser = clap::value_parser!(u8).range(0..=4), value_name = "N")]
    pub seat: Option<u8>,
    /// The game record (qe-record/1 JSON); `-` reads standard input
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// Runs `qe replay`.
pub fn run(common: &Common, args: &ReplayArgs) -> Result<(), Failure> {
    // clap's `requires` is not checked here when --json is given (it conflicts with --step).
    if args.seat.is_some() && !args.step {
        return Err(Failure::Usage(
            "--seat chooses whose view --step shows: give --step with it".into(),
        ));
    }
    if args.file.as_os_str() == "-" && common.manifest.as_deref() == Some("-".as_ref()) {
        return Err(Failure::Usage(
            "the record and the manifest cannot both be read from standard input ('-')".into(),
        ));
    }
    let loaded = manifest::load(common)?;
    let text = crate::input::read_text(&args.file, "record")?;
    let bad = |m: String| Failure::BadInput(format!("bad record: {m}"));
    // --manifest fills in a record without its own manifest; a record's own manifest wins.
    let record = Record::from_json_with_manifest(&text, loaded.map(|l| l.manifest))
        .map_err(|e| bad(setup_message(&e)))?;
    let m = match record.replay() {
        Ok(m) => m,
        Err(ReplayError::Setup(e)) => return Err(bad(setup_message(&e))),
        Err(err @ ReplayError::Command { .. }) => {
            if args.json {
                if let ReplayError::Command { index, error } = &err {
                    println!(
                        "{:#}",
                        json!({ "illegal": {
                            "index": index,
                            "rule": error.rule(),
                            "code": error.code(),
                            "message": error.to_string(),
                        }})
                    );
                }
            }
            return Err(Failure::Illegal(err.to_string()));
        }
    };
    if args.step {
        let pause = crate::step::Pause::for_stdin(args.file.as_os_str() == "-");
        return crate::step::run(&record, args.seat, &pause, crate::layout::width());
    }
    let game = m.game();
    if let Some(outcome) = game.outcome() {
        if args.json {
            println!(
                "{}",
                serde_json::to_string_pretty(&outcome).expect("an outcome serializes")
            );
        } else {
            println!(
                "game over after {} commands ({} players{})",
                m.commands().len(),
                game.players(),
                crate::manifest::titled(game.rules().expansions(), ", ", "")
            );
            print!("{}", outcome_table(&outcome));
        }
        return Ok(());
    }
    // Pending: the phase and who must act.
    let view = game.public_view();
    if args.json {
        let to_act: Vec<u8> = game.to_act().iter().map(|s| s.0).collect();
        println!(
            "{:#}",
            json!({ "pending": {
                "turn": game.turn(),
                "tile": game.current_tile().map(|t| t.to_string()),
                "phase": game.phase(),
                "to_act": to_act,
            }})
        );
    } else {
        println!(
            "pending after {} commands: {}{}",
            m.commands().len(),
            turn_text(game.rules(), game.turn()),
            game.current_tile().map_or(String::new(), |t| format!(
                ", {} up for auction",
                tile_name(game.rules(), t)
            ))
        );
        println!("phase: {}", phase_text(&view, game.phase()));
        println!("to act: {}", seat_list(&view, game.to_act()));
    }
    Ok(())
}
