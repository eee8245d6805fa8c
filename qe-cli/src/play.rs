//! `qe play`: humans against bots in the terminal, reading commands from standard input (a terminal
//! or a pipe). Each prompt shows only the acting seat's `SeatView` (R-VIS-1…5); hot-seat mode hides
//! the screen between seats; the end shows everything (R-VIS-7) and the score breakdown.

use std::fmt::Write as _;
use std::io::{BufRead, IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use clap::Args;
use qe_core::bots::{by_name_with, BoxedBot};
use qe_core::{
    AssetKind, BidRange, Command, Legal, Manifest, Match, Phase, PileSet, Rules, Seat, SeatView,
};

use crate::layout::fit;
use crate::lines::Line;
use crate::show::{event_line, history, outcome_table, screen, seat_name};
use crate::{interrupt, manifest, Common, Failure};

/// Extra `--help` text.
pub const HELP: &str = "\
At each prompt, type one of:
  N | bid N          bid N (opening bid, secret bid, rebid or asset rebid)
  take PILE          take the top token of a pile (gold, oil, crypto) when you take the asset
  discard PILE       discard the top token of a pile when no one takes the asset
  PILE               take or discard, whichever is your move
  peek T             5 players: see the price of the auction of turn T (once per game)
  view               show your screen again
  help               list the commands
  quit               stop (as does the end of the input)
Commands may be typed in any case (BID 5, Take Gold). A bad line gets a message and a new prompt.
Standard input may be a pipe (one command a line). The screen fits the terminal's width (else
$COLUMNS, else 100 columns). Next to each seat, spent is what you can prove of its total (`?`:
nothing useful). Turns count from 0 (16 turns, 15 with 5 players); a round is one turn per seat,
each seat the auctioneer once (R-TRN-2), and a seat's zero bids score once a round (R-SCO-5).
--record FILE saves the game record (qe-record/1), also when the game is abandoned (end of the
input, quit, Ctrl-C); the record of an unfinished game is a spoiler, and says so.
Hot-seat: --humans 0,2 lets several people share the terminal; the screen is hidden and the next
seat asked to press Enter before each of them plays (or to type quit there to stop).";

/// A comma-separated list of bot names.
#[derive(Clone, Debug)]
pub struct BotList(pub Vec<String>);

/// A comma-separated list of seats.
#[derive(Clone, Debug)]
pub struct SeatList(pub Vec<u8>);

fn parse_seat_list(text: &str) -> Result<SeatList, String> {
    crate::parse_seats(text).map(SeatList)
}

fn parse_bot_list(text: &str) -> Result<BotList, String> {
    crate::parse_bots(text).map(BotList)
}

/// `qe play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Number of players, 3 to 5
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=5))]
    pub players: u8,
    #[command(flatten)]
    pub expansions: crate::manifest::ExpansionArgs,
    /// Your seat, 0 to players-1 (seat 0 auctions first)
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub seat: u8,
    /// Game seed (default: from the clock; printed so the game can be replayed)
    #[arg(long, value_name = "S", value_parser = crate::parse_seed)]
    pub seed: Option<u64>,
    /// Bots for the other seats in seat order, comma-separated (value, random, miser, search,
    /// search:easy, search:medium, search:hard, search:mixed, search:ms=MS); a shorter list repeats
    #[arg(long, value_parser = parse_bot_list, default_value = "value", value_name = "LIST")]
    pub bots: BotList,
    /// Save the game record (qe-record/1 JSON) to FILE
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Hot-seat: the seats played by humans at this terminal, e.g. 0,2 (overrides --seat)
    #[arg(long, value_parser = parse_seat_list, value_name = "SEATS")]
    pub humans: Option<SeatList>,
}

/// What a line of input asks for.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    Command(Command),
    View,
    Help,
    Quit,
    Nothing,
}

/// The pile names, as the core spells them, in order: `gold, oil, crypto`.
fn pile_names() -> String {
    let names: Vec<&str> = AssetKind::ALL.iter().map(|k| k.name()).collect();
    names.join(", ")
}

