//! `qe replay --step [--seat N]`: a game record walked through auction by auction, as one seat (or
//! a spectator) saw it while the game ran: each auction's events redacted for that viewer
//! ([`qe_core::Event::as_seen`], R-VIS-1…5, R-VIS-8), then its view of the table (its `SeatView`
//! and what it can prove of each seat's spending). Once the game is over everything is revealed
//! (R-VIS-7), as at the end of `qe play`.

use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write as _};

use qe_core::visibility::Viewer;
use qe_core::{BidStage, Deduction, Event, Match, Record, Seat, SeatView};

use crate::layout::fit;
use crate::manifest::setup_message;
use crate::show::{event_line, phase_text, screen, seat_list, seat_name, tile_name, turn_text};
use crate::Failure;

/// How the walk pauses between auctions.
pub enum Pause {
    /// Wait for Enter (standard input is a terminal); `q` stops.
    Enter,
    /// Go on at once (standard input is a pipe, or holds the record).
    Never,
}

impl Pause {
    /// [`Pause::Enter`] when standard input is a terminal and does not hold the record.
    pub fn for_stdin(record_on_stdin: bool) -> Pause {
        if !record_on_stdin && std::io::stdin().is_terminal() {
            Pause::Enter
        } else {
            Pause::Never
        }
    }

    /// Waits for the reader; `false` when it asks to stop (`q`, or the end of the input).
    fn wait(&self) -> bool {
        match self {
            Pause::Never => true,
            Pause::Enter => {
                print!("── Enter: next auction · q: stop ── ");
                let _ = std::io::stdout().flush();
                let mut line = String::new();
                match std::io::stdin().lock().read_line(&mut line) {
                    Ok(0) | Err(_) => false,
                    Ok(_) => !line.trim().eq_ignore_ascii_case("q"),
                }
            }
        }
    }
}

/// The viewer's view of the game as it stands, with what it can prove of each seat's spending.
fn view_of(m: &Match, seat: Option<Seat>) -> (SeatView, Deduction) {
    if let Some(s) = seat {
        return (m.game().view(s), m.deduce(s));
    }
    let view = m.game().public_view();
    let deduction = Deduction::from_view(&view);
    (view, deduction)
}

/// Prints the events `events` as `seat` saw them while the game ran (`None`: a spectator).
fn tell(m: &Match, seat: Option<Seat>, events: &[Event], width: usize) {
    let rules = m.game().rules();
    let viewer = Viewer::new(seat, m.game().players(), false);
    let (view, _) = view_of(m, seat);
    for e in events {
        if let Some(line) = event_line(&view, rules, &e.as_seen(viewer)) {
            println!("{}", fit(&format!("· {line}"), width));
        }
    }
}

/// Every bid of a finished game, auction by auction (R-VIS-7: all revealed at the end).
fn every_bid(m: &Match) -> String {
    let view = m.game().public_view();
    let mut out = String::from("every bid, revealed (R-VIS-7):\n");
    let bids = m.bid_history(None);
    for a in view.auctions().iter().filter(|a| a.awarded) {
        let mut parts = Vec::new();
        if let (Some(o), Some(s)) = (a.opening, a.auctioneer) {
            parts.push(format!("{} opened {o}", seat_name(&view, s)));
        }
        for b in bids.iter().filter(|b| b.turn == a.turn) {
            let stage = match b.stage {
                BidStage::Secret => String::new(),
                BidStage::Rebid(n) => format!(" (rebid {n})"),
                BidStage::AssetRebid(n) => format!(" (asset rebid {n})"),
                _ => String::new(),
            };
            let amount = b.amount.map_or_else(|| "?".to_owned(), |x| x.to_string());
            parts.push(format!("{}{stage} {amount}", seat_name(&view, b.seat)));
        }
        let _ = writeln!(out, "  turn {:>2}: {}", a.turn, parts.join(", "));
    }
    out
}

