//! `exec:` agents: programs in any language that play a seat of `qe simulate` over the line-based
//! JSON protocol `qe-agent/1` (`spec/AGENT-PROTOCOL.md`).
//!
//! One process plays one seat at a time and is kept from game to game. The engine writes one JSON
//! object a line to its standard input (`start`, `act`, `end`) and reads one line from its standard
//! output for each `act`: a command in the record format (`qe_core::Command::from_json`). An answer
//! that is not a legal command for the seat is counted and replaced by the `value` bot's move; an
//! agent that does not answer in time, or exits, is counted, stopped, replaced by the `value` bot
//! for the rest of the game and started again for the next game. Each `act` carries an `id`; an
//! answer that echoes another question's id is dropped and counted as stale, never applied to a
//! later question.

use std::io::{BufReader, Read, Write};
use std::process::{Child, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::time::{Duration, Instant};

use qe_core::bots::ValueBot;
use qe_core::{AssetKind, Command, Manifest, Match, Seat};

use crate::lines::Line;

/// The protocol's name, sent in every `start` message.
pub const PROTOCOL: &str = "qe-agent/1";

/// The words of an `exec:` agent's command line (split on whitespace).
pub fn parse_exec(spec: &str) -> Result<Vec<String>, String> {
    let argv: Vec<String> = spec.split_whitespace().map(str::to_owned).collect();
    if argv.is_empty() {
        return Err("`exec:` needs a command, e.g. `exec:./my_agent`".into());
    }
    Ok(argv)
}

/// What an agent did wrong, per agent, summed over the tournament.
#[derive(Clone, Copy, Debug, Default)]
pub struct Faults {
    /// Answers that were not a legal command for the seat (unreadable JSON, another seat, a bid
    /// out of range, a command of the wrong kind ...).
    pub illegal: u64,
    /// Questions not answered within the time limit.
    pub timeouts: u64,
    /// Times the program exited (or closed its output) during a game, or could not be started.
    pub crashes: u64,
    /// Answers that carried the `id` of another question: dropped, never applied to this one.
    pub stale: u64,
    /// Moves the `value` bot made in the agent's place.
    pub fallback_moves: u64,
}

impl Faults {
    pub fn merge(&mut self, other: &Faults) {
        self.illegal += other.illegal;
        self.timeouts += other.timeouts;
        self.crashes += other.crashes;
        self.stale += other.stale;
        self.fallback_moves += other.fallback_moves;
    }
}

/// The longest answer line read from an agent: a command is at most this long
/// ([`qe_core::MAX_COMMAND_BYTES`]); the rest of a longer line is skipped, and the answer is illegal.
const MAX_ANSWER: usize = qe_core::MAX_COMMAND_BYTES;

/// Answer lines read ahead of the questions: an agent that writes more than it is asked waits
/// (its output pipe fills) rather than filling the engine's memory.
const LINES_AHEAD: usize = 4;

/// Messages queued for an agent beyond what its input pipe holds: the protocol never has more than
/// `end`, `start` and `act` outstanding, so a full queue means the agent does not read.
const MESSAGES_AHEAD: usize = 4;

/// How often a wait for an answer looks at Ctrl-C.
const INTERRUPT_POLL: Duration = Duration::from_millis(50);

/// A running agent program, in a process group of its own (Unix) so that stopping it stops
/// whatever it started. A thread writes its input and one reads its output, so the engine never
/// blocks on either: it waits only for answers, with a time limit.
struct Running {
    child: Child,
    /// Messages for the writer thread; `None` once closed.
    messages: Option<SyncSender<String>>,
    lines: Receiver<Line>,
    /// Stop it at once when dropped (it failed), rather than letting it finish.
    kill: bool,
}

impl Running {
    fn spawn(argv: &[String]) -> std::io::Result<Running> {
        let mut process = Process::new(&argv[0]);
        process
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        let mut child = process.spawn()?;
        groups::started(child.id());
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::sync_channel(LINES_AHEAD);
        std::thread::spawn(move || read_lines(stdout, &tx));
        let (messages, rx) = mpsc::sync_channel::<String>(MESSAGES_AHEAD);
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for message in rx {
                let written = stdin
                    .write_all(message.as_bytes())
                    .and_then(|()| stdin.write_all(b"\n"))
                    .and_then(|()| stdin.flush());
                if written.is_err() {
                    break;
                }
            }
        });
        Ok(Running {
            child,
            messages: Some(messages),
            lines,
            kill: false,
        })
    }

    /// Queues one message line without waiting: [`Sent::NotReading`] if the agent has left
    /// [`MESSAGES_AHEAD`] messages unread, [`Sent::Gone`] if it no longer reads at all.
    fn send(&mut self, line: String) -> Sent {
        match self.messages.as_ref().map(|m| m.try_send(line)) {
            Some(Ok(())) => Sent::Queued,
            Some(Err(TrySendError::Full(_))) => Sent::NotReading,
            Some(Err(TrySendError::Disconnected(_))) | None => Sent::Gone,
        }
    }

    /// Whether the program has exited. It is not reaped (on Unix), so its process id, which is
    /// its group's id, stays its own until [`Running::stop`].
    fn exited(&mut self) -> bool {
        #[cfg(unix)]
        {
            let pid = self.child.id() as libc::id_t;
            // SAFETY: `info` is a zeroed siginfo_t that waitid fills in; WNOWAIT leaves the child
            // to be reaped by `Child::wait`.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
                libc::waitid(libc::P_PID, pid, &raw mut info, flags) == 0 && info.si_pid() != 0
            }
        }
        #[cfg(not(unix))]
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Stops the program and everything it started (its process group), then reaps it.
    fn stop(&mut self) {
        groups::stop(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The process groups of the running agents. Each agent leads a group of its own (Unix), so a
/// terminal's Ctrl-C does not reach it: `qe` stops the groups itself, at [`Running::stop`], and
/// all at once with [`stop_all`] before an exit that skips the agents' `Drop`.
mod groups {
    use std::sync::{Mutex, PoisonError};

    /// The agents not yet stopped, and whether `qe` is exiting.
    struct Live {
        /// Process ids, each its group's id. An id is removed before its process is reaped, so a
        /// group signalled from here is always still the agent's.
        pids: Vec<u32>,
        /// [`stop_all`] ran: an agent started after it is stopped at once.
        closed: bool,
    }

    static LIVE: Mutex<Live> = Mutex::new(Live {
        pids: Vec::new(),
        closed: false,
    });

    /// Notes a new agent's process (group) id; stops it at once if `qe` is exiting.
    pub fn started(pid: u32) {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        if live.closed {
            kill(pid);
        } else {
            live.pids.push(pid);
        }
    }

    /// Kills the group of `pid` and forgets it.
    pub fn stop(pid: u32) {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(i) = live.pids.iter().position(|&p| p == pid) {
            kill(live.pids.swap_remove(i));
        }
    }

    /// Kills every agent's group, and any started later (before `qe` exits without dropping
    /// them).
    pub fn stop_all() {
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        live.closed = true;
        for pid in live.pids.drain(..) {
            kill(pid);
        }
    }

    fn kill(pid: u32) {
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(pid) {
            // SAFETY: no memory is touched. `pid` leads its own group (set at spawn) and is not
            // reaped yet (it is listed, or was just spawned), so the group is the agent's.
            unsafe { libc::killpg(pid, libc::SIGKILL) };
        }
        #[cfg(not(unix))]
        let _ = pid;
    }
}

pub use groups::stop_all;

/// What [`Running::send`] did.
enum Sent {
    Queued,
    NotReading,
    Gone,
}

/// Reads `stdout` line by line into `tx` until the end, an error, or the receiver is gone
/// ([`crate::lines::Lines`], at most [`MAX_ANSWER`] bytes a line).
fn read_lines(stdout: impl Read, tx: &SyncSender<Line>) {
    let mut lines = crate::lines::Lines::new(BufReader::new(stdout), MAX_ANSWER);
    while let Ok(Some(line)) = lines.next_line() {
        if tx.send(line).is_err() {
            return;
        }
    }
}

/// How long an agent has to exit once its input is closed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

impl Drop for Running {
    /// Closes the program's input and gives it [`EXIT_GRACE`] to exit (none if it failed), then
    /// stops it and what it started.
    fn drop(&mut self) {
        drop(self.messages.take());
        if !self.kill {
            let until = Instant::now() + EXIT_GRACE;
            while Instant::now() < until {
                if self.exited() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.stop();
    }
}

/// Checks that an agent program starts (it is stopped again at once, with what it started).
pub fn check_starts(argv: &[String]) -> Result<(), String> {
    let mut running = Running::spawn(argv).map_err(|e| e.to_string())?;
    running.kill = true;
    Ok(())
}

/// One `exec:` seat of a worker: the program (kept between games) and what it has been sent.
pub struct ExecSeat {
    argv: Vec<String>,
    running: Option<Running>,
    /// Events of the current game already sent.
    sent: usize,
    /// The program failed in this game: the fallback plays its seat until the game ends.
    broken: bool,
    timeout: Duration,
    pub faults: Faults,
    /// Time spent waiting for answers, and how many.
    pub waited: Duration,
    pub answers: u64,
    /// The `id` of the last `act` sent (each `act` gets the next one).
    asked: u64,
}

impl ExecSeat {
    pub fn new(argv: Vec<String>, timeout: Duration) -> ExecSeat {
        ExecSeat {
            argv,
            running: None,
            sent: 0,
            broken: false,
            timeout,
            faults: Faults::default(),
            waited: Duration::ZERO,
            answers: 0,
            asked: 0,
        }
    }

    /// Starts a game at `seat`: (re)starts the program if needed and sends `start`.
    pub fn start(&mut self, m: &Match, game: u64, seat: Seat, manifest: &Manifest) {
        self.sent = 0;
        self.broken = false;
        if self.running.is_none() {
            if let Ok(r) = Running::spawn(&self.argv) {
                self.running = Some(r);
            } else {
                self.faults.crashes += 1;
                self.broken = true;
                return;
            }
        }
        let rules = m.game().rules();
        let line = format!(
            r#"{{"type":"start","protocol":"{PROTOCOL}","game":{game},"seat":{},"players":{},"commodities":{},"turns":{},"manifest":{}}}"#,
            seat.0,
            rules.players(),
            rules.has_commodities(),
            rules.turns(),
            crate::manifest::to_json(manifest),
        );
        self.send_or_break(line);
    }

    /// Sends `line`; an agent that no longer reads is a crash, one that has left the last messages
    /// unread a timeout (it is not reading, so it cannot answer in time).
    fn send_or_break(&mut self, line: String) {
        if self.broken {
            return;
        }
        match self.running.as_mut().map(|r| r.send(line)) {
            Some(Sent::Queued) => {}
            Some(Sent::NotReading) => {
                self.faults.timeouts += 1;
                self.fail();
            }
            Some(Sent::Gone) | None => {
                self.faults.crashes += 1;
                self.fail();
            }
        }
    }

    /// Waits for the agent's next line, until `until` and not past a Ctrl-C.
    fn answer(&mut self, until: Instant) -> Result<Line, Waited> {
        let running = self.running.as_mut().ok_or(Waited::Gone)?;
        let asked = Instant::now();
        let answer = loop {
            let left = until.saturating_duration_since(Instant::now());
            match running.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(line) => break Ok(line),
                Err(RecvTimeoutError::Disconnected) => break Err(Waited::Gone),
                Err(RecvTimeoutError::Timeout) if left.is_zero() => break Err(Waited::TimedOut),
                Err(RecvTimeoutError::Timeout) if crate::interrupt::requested() => {
                    break Err(Waited::Interrupted)
                }
                // The program has exited, though something it started may hold its output open
                // (no end of input comes then): a crash, once what it wrote has been read.
                Err(RecvTimeoutError::Timeout)
                    if matches!(running.child.try_wait(), Ok(Some(_))) =>
                {
                    match running.lines.recv_timeout(INTERRUPT_POLL) {
                        Ok(line) => break Ok(line),
                        Err(_) => break Err(Waited::Gone),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        self.waited += asked.elapsed();
        answer
    }

    /// Stops the program for the rest of the game (it is started again for the next one).
    fn fail(&mut self) {
        self.broken = true;
        if let Some(r) = self.running.as_mut() {
            r.kill = true;
        }
        self.running = None;
    }

    /// The events of the seat not yet sent, as a JSON list, and marks them sent.
    fn new_events(&mut self, m: &Match, seat: Seat) -> String {
        let events: Vec<qe_core::Event> = m.events_for(seat).skip(self.sent).collect();
        self.sent += events.len();
        serde_json::to_string(&events).expect("events serialize")
    }

    /// The seat's command now: the program's answer if it is legal, else the fallback's move.
    pub fn decide(&mut self, m: &Match, game: u64, seat: Seat, fallback: &mut ValueBot) -> Command {
        if !self.broken {
            let view = m.view(Some(seat));
            let bounds = m.deduce(seat);
            let legal = legal_json(&view.view.legal);
            let line = format!(
                r#"{{"type":"act","game":{game},"seat":{},"id":{},"view":{},"spend_bounds":{},"events":{},"legal":{legal}}}"#,
                seat.0,
                {
                    self.asked += 1;
                    self.asked
                },
                serde_json::to_string(&view).expect("views serialize"),
                serde_json::to_string(&bounds.seats[..m.game().players() as usize])
                    .expect("bounds serialize"),
                self.new_events(m, seat),
            );
            self.send_or_break(line);
            if !self.broken {
                if let Some(c) = self.read_answer(m, seat) {
                    return c;
                }
            }
        }
        self.faults.fallback_moves += 1;
        qe_core::bots::decide(fallback, m, seat, true).expect("the value bot acts when it must")
    }

    /// Reads the answer to the `act` just sent (id [`ExecSeat::asked`]) within the time limit:
    /// the command if it is legal; `None` after an illegal answer or a fault (counted). Answers
    /// that carry another `id` are dropped and counted as stale, and the wait goes on.
    fn read_answer(&mut self, m: &Match, seat: Seat) -> Option<Command> {
        let until = Instant::now() + self.timeout;
        loop {
            match self.answer(until) {
                Ok(Line::Bytes(bytes)) => {
                    self.answers += 1;
                    // Not UTF-8: not JSON either, so an illegal answer.
                    let text = std::str::from_utf8(&bytes).unwrap_or("");
                    let command = match answer_id(text) {
                        Answer::Id(id, _) if id != self.asked.to_string() => {
                            self.faults.stale += 1;
                            continue;
                        }
                        Answer::Id(_, command) => Command::from_json(&command),
                        Answer::NoId => Command::from_json(text),
                    };
                    match command {
                        Ok(c) if c.seat() == Some(seat) && is_legal(m, c) => return Some(c),
                        _ => self.faults.illegal += 1,
                    }
                }
                Ok(Line::TooLong) => {
                    self.answers += 1;
                    self.faults.illegal += 1;
                }
                Err(Waited::TimedOut) => {
                    self.faults.timeouts += 1;
                    self.fail();
                }
                Err(Waited::Gone) => {
                    self.faults.crashes += 1;
                    self.fail();
                }
                // Ctrl-C: no fault; the agent is stopped and the games in progress end fast.
                Err(Waited::Interrupted) => self.fail(),
            }
            return None;
        }
    }

    /// Ends the game: sends `end` with the last events and the outcome.
    pub fn end(&mut self, m: &Match, game: u64, seat: Seat) {
        if self.broken {
            return;
        }
        let outcome = m.game().outcome().expect("the game is over");
        let line = format!(
            r#"{{"type":"end","game":{game},"seat":{},"events":{},"outcome":{}}}"#,
            seat.0,
            self.new_events(m, seat),
            serde_json::to_string(&outcome).expect("outcomes serialize"),
        );
        self.send_or_break(line);
    }
}

/// An answer line as to its `id`.
#[derive(Debug, PartialEq, Eq)]
enum Answer {
    /// An object with one `id` member: the id as written, and the command without it.
    Id(String, String),
    /// Anything else (a command without `id`, or not a command at all).
    NoId,
}

/// Splits the optional `id` member off an answer. The other members are kept in order and as
/// written, so that [`Command::from_json`] reads them as strictly as any command (a key given
/// twice is still an error).
fn answer_id(text: &str) -> Answer {
    use serde::de::{Deserializer as _, MapAccess, Visitor};
    use serde_json::value::RawValue;

    struct Members;
    impl<'de> Visitor<'de> for Members {
        type Value = Vec<(String, &'de RawValue)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut members = Vec::new();
            while let Some(key) = map.next_key::<String>()? {
                members.push((key, map.next_value()?));
            }
            Ok(members)
        }
    }

    let mut de = serde_json::Deserializer::from_str(text);
    let Ok(members) = de.deserialize_map(Members) else {
        return Answer::NoId;
    };
    let mut ids = members.iter().filter(|(k, _)| k == "id");
    let (Some((_, id)), None) = (ids.next(), ids.next()) else {
        return Answer::NoId;
    };
    let rest: Vec<String> = members
        .iter()
        .filter(|(k, _)| k != "id")
        .map(|(k, v)| format!("{}:{}", serde_json::Value::from(k.as_str()), v.get()))
        .collect();
    Answer::Id(
        id.get().trim().to_owned(),
        format!("{{{}}}", rest.join(",")),
    )
}

/// Why no answer came.
enum Waited {
    TimedOut,
    /// The agent exited or closed its output.
    Gone,
    /// Ctrl-C was pressed.
    Interrupted,
}

/// Whether `command` is legal now (R-AUC-12), tried on a copy of the game.
fn is_legal(m: &Match, command: Command) -> bool {
    let mut g = *m.game();
    !matches!(command, Command::Chance(_)) && g.play(command).is_ok()
}

/// The legal commands of a seat, spelled out: `{"bid": {"min", "max", "forbidden"} or null,
/// "take": [piles], "discard": [piles], "peek": [turns]}`.
fn legal_json(legal: &qe_core::Legal) -> String {
    let piles =
        |set: qe_core::PileSet| -> Vec<&'static str> { set.iter().map(AssetKind::name).collect() };
    let peek: Vec<u8> = (0..16u8).filter(|t| legal.peek & (1 << t) != 0).collect();
    serde_json::json!({
        "bid": legal.bid.map(|r| serde_json::json!({
            "min": r.min,
            "max": r.max,
            "forbidden": r.forbidden,
        })),
        "take": piles(legal.take),
        "discard": piles(legal.discard),
        "peek": peek,
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answers_id_is_split_off_and_the_rest_kept_as_written() {
        assert_eq!(
            answer_id(r#"{"seat":2,"id":17,"bid":7}"#),
            Answer::Id("17".into(), r#"{"seat":2,"bid":7}"#.into())
        );
        let Answer::Id(id, rest) = answer_id(r#"{"id": 3, "seat": 1, "take_asset": "gold"}"#)
        else {
            panic!("an id")
        };
        assert_eq!(id, "3");
        assert_eq!(
            Command::from_json(&rest),
            Command::from_json(r#"{"seat":1,"take_asset":"gold"}"#)
        );
        // No id, or not an object: read as a command, as before ids.
        assert_eq!(answer_id(r#"{"seat":2,"bid":7}"#), Answer::NoId);
        assert_eq!(answer_id("I bid a lot"), Answer::NoId);
        assert_eq!(
            answer_id(r#"{"id":1,"id":1,"seat":0,"bid":0}"#),
            Answer::NoId
        );
        // A key given twice stays an error of the command reader.
        let Answer::Id(_, rest) = answer_id(r#"{"id":1,"seat":3,"seat":0,"bid":5}"#) else {
            panic!("an id")
        };
        assert!(Command::from_json(&rest)
            .unwrap_err()
            .to_string()
            .contains("duplicate key `seat`"));
    }
}