/// Parses one line for `seat`, whose legal actions are `legal`. Commands and pile names may be
/// in any case (`BID 5`, `Take Gold`).
fn parse_line(line: &str, seat: Seat, legal: &Legal) -> Result<Input, String> {
    let line = line.to_lowercase();
    let words: Vec<&str> = line.split_whitespace().collect();
    let pile = |w: &str| -> Result<AssetKind, String> {
        w.to_ascii_lowercase()
            .parse()
            .map_err(|_| format!("`{w}` is not a pile: the piles are {}", pile_names()))
    };
    let amount = |w: &str| -> Result<u64, String> {
        w.parse::<u64>().map_err(|_| {
            format!(
                "`{w}` is not a bid: a bid is a whole number from 0 to {} (R-AUC-4)",
                u64::MAX
            )
        })
    };
    let bid = |w: &str| -> Result<Input, String> {
        Ok(Input::Command(Command::Bid {
            seat,
            amount: amount(w)?,
        }))
    };
    let take_or_discard = |kind: AssetKind| -> Result<Input, String> {
        if legal.discard.is_empty() {
            Ok(Input::Command(Command::TakeAsset { seat, kind }))
        } else {
            Ok(Input::Command(Command::DiscardAsset { seat, kind }))
        }
    };
    match words.as_slice() {
        [] => Ok(Input::Nothing),
        ["help" | "h" | "?"] => Ok(Input::Help),
        ["view" | "v" | "show"] => Ok(Input::View),
        ["quit" | "q" | "exit"] => Ok(Input::Quit),
        ["bid" | "b", w] => bid(w),
        ["take" | "t", w] => Ok(Input::Command(Command::TakeAsset {
            seat,
            kind: pile(w)?,
        })),
        ["discard" | "d", w] => Ok(Input::Command(Command::DiscardAsset {
            seat,
            kind: pile(w)?,
        })),
        ["peek" | "p", w] => {
            let turn: u8 = w
                .parse()
                .map_err(|_| format!("`{w}` is not a turn number"))?;
            Ok(Input::Command(Command::Peek { seat, turn }))
        }
        ["bid" | "b"] => Err("bid needs an amount: bid 5".into()),
        ["take" | "t"] => Err(format!(
            "take needs a pile: take gold (piles: {})",
            pile_names()
        )),
        ["discard" | "d"] => Err(format!(
            "discard needs a pile: discard oil (piles: {})",
            pile_names()
        )),
        ["peek" | "p"] => Err("peek needs a turn: peek 3".into()),
        [w @ ("bid" | "b" | "take" | "t" | "discard" | "d" | "peek" | "p"), _, extra, ..] => Err(
            format!("`{w}` takes one word after it; `{extra}` is one too many"),
        ),
        [w] if w.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '+') => bid(w),
        [w] if pile(w).is_ok() => take_or_discard(pile(w)?),
        [w, ..] => Err(format!(
            "unknown command `{w}` (type `help` for the commands)"
        )),
    }
}