/// Walks through `record` (which replays without error) auction by auction as `seat` saw it.
pub fn run(record: &Record, seat: Option<u8>, pause: &Pause, width: usize) -> Result<(), Failure> {
    let bad = |m: String| Failure::BadInput(format!("bad record: {m}"));
    let rules = record.rules().map_err(|e| bad(setup_message(&e)))?;
    let setup = record.setup(&rules).map_err(|e| bad(setup_message(&e)))?;
    let mut m = Match::with_setup(rules, setup).map_err(|e| bad(setup_message(&e)))?;
    if let Some(s) = seat.filter(|&s| s >= rules.players()) {
        return Err(Failure::Usage(format!(
            "--seat {s}: a {}-player game has seats 0 to {}",
            rules.players(),
            rules.players() - 1
        )));
    }
    let seat = seat.map(Seat);
    let (view, _) = view_of(&m, seat);
    let who = match seat {
        Some(s) => format!("as {} saw it", seat_name(&view, s)),
        None => "as a spectator saw it (public information only)".to_owned(),
    };
    println!(
        "{}",
        fit(
            &format!(
                "Step by step, auction by auction, {who}: {} players{}, {} commands",
                rules.players(),
                crate::manifest::title(rules.expansions(), ""),
                record.commands.len()
            ),
            width
        )
    );
    if let Some(s) = seat {
        let token = view.seats[s].industry.map_or("?", |i| i.name());
        println!("your industry token: {token} (hidden from the other seats, R-VIS-2)");
    }

    // Events are told per auction: from the reveal of its tile to the reveal of the next.
    let rules = *m.game().rules();
    let heading = |turn: u8| {
        println!();
        println!(
            "{}",
            fit(
                &format!("════ auction of {} ════", turn_text(&rules, turn)),
                width
            )
        );
    };
    let mut turn = m.game().turn();
    heading(turn);
    tell(&m, seat, m.events(), width);
    let mut told = m.events().len();
    let commands: Vec<_> = record
        .commands
        .iter()
        .filter_map(|c| c.clone().ok())
        .collect();
    for command in commands {
        m.apply(command)
            .map_err(|e| Failure::Illegal(e.to_string()))?;
        let over = m.game().is_over();
        if m.game().turn() == turn && !over {
            continue;
        }
        // The auction of `turn` is settled: its events end where the next tile is revealed.
        let next_reveal = m.events()[told..]
            .iter()
            .position(|e| matches!(e, Event::TileRevealed { turn: t, .. } if *t > turn))
            .map_or(m.events().len(), |k| told + k);
        tell(&m, seat, &m.events()[told..next_reveal], width);
        told = next_reveal;
        if over {
            break;
        }
        let (view, deduction) = view_of(&m, seat);
        print!("{}", fit(&screen(&view, &rules, &deduction), width));
        if !pause.wait() {
            return Ok(());
        }
        turn = m.game().turn();
        heading(turn);
        tell(&m, seat, &m.events()[told..], width);
        told = m.events().len();
    }
    if m.game().is_over() {
        println!();
        crate::play::print_end(&m, &rules, width);
        print!("{}", fit(&every_bid(&m), width));
        return Ok(());
    }
    // The record stops before the end of the game: the view, then who must act.
    tell(&m, seat, &m.events()[told..], width);
    let (view, deduction) = view_of(&m, seat);
    print!("{}", fit(&screen(&view, &rules, &deduction), width));
    println!();
    let game = m.game();
    println!(
        "{}",
        fit(
            &format!(
                "the record ends here, before the game does: turn {}{}; {}; to act: {}",
                game.turn(),
                game.current_tile().map_or(String::new(), |t| format!(
                    ", {} up for auction",
                    tile_name(&rules, t)
                )),
                phase_text(&view, game.phase()),
                seat_list(&view, game.to_act())
            ),
            width
        )
    );
    Ok(())
}
