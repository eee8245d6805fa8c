//! `qe`: the command-line face of the QE rules engine (`qe-core`).
//!
//! - `qe play`: a human (or several, hot-seat) against the baseline bots, in the terminal.
//! - `qe replay`: replay a `qe-record/1` game record exactly as `RECORD.md` says, or walk through
//!   it auction by auction as one seat (or a spectator) saw it (`--step`).
//! - `qe simulate`: a tournament (arena) between built-in bots and `exec:` agent programs over
//!   many seeded games, seats rotated, with win rates and ratings, on every core.
//! - `qe rules`: the rules summary and the manifest (tile and token values) in use.
//! - `qe completions SHELL`: a shell completion script.
//!
//! It uses only the public API of `qe-core`, and shows a seat nothing beyond its `SeatView`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

/// `print!`/`println!` for this crate: like std's, but an output that cannot be written ends the
/// program through [`output::failed`] instead of panicking. (Defined before the modules, so they
/// shadow the std macros in all of them.)
macro_rules! print {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout(), $($t)*) {
            crate::output::failed(&e);
        }
    }};
}

macro_rules! println {
    () => { print!("\n") };
    ($($t:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = writeln!(std::io::stdout(), $($t)*) {
            crate::output::failed(&e);
        }
    }};
}

/// `eprintln!` for this crate: like std's, but a standard error that cannot be written is ignored
/// (the exit code still tells) instead of panicking.
macro_rules! eprintln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

mod agent;
mod arena;
mod input;
mod interrupt;
mod layout;
mod lines;
mod manifest;
mod output;
mod play;
mod progress;
mod replay;
mod rules;
mod show;
mod simulate;
mod sprt;
mod step;

/// The exit codes of `qe`, as printed by `--help`.
const EXIT_CODES: &str = "\
Exit codes:
    0  success (replay: the game ended, or is pending; play: the game was played to the end)
    1  replay: a command of the record is illegal (`command K: R-…: message`)
    2  usage error: unknown command or option, bad argument value
    3  bad input: unreadable file, malformed record, invalid manifest, unwritable --record file;
       an output that cannot be written (`qe: cannot write the output: …`)
    4  play: the input ended (or `quit`) before the game did
  130  interrupted by Ctrl-C, SIGTERM or SIGHUP: simulate printed the table of the games finished
       so far; play saved --record FILE (a SPOILER if the game was unfinished)
  141  standard output is a closed pipe (`qe … | head -1`); play saved --record FILE first";

/// Why `qe` stops with a non-zero exit; each variant is one documented exit code.
#[derive(Debug)]
pub enum Failure {
    /// Exit 1: an illegal command in a replayed record.
    Illegal(String),
    /// Exit 2: a usage error found after argument parsing.
    Usage(String),
    /// Exit 3: a bad file, record or manifest.
    BadInput(String),
    /// Exit 4: `qe play` ended before the game did.
    Abandoned(String),
    /// Exit 130: interrupted by Ctrl-C ([`interrupt`]).
    Interrupted(String),
}

impl Failure {
    fn code(&self) -> u8 {
        match self {
            Failure::Illegal(_) => 1,
            Failure::Usage(_) => 2,
            Failure::BadInput(_) => 3,
            Failure::Abandoned(_) => 4,
            Failure::Interrupted(_) => interrupt::EXIT_CODE,
        }
    }

    fn message(&self) -> &str {
        match self {
            Failure::Illegal(m)
            | Failure::Usage(m)
            | Failure::BadInput(m)
            | Failure::Abandoned(m)
            | Failure::Interrupted(m) => m,
        }
    }
}

#[derive(Parser, Debug)]
#[command(
    name = "qe",
    version,
    about = "QE (Quantitative Easing): play in the terminal, replay game records, run bot tournaments",
    after_help = EXIT_CODES,
    propagate_version = true
)]
struct Cli {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    command: Command,
}

/// Options shared by every command.
#[derive(Args, Debug, Clone)]
pub struct Common {
    /// Printed tile and token values (JSON, the shape of a record's `manifest` field)
    ///
    /// A JSON file shaped like a record's `manifest` field, {"tiles": {"US-AGR": 1, …}, "tokens":
    /// {"gold1": 6, …}}, every tile and token listed (`qe rules --json` prints one). Used by play, simulate and rules, and by
    /// replay for records without their own `manifest` field (a record's own manifest wins).
    #[arg(long, global = true, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game in the terminal: you at one seat (or several, hot-seat) against bots
    #[command(after_help = play::HELP)]
    Play(play::PlayArgs),
    /// Replay a game record (qe-record/1): outcome, pending phase, or the first illegal command;
    /// --step walks through it as a seat saw it
    #[command(after_help = replay::HELP)]
    Replay(replay::ReplayArgs),
    /// Run a tournament between bots and exec: agents: win rates and ratings with 95% intervals
    #[command(after_help = simulate::HELP)]
    Simulate(simulate::SimulateArgs),
    /// Print the rules summary and the manifest (tile and token values) in use
    Rules(rules::RulesArgs),
    /// Print a shell completion script: bash, zsh, fish, powershell or elvish
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(CompletionsArgs),
}