/// Why `command` is not the kind of move the seat can make now, saying what to type instead;
/// `None` when it is the right kind (the rules then judge it). The prompt asks for a bid, a pile
/// to take from (R-COM-5) or a pile to discard from (R-COM-7), and a game without Commodities has
/// no piles at all (R-COM-1).
fn misplaced(command: Command, view: &SeatView) -> Option<String> {
    let legal = view.legal;
    let piles = |set: PileSet| {
        let names: Vec<&str> = set.iter().map(AssetKind::name).collect();
        names.join(", ")
    };
    let pile_move = matches!(
        command,
        Command::TakeAsset { .. } | Command::DiscardAsset { .. }
    );
    if pile_move && !view.expansions.contains(qe_core::Expansion::Commodities) {
        return Some(
            "this game is played without the Commodities expansion: it has no piles or assets \
             (R-COM-1); type a bid, e.g. `5` or `bid 5`"
                .into(),
        );
    }
    match command {
        Command::Bid { .. } | Command::DiscardAsset { .. } if !legal.take.is_empty() => {
            let p = piles(legal.take);
            let first = p.split(", ").next().unwrap_or("gold").to_owned();
            Some(format!(
                "you take the asset: type the pile to take its top token from: {p} (e.g. `{first}` \
                 or `take {first}`; R-COM-5)"
            ))
        }
        Command::Bid { .. } | Command::TakeAsset { .. } if !legal.discard.is_empty() => {
            let p = piles(legal.discard);
            let first = p.split(", ").next().unwrap_or("gold").to_owned();
            Some(format!(
                "no one takes the asset, and you discard: type the pile to discard its top token \
                 from: {p} (e.g. `{first}` or `discard {first}`; R-COM-7)"
            ))
        }
        Command::TakeAsset { .. } | Command::DiscardAsset { .. } if legal.bid.is_some() => Some(
            "no asset is up now: piles are chosen after an auction's asset is settled; type a \
             bid, e.g. `5` or `bid 5`"
                .into(),
        ),
        _ => None,
    }
}

/// What the seat must do now, in words.
fn ask(view: &SeatView) -> String {
    let legal = view.legal;
    let range_text = |r: &BidRange| match r.forbidden {
        Some(f) => format!("a whole number ≥ {}, not {f}", r.min),
        None => format!("a whole number ≥ {}", r.min),
    };
    let mut text = if let Some(r) = legal.bid {
        match view.phase {
            Phase::OpeningBid { .. } => {
                format!(
                    "you are the auctioneer: your public opening bid ({})",
                    range_text(&r)
                )
            }
            Phase::Rebid { .. } => format!("tie at the top: your rebid ({})", range_text(&r)),
            Phase::AssetRebid { .. } => {
                format!("tie for the asset: your asset rebid ({})", range_text(&r))
            }
            _ => format!("your secret bid ({})", range_text(&r)),
        }
    } else if !legal.take.is_empty() {
        let piles: Vec<&str> = legal.take.iter().map(AssetKind::name).collect();
        format!("you take an asset: choose a pile ({})", piles.join(", "))
    } else if !legal.discard.is_empty() {
        let piles: Vec<&str> = legal.discard.iter().map(AssetKind::name).collect();
        format!(
            "no one takes the asset: choose a pile to discard from ({})",
            piles.join(", ")
        )
    } else {
        "nothing to do".into()
    };
    if legal.peek != 0 {
        let turns: Vec<String> = (0..16)
            .filter(|t| legal.peek & (1 << t) != 0)
            .map(|t: u8| t.to_string())
            .collect();
        let _ = write!(
            text,
            "\n  (you may `peek T` once to see a price; turns: {})",
            turns.join(", ")
        );
    }
    text
}

/// Standard input, line by line.
struct Lines {
    input: crate::lines::Lines<Box<dyn BufRead>>,
    /// Why the input stopped, when it could not be read (a directory, an I/O error).
    failed: Option<std::io::Error>,
}

/// The longest input line read: far more than any command (the rest of a longer line is skipped).
const MAX_LINE: usize = 1024;

impl Lines {
    /// How the game ends when the input does: abandoned (exit 4, `message`), or, when standard
    /// input could not be read, bad input (exit 3) saying why, as `replay -` says it.
    fn ended(&self, message: String) -> Failure {
        match &self.failed {
            Some(e) => Failure::BadInput(format!("cannot read standard input: {e}; {message}")),
            None => Failure::Abandoned(message),
        }
    }

    /// The next line, or `None` at the end of the input (or when it cannot be read); `Err` with a
    /// message for a line that is not a command at all (too long, not UTF-8 text).
    fn next(&mut self) -> Option<Result<String, String>> {
        match self.input.next_line() {
            Ok(None) => None,
            Err(e) => {
                // A read cut short by a signal ends the game as the end of the input does (the
                // interrupt handler decides the rest); any other error is said.
                if e.kind() != std::io::ErrorKind::Interrupted {
                    self.failed = Some(e);
                }
                None
            }
            Ok(Some(Line::TooLong)) => Some(Err(format!(
                "that line is over {MAX_LINE} bytes; a command is short: `bid 5`, `help`"
            ))),
            Ok(Some(Line::Bytes(bytes))) => Some(
                String::from_utf8(bytes).map_err(|_| "that line is not UTF-8 text".to_string()),
            ),
        }
    }
}