/// Extra `--help` text of `qe completions`.
const COMPLETIONS_HELP: &str = "\
Load the script in the shell's start-up file, for example:
  bash        echo 'source <(qe completions bash)' >> ~/.bashrc
  zsh         qe completions zsh > ~/.zfunc/_qe   (with ~/.zfunc in $fpath, before compinit)
  fish        qe completions fish > ~/.config/fish/completions/qe.fish
  powershell  qe completions powershell >> $PROFILE
  elvish      qe completions elvish >> ~/.config/elvish/rc.elv";

/// `qe completions`.
#[derive(Args, Debug)]
struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    shell: clap_complete::Shell,
    /// The global --manifest, taken here so that this command's help does not list it; refused.
    #[arg(long, hide = true, value_name = "FILE")]
    manifest: Option<PathBuf>,
}

/// The command line of `qe`, its help fitted to the terminal ([`layout::terminal_width`], else
/// 100 columns): clap wraps the generated help, [`layout::fit_help`] the extra texts.
fn command() -> clap::Command {
    fn refit(cmd: clap::Command, width: usize) -> clap::Command {
        let after = cmd
            .get_after_help()
            .map(|text| layout::fit_help(&text.to_string(), width));
        // `--games -1` is a bad value for --games, not an unknown option `-1`.
        let mut cmd = match after {
            Some(text) => cmd.after_help(text),
            None => cmd,
        }
        .allow_negative_numbers(true);
        let names: Vec<String> = cmd
            .get_subcommands()
            .map(|s| s.get_name().to_owned())
            .collect();
        for name in names {
            cmd = cmd.mut_subcommand(name, |s| refit(s, width));
        }
        cmd
    }
    let width = layout::terminal_width().unwrap_or(layout::DEFAULT_WIDTH);
    refit(Cli::command().term_width(width), width)
}

/// Prints the completion script of `qe` for `shell`.
fn completions(args: &CompletionsArgs) {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "qe", &mut script);
    print!("{}", String::from_utf8_lossy(&script));
}

fn main() -> ExitCode {
    let matches = command()
        .try_get_matches()
        .unwrap_or_else(|e| exit_from_clap(&e));
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| exit_from_clap(&e));
    let result = match cli.command {
        Command::Play(args) => play::run(&cli.common, &args),
        Command::Replay(args) => replay::run(&cli.common, &args),
        Command::Simulate(args) => simulate::run(&cli.common, &args),
        Command::Rules(args) => rules::run(&cli.common, &args),
        // --manifest is global (every other command uses it); here it would be ignored.
        Command::Completions(args) if cli.common.manifest.is_some() || args.manifest.is_some() => {
            Err(Failure::Usage(
                "completions takes no --manifest: the script is the same for every manifest".into(),
            ))
        }
        Command::Completions(args) => {
            completions(&args);
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            match &failure {
                // The replay error line is exactly `command K: R-…: message` (RECORD.md).
                Failure::Illegal(m) => eprintln!("{m}"),
                Failure::Usage(m) => eprintln!("error: {m}\n\nFor more information, try '--help'."),
                other => eprintln!("qe: {}", other.message()),
            }
            ExitCode::from(failure.code())
        }
    }
}

/// Prints what clap has to say (help, version, or a usage error) and exits with clap's code; help
/// or version text that cannot be written exits as any other output failure does.
fn exit_from_clap(e: &clap::Error) -> ! {
    if let Err(io) = e.print() {
        if !e.use_stderr() {
            output::failed(&io);
        }
    }
    std::process::exit(e.exit_code())
}

/// Parses a comma-separated list of bot names (`value,random,miser`), for clap.
pub fn parse_bots(text: &str) -> Result<Vec<String>, String> {
    let names: Vec<String> = text.split(',').map(|s| s.trim().to_owned()).collect();
    for name in &names {
        if !qe_core::bots::is_name(name) {
            return Err(format!(
                "unknown bot `{}` (bots: {}, {})",
                qe_core::shown(name),
                qe_core::bots::NAMES.join(", "),
                qe_core::bots::TIMED_NAME
            ));
        }
    }
    Ok(names)
}

/// Parses a game or tournament seed: a whole number from 0 to `u64::MAX`, for clap.
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| {
        format!(
            "a seed is a whole number from 0 to {}, got `{}`",
            u64::MAX,
            qe_core::shown(text)
        )
    })
}

/// Parses a comma-separated list of seat numbers (`0,2`), for clap.
pub fn parse_seats(text: &str) -> Result<Vec<u8>, String> {
    let mut seats = Vec::new();
    for part in text.split(',') {
        let seat: u8 = part
            .trim()
            .parse()
            .map_err(|_| format!("`{part}` is not a seat number (0 to 4)"))?;
        if seat > 4 {
            return Err(format!("seat {seat} does not exist (seats are 0 to 4)"));
        }
        if seats.contains(&seat) {
            return Err(format!("seat {seat} is listed twice"));
        }
        seats.push(seat);
    }
    Ok(seats)
}