/// Fails before the game if `--record FILE` cannot be written where it says (a directory, or in a
/// directory that does not exist), rather than after it.
fn check_record_path(path: &Path) -> Result<(), Failure> {
    let cannot =
        |why: &str| Failure::BadInput(format!("cannot write the record {}: {why}", path.display()));
    if path.is_dir() {
        return Err(cannot("it is a directory"));
    }
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(cannot(&format!(
            "{} {}",
            dir.display(),
            if dir.exists() {
                "is not a directory"
            } else {
                "does not exist"
            }
        ))),
        _ => Ok(()),
    }
}

fn save(path: Option<&PathBuf>, m: &Match, width: usize) -> Result<(), Failure> {
    let Some(path) = path else { return Ok(()) };
    let record = m.record().expect("a seeded game is dealt");
    std::fs::write(path, record.to_json_pretty() + "\n").map_err(|e| {
        Failure::BadInput(format!("cannot write the record {}: {e}", path.display()))
    })?;
    if m.game().is_over() {
        say(&format!("record saved to {}", path.display()), width);
    } else {
        // An abandoned game's record holds what no seat may know yet: say so before anyone reads it.
        say(
            &format!(
                "record saved to {} (SPOILER: the game was abandoned, and the record shows its \
                 seed, the whole deck, every industry token and every bid)",
                path.display()
            ),
            width,
        );
    }
    Ok(())
}

/// Prints `text` (one or more lines, ending in `\n` or not) fitted to `width` columns, then a
/// line break.
fn say(text: &str, width: usize) {
    println!("{}", fit(text.strip_suffix('\n').unwrap_or(text), width));
}

fn hide_screen(view: &SeatView) {
    if std::io::stdout().is_terminal() {
        print!("\x1b[2J\x1b[H");
    } else {
        print!("{}", "\n".repeat(60));
    }
    println!("──── screen hidden ────");
    println!(
        "Pass the terminal to {}, then press Enter (or type quit to stop).",
        seat_name(view, view.seat.unwrap_or(Seat(0)))
    );
    let _ = std::io::stdout().flush();
}

/// The end of a game: everything revealed (R-VIS-7), the score breakdown and the winners.
pub fn print_end(m: &Match, rules: &Rules, width: usize) {
    let game = m.game();
    let view = game.public_view(); // everything is revealed at game end (R-VIS-7)
    println!("════ game over: everything is revealed ════");
    if let Some(seed) = m.seed() {
        println!("seed {seed} (replay this game with --seed {seed})");
    }
    let h = history(&view, rules);
    if !h.is_empty() {
        say(&h, width);
    }
    let industries: Vec<String> = (0..game.players())
        .map(|s| {
            format!(
                "{}: {}",
                seat_name(&view, Seat(s)),
                view.seats[Seat(s)].industry.map_or("?", |i| i.name())
            )
        })
        .collect();
    say(
        &format!("industry tokens: {}", industries.join(", ")),
        width,
    );
    if let Some(aside) = view.set_aside {
        println!("set aside: {}", aside.name());
    }
    if let Some(outcome) = game.outcome() {
        say(&outcome_table(&outcome), width);
    }
}

/// The seed of the bot at `seat` in a game seeded with `game_seed`.
pub fn bot_seed(game_seed: u64, seat: u8) -> u64 {
    qe_core::mix_seed(game_seed.wrapping_add(u64::from(seat) + 1).rotate_left(17))
}

/// Runs `qe play`.
pub fn run(common: &Common, args: &PlayArgs) -> Result<(), Failure> {
    // Standard input carries the moves and standard output the screen: neither can be a file.
    if common.manifest.as_deref() == Some("-".as_ref()) {
        return Err(Failure::Usage(
            "play reads its moves from standard input: give --manifest a file, not '-'".into(),
        ));
    }
    if let Some(path) = &args.record {
        if path.as_os_str() == "-" {
            return Err(Failure::Usage(
                "play shows the game on standard output: give --record a file, not '-'".into(),
            ));
        }
        check_record_path(path)?;
    }
    let manifest = manifest::load(common)?.map_or_else(Manifest::default, |l| l.manifest);
    let rules = manifest::rules(args.players, args.expansions.set()?, manifest)?;
    let humans: Vec<Seat> = match &args.humans {
        Some(list) => list.0.iter().map(|&s| Seat(s)).collect(),
        None => vec![Seat(args.seat)],
    };
    if let Some(bad) = humans.iter().find(|s| s.0 >= args.players) {
        return Err(Failure::Usage(format!(
            "seat {} does not exist in a {}-player game (seats 0 to {})",
            bad.0,
            args.players,
            args.players - 1
        )));
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let bot_seats: Vec<u8> = (0..args.players)
        .filter(|s| !humans.contains(&Seat(*s)))
        .collect();
    let names = &args.bots.0;
    if names.len() > bot_seats.len().max(1) {
        return Err(Failure::Usage(format!(
            "--bots lists {} bots for {} bot seats",
            names.len(),
            bot_seats.len()
        )));
    }
    let mut bots: Vec<Option<(String, BoxedBot)>> = (0..args.players).map(|_| None).collect();
    for (k, &s) in bot_seats.iter().enumerate() {
        let name = names[k % names.len()].clone();
        let bot = by_name_with(&name, bot_seed(seed, s), manifest).expect("a known bot");
        bots[s as usize] = Some((name, bot));
    }

    let width = crate::layout::width();
    let mut m = Match::seeded(rules, seed);
    let hot_seat = humans.len() > 1;
    // Ctrl-C (or SIGTERM, SIGHUP) while waiting for a line, or an output that cannot be written:
    // save the game as it stood at the prompt, and stop.
    let at_prompt = Arc::new(Mutex::new(m.clone()));
    let abandon = {
        let at_prompt = Arc::clone(&at_prompt);
        let record = args.record.clone();
        move |why: &str| {
            let m = at_prompt.lock().unwrap_or_else(PoisonError::into_inner);
            if let Err(failure) = save(record.as_ref(), &m, width) {
                eprintln!("qe: {}", failure.message());
            }
            eprintln!(
                "qe: {why} at turn {} ({} commands played); game abandoned",
                m.game().turn(),
                m.commands().len()
            );
        }
    };
    interrupt::install({
        let abandon = abandon.clone();
        move || {
            // The terminal may be gone (SIGHUP): this newline is a courtesy, not output to check.
            let _ = writeln!(std::io::stdout());
            abandon("interrupted (Ctrl-C or a termination signal)");
            std::process::exit(interrupt::EXIT_CODE.into());
        }
    });
    crate::output::on_failure(move || abandon("the output cannot be written"));
    let waiting = |m: &Match| {
        at_prompt
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone_from(m);
    };
    let mut lines = Lines {
        input: crate::lines::Lines::new(Box::new(std::io::stdin().lock()), MAX_LINE),
        failed: None,
    };

    let intro = m.game().public_view();
    // The seed decides the deck, the tokens and the bots' choices: a seed the player did not choose
    // is shown only once the game is over (R-VIS-6, R-VIS-8 hold for the human's seat too).
    println!(
        "QE · {} players{} · {}",
        args.players,
        manifest::title(rules.expansions(), ""),
        match args.seed {
            Some(seed) => format!("seed {seed}"),
            None => "seed shown at the end".into(),
        }
    );
    for s in 0..args.players {
        let who = match &bots[s as usize] {
            Some((name, _)) => format!("{name} bot"),
            None if hot_seat => "human".into(),
            None => "you".into(),
        };
        println!("  {}: {who}", seat_name(&intro, Seat(s)));
    }
    say(
        "Type `help` for the commands at any prompt; `qe rules` prints the rules summary and the \
         tile and token values.",
        width,
    );

    let mut narrated = 0usize; // events already told (single human)
    let mut last_human: Option<Seat> = None;
    let mut show = true;
    while !m.game().is_over() {
        let to_act = m.game().to_act();
        // Bots act first; their bids are sealed, so the order does not matter (R-AUC-3).
        if let Some(seat) = to_act.iter().find(|s| bots[s.index()].is_some()) {
            let (name, bot) = bots[seat.index()].as_mut().expect("a bot seat");
            let command =
                qe_core::bots::decide(&mut **bot, &m, seat, true).expect("a bot acts when it must");
            if let Err(e) = m.apply(command) {
                panic!("{name} bot played an illegal command: {}: {e}", e.rule());
            }
            continue;
        }
        let seat = to_act.first().expect("someone must act");
        let view = m.game().view(seat);
        if hot_seat {
            if last_human != Some(seat) {
                hide_screen(&view);
                waiting(&m);
                let Some(line) = lines.next() else {
                    save(args.record.as_ref(), &m, width)?;
                    return Err(lines.ended("the input ended; game abandoned".into()));
                };
                // Anything but `quit` is taken as Enter.
                if matches!(
                    line.map(|l| parse_line(&l, seat, &view.legal)),
                    Ok(Ok(Input::Quit))
                ) {
                    save(args.record.as_ref(), &m, width)?;
                    return Err(Failure::Abandoned("quit; game abandoned".into()));
                }
                show = true;
            }
        } else {
            for e in &m.events()[narrated..] {
                if let Some(line) = event_line(&view, &rules, &e.as_seen(m.viewer(Some(seat)))) {
                    say(&format!("· {line}"), width);
                }
            }
            narrated = m.events().len();
        }
        last_human = Some(seat);
        if show {
            say(&screen(&view, &rules, &m.deduce(seat)), width);
            show = false;
        }
        say(
            &format!("{}: {}", seat_name(&view, seat), ask(&view)),
            width,
        );
        print!("> ");
        let _ = std::io::stdout().flush();
        waiting(&m);
        let Some(line) = lines.next() else {
            println!();
            save(args.record.as_ref(), &m, width)?;
            return Err(lines.ended(format!(
                "the input ended at turn {} ({} commands played); game abandoned",
                m.game().turn(),
                m.commands().len()
            )));
        };
        let line = match line {
            Ok(line) => line,
            Err(why) => {
                say(&why, width);
                continue;
            }
        };
        if !std::io::stdin().is_terminal() {
            say(line.trim_end(), width); // echo piped input, so the transcript reads well
        }
        match parse_line(&line, seat, &view.legal) {
            Ok(Input::Nothing) => {}
            Ok(Input::Help) => println!("{}", crate::layout::fit_help(HELP, width)),
            Ok(Input::View) => show = true,
            Ok(Input::Quit) => {
                save(args.record.as_ref(), &m, width)?;
                return Err(Failure::Abandoned("quit; game abandoned".into()));
            }
            Ok(Input::Command(command)) => match misplaced(command, &view).map_or_else(
                || {
                    m.apply(command)
                        .map_err(|e| format!("rejected: {}: {e}", e.rule()))
                },
                |why| Err(format!("error: {why}")),
            ) {
                Ok(_) => {
                    show = true;
                    if !hot_seat {
                        // Tell the seat what its own command did.
                        let view = m.game().view(seat);
                        for e in &m.events()[narrated..] {
                            if let Some(line) =
                                event_line(&view, &rules, &e.as_seen(m.viewer(Some(seat))))
                            {
                                say(&format!("· {line}"), width);
                            }
                        }
                        narrated = m.events().len();
                        show =
                            !matches!(command, Command::Peek { .. }) || m.game().to_act() != to_act;
                    }
                }
                Err(message) => say(&message, width),
            },
            Err(message) => say(&format!("error: {message}"), width),
        }
    }
    if !hot_seat {
        let seat = humans[0];
        let view = m.game().view(seat);
        for e in &m.events()[narrated..] {
            if let Some(line) = event_line(&view, &rules, &e.as_seen(m.viewer(Some(seat)))) {
                say(&format!("· {line}"), width);
            }
        }
    }
    print_end(&m, &rules, width);
    save(args.record.as_ref(), &m, width)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn legal_bid() -> Legal {
        Legal {
            bid: Some(BidRange {
                min: 0,
                max: u64::MAX,
                forbidden: Some(3),
            }),
            ..Legal::default()
        }
    }

    #[test]
    fn lines_parse_to_commands() {
        let s = Seat(1);
        let l = legal_bid();
        assert_eq!(
            parse_line("12\n", s, &l),
            Ok(Input::Command(Command::Bid {
                seat: s,
                amount: 12
            }))
        );
        assert_eq!(
            parse_line("  bid 18446744073709551615 ", s, &l),
            Ok(Input::Command(Command::Bid {
                seat: s,
                amount: u64::MAX
            }))
        );
        assert_eq!(
            parse_line("+5", s, &l),
            Ok(Input::Command(Command::Bid { seat: s, amount: 5 }))
        );
        assert_eq!(parse_line("", s, &l), Ok(Input::Nothing));
        assert_eq!(parse_line("help", s, &l), Ok(Input::Help));
        assert_eq!(
            parse_line("peek 2", s, &l),
            Ok(Input::Command(Command::Peek { seat: s, turn: 2 }))
        );
        let discard = Legal {
            discard: PileSet(0b111),
            ..Legal::default()
        };
        assert_eq!(
            parse_line("Oil", s, &discard),
            Ok(Input::Command(Command::DiscardAsset {
                seat: s,
                kind: AssetKind::Oil
            }))
        );
        assert_eq!(
            parse_line("take gold", s, &l),
            Ok(Input::Command(Command::TakeAsset {
                seat: s,
                kind: AssetKind::Gold
            }))
        );
    }

    #[test]
    fn the_peek_hint_lists_the_turns_that_may_be_peeked_at() {
        // R-VIS-5: turns count from 0, as in `peek T` and on the screen.
        let game = qe_core::Game::seeded(qe_core::Rules::base(5).unwrap(), 1);
        let mut view = game.view(Seat(0));
        view.legal.peek = 0b1000_0000_0000_0011;
        let text = ask(&view);
        assert!(text.ends_with("turns: 0, 1, 15)"), "{text}");
    }

    #[test]
    fn bad_lines_get_messages() {
        let s = Seat(0);
        let l = legal_bid();
        for bad in [
            "-1",
            "18446744073709551616",
            "1.5",
            "bid x",
            "fold",
            "take silver",
            "peek x",
        ] {
            assert!(parse_line(bad, s, &l).is_err(), "{bad}");
        }
        assert!(parse_line("-1", s, &l).unwrap_err().contains("R-AUC-4"));
        assert_eq!(
            parse_line("bid", s, &l),
            Err("bid needs an amount: bid 5".into())
        );
        assert!(parse_line(" Take ", s, &l)
            .unwrap_err()
            .contains("take needs a pile"));
        assert!(parse_line("peek", s, &l)
            .unwrap_err()
            .contains("peek needs a turn"));
        assert!(parse_line("discard", s, &l)
            .unwrap_err()
            .contains("discard needs a pile"));
        assert!(parse_line("bid 5 6", s, &l)
            .unwrap_err()
            .contains("one too many"));
    }

    #[test]
    fn commands_are_case_insensitive() {
        let s = Seat(1);
        let l = legal_bid();
        let five = Ok(Input::Command(Command::Bid { seat: s, amount: 5 }));
        for line in ["bid 5", "BID 5", "Bid 5", "B 5"] {
            assert_eq!(parse_line(line, s, &l), five, "{line}");
        }
        assert_eq!(parse_line("HELP", s, &l), Ok(Input::Help));
        assert_eq!(parse_line("Quit", s, &l), Ok(Input::Quit));
        assert_eq!(parse_line("VIEW", s, &l), Ok(Input::View));
        assert_eq!(
            parse_line("Take GOLD", s, &l),
            Ok(Input::Command(Command::TakeAsset {
                seat: s,
                kind: AssetKind::Gold
            }))
        );
        assert_eq!(
            parse_line("PEEK 2", s, &l),
            Ok(Input::Command(Command::Peek { seat: s, turn: 2 }))
        );
    }

    /// The view of the first seat, over Commodities games played by value bots, whose legal
    /// moves satisfy `want`.
    fn a_view_where(want: impl Fn(&Legal) -> bool) -> SeatView {
        for seed in 0..200 {
            let mut m = Match::seeded(Rules::commodities(4).unwrap(), seed);
            let mut bots: Vec<BoxedBot> = (0..4)
                .map(|s| qe_core::bots::by_name("value", seed + s).unwrap())
                .collect();
            while !m.game().is_over() {
                let seat = m.game().to_act().first().unwrap();
                let view = m.game().view(seat);
                if want(&view.legal) {
                    return view;
                }
                let c = qe_core::bots::decide(&mut *bots[seat.index()], &m, seat, true).unwrap();
                m.apply(c).unwrap();
            }
        }
        panic!("no such view in 200 games")
    }

    /// At the pile prompt, a bid or the other pile move says what to type: the piles the seat
    /// may choose, and the forms the prompt reads.
    #[test]
    fn a_move_of_the_wrong_kind_says_what_to_type() {
        let take = a_view_where(|l| !l.take.is_empty());
        let seat = take.seat.unwrap();
        for line in ["7", "bid 7", "discard gold"] {
            let Ok(Input::Command(c)) = parse_line(line, seat, &take.legal) else {
                panic!("{line} is a command")
            };
            let why = misplaced(c, &take).unwrap_or_else(|| panic!("{line}: no message"));
            assert!(
                why.contains("take") && why.contains("R-COM-5"),
                "{line}: {why}"
            );
            for pile in take.legal.take.iter() {
                assert!(why.contains(pile.name()), "{line}: {why}");
            }
        }
        let pile = take.legal.take.iter().next().unwrap();
        let c = parse_line(pile.name(), seat, &take.legal).unwrap();
        assert!(matches!(c, Input::Command(c) if misplaced(c, &take).is_none()));

        let discard = a_view_where(|l| !l.discard.is_empty());
        let seat = discard.seat.unwrap();
        for line in ["7", "take oil"] {
            let Ok(Input::Command(c)) = parse_line(line, seat, &discard.legal) else {
                panic!("{line} is a command")
            };
            let why = misplaced(c, &discard).unwrap_or_else(|| panic!("{line}: no message"));
            assert!(
                why.contains("discard") && why.contains("R-COM-7"),
                "{line}: {why}"
            );
        }

        let bidding = a_view_where(|l| l.bid.is_some());
        let c = parse_line("take gold", bidding.seat.unwrap(), &bidding.legal).unwrap();
        let Input::Command(c) = c else { panic!() };
        assert!(misplaced(c, &bidding).unwrap().contains("type a bid"));
        assert!(misplaced(
            Command::Bid {
                seat: bidding.seat.unwrap(),
                amount: 1
            },
            &bidding
        )
        .is_none());
    }

    /// In a game without Commodities, a pile move says that the game has no piles (R-COM-1).
    #[test]
    fn a_pile_move_in_a_base_game_says_it_has_no_commodities() {
        let game = qe_core::Game::seeded(Rules::base(4).unwrap(), 3);
        let seat = game.to_act().first().unwrap();
        let view = game.view(seat);
        for line in ["take gold", "gold", "discard oil"] {
            let Ok(Input::Command(c)) = parse_line(line, seat, &view.legal) else {
                panic!("{line} is a command")
            };
            let why = misplaced(c, &view).unwrap();
            assert!(
                why.contains("without the Commodities expansion") && why.contains("R-COM-1"),
                "{why}"
            );
        }
    }
}
