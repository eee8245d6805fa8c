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
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use qe_core::bots::ValueBot;
use qe_core::{AssetKind, Command, Manifest, Match, MatchView, Seat};

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
    /// Set when it is stopped: its reader and writer threads then end within [`pipe::POLL`],
    /// whatever holds its pipes open (something it started that left its process group).
    stop: Arc<AtomicBool>,
}

impl Running {
    /// Starts the program, with a thread that writes its input and one that reads its output.
    /// A thread that cannot be started is an error, as a program that cannot be: the program is
    /// stopped again.
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
        let stop = Arc::new(AtomicBool::new(false));
        let stdin = pipe::Stoppable::new(child.stdin.take().expect("piped stdin"), &stop);
        let stdout = pipe::Stoppable::new(child.stdout.take().expect("piped stdout"), &stop);
        let (tx, lines) = mpsc::sync_channel(LINES_AHEAD);
        let (messages, rx) = mpsc::sync_channel::<String>(MESSAGES_AHEAD);
        let threads = spawn_thread(move || read_lines(stdout, &tx)).and_then(|()| {
            spawn_thread(move || {
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
            })
        });
        let mut running = Running {
            child,
            messages: Some(messages),
            lines,
            kill: true,
            stop,
        };
        threads?;
        running.kill = false;
        Ok(running)
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

    /// Stops the program and everything it started (its process group, killed before its leader
    /// is reaped, so the group's id cannot have been reused), then reaps it, and ends its reader
    /// and writer threads.
    fn stop(&mut self) {
        groups::stop(self.child.id());
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.stop.store(true, Ordering::Relaxed);
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

/// Starts a thread; in the unit tests, fails while `test_hooks::FAIL_THREADS` is set on the
/// calling thread.
fn spawn_thread(f: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
    #[cfg(test)]
    if test_hooks::FAIL_THREADS.with(std::cell::Cell::get) {
        return Err(std::io::Error::other("no thread may be started (a test)"));
    }
    std::thread::Builder::new().spawn(f).map(drop)
}

#[cfg(test)]
mod test_hooks {
    thread_local! {
        /// No thread can be started.
        pub static FAIL_THREADS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
}

/// Pipe ends that a thread can be told to stop waiting on: each read or write waits at most
/// `pipe::POLL` at a time for the pipe to be ready, and gives up once the flag is set (Unix; elsewhere
/// they block as the plain pipe does).
mod pipe {
    use std::io::{self, Read, Write};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    /// How long a read or write waits before it looks at the flag again.
    pub const POLL: Duration = Duration::from_millis(50);

    pub struct Stoppable<P> {
        pipe: P,
        stop: Arc<AtomicBool>,
    }

    impl<P> Stoppable<P> {
        pub fn new(pipe: P, stop: &Arc<AtomicBool>) -> Stoppable<P> {
            Stoppable {
                pipe,
                stop: Arc::clone(stop),
            }
        }

        fn stopped() -> io::Error {
            io::Error::new(io::ErrorKind::BrokenPipe, "the agent was stopped")
        }
    }

    /// Waits at most [`POLL`] for `fd` to be ready for `events`: whether it is (else a timeout or
    /// an interruption, and the caller tries again).
    #[cfg(unix)]
    fn ready(fd: std::os::fd::RawFd, events: libc::c_short) -> bool {
        let mut poll = libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // SAFETY: one valid pollfd for one open descriptor.
        unsafe { libc::poll(&raw mut poll, 1, POLL.as_millis() as libc::c_int) > 0 }
    }

    #[cfg(unix)]
    impl<P: Read + std::os::fd::AsRawFd> Read for Stoppable<P> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            loop {
                if self.stop.load(Ordering::Relaxed) {
                    return Err(Self::stopped());
                }
                // Ready (data, the end, or an error to report): the read does not block.
                if ready(self.pipe.as_raw_fd(), libc::POLLIN) {
                    return self.pipe.read(buf);
                }
            }
        }
    }

    #[cfg(unix)]
    impl<P: Write + std::os::fd::AsRawFd> Write for Stoppable<P> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            let fd = self.pipe.as_raw_fd();
            // SAFETY: fcntl on an open descriptor of ours; non-blocking, a write never waits
            // (it says WouldBlock) and the wait is a poll that looks at the flag.
            unsafe {
                let flags = libc::fcntl(fd, libc::F_GETFL);
                if flags >= 0 && flags & libc::O_NONBLOCK == 0 {
                    libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
                }
            }
            loop {
                if self.stop.load(Ordering::Relaxed) {
                    return Err(Self::stopped());
                }
                match self.pipe.write(buf) {
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                        ready(fd, libc::POLLOUT);
                    }
                    other => return other,
                }
            }
        }

        fn flush(&mut self) -> io::Result<()> {
            self.pipe.flush()
        }
    }

    #[cfg(not(unix))]
    impl<P: Read> Read for Stoppable<P> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.pipe.read(buf)
        }
    }

    #[cfg(not(unix))]
    impl<P: Write> Write for Stoppable<P> {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.pipe.write(buf)
        }

        fn flush(&mut self) -> io::Result<()> {
            self.pipe.flush()
        }
    }
}

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
    /// The `start` message of the current game.
    start_line: String,
    /// The program has written a line in the current game.
    heard: bool,
    /// The program was started again in the current game (see [`ExecSeat::restart`]).
    restarted: bool,
}

/// Why a question got no answer.
#[derive(Clone, Copy)]
enum Fault {
    /// The program is gone, or cannot be started.
    Crash,
    /// It did not answer in time, or left its questions unread.
    Timeout,
    /// Ctrl-C: no fault of the agent's.
    Interrupted,
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
            start_line: String::new(),
            heard: false,
            restarted: false,
        }
    }

    /// Starts a game at `seat`: starts the program if it is not running (never started, failed
    /// in the last game, or exited since) and sends `start`.
    pub fn start(&mut self, m: &Match, game: u64, seat: Seat, manifest: &Manifest) {
        self.sent = 0;
        self.broken = false;
        self.heard = false;
        self.restarted = false;
        let rules = m.game().rules();
        self.start_line = format!(
            r#"{{"type":"start","protocol":"{PROTOCOL}","game":{game},"seat":{},"players":{},"expansions":{},"commodities":{},"turns":{},"manifest":{}}}"#,
            seat.0,
            rules.players(),
            serde_json::to_string(&rules.expansions()).expect("expansions serialize"),
            rules.expansions().contains(qe_core::Expansion::Commodities),
            rules.turns(),
            crate::manifest::to_json(manifest),
        );
        // Exited between games: dropped (its group is stopped), and started again.
        if self.running.as_mut().is_some_and(Running::exited) {
            self.running = None;
        }
        if self.running.is_none() {
            match Running::spawn(&self.argv) {
                Ok(r) => self.running = Some(r),
                Err(_) => return self.failed(Fault::Crash),
            }
        }
        if let Err(fault) = self.send(self.start_line.clone()) {
            if !(matches!(fault, Fault::Crash) && self.restart()) {
                self.failed(fault);
            }
        }
    }

    /// Starts the program again in this game, once, when it turns out to be gone before it said
    /// anything in the game: it most likely exited between games, after the last `end`. Sends it
    /// `start` and every event of the game again. Whether it is running again.
    fn restart(&mut self) -> bool {
        if self.heard || self.restarted {
            return false;
        }
        self.restarted = true;
        self.stop();
        self.sent = 0;
        match Running::spawn(&self.argv) {
            Ok(r) => self.running = Some(r),
            Err(_) => return false,
        }
        self.send(self.start_line.clone()).is_ok()
    }

    /// Queues `line`: an agent that no longer reads has crashed, one that has left the last
    /// messages unread times out (it is not reading, so it cannot answer in time).
    fn send(&mut self, line: String) -> Result<(), Fault> {
        match self.running.as_mut().map(|r| r.send(line)) {
            Some(Sent::Queued) => Ok(()),
            Some(Sent::NotReading) => Err(Fault::Timeout),
            Some(Sent::Gone) | None => Err(Fault::Crash),
        }
    }

    /// Counts `fault` and stops the program for the rest of the game (it is started again for
    /// the next one).
    fn failed(&mut self, fault: Fault) {
        match fault {
            Fault::Crash => self.faults.crashes += 1,
            Fault::Timeout => self.faults.timeouts += 1,
            Fault::Interrupted => {}
        }
        self.broken = true;
        self.stop();
    }

    /// Stops the program at once, if it runs.
    fn stop(&mut self) {
        if let Some(r) = self.running.as_mut() {
            r.kill = true;
        }
        self.running = None;
    }

    /// Waits for the agent's next line, until `until` and not past a Ctrl-C.
    fn answer(&mut self, until: Instant) -> Result<Line, Fault> {
        let running = self.running.as_mut().ok_or(Fault::Crash)?;
        let asked = Instant::now();
        let answer = loop {
            let left = until.saturating_duration_since(Instant::now());
            match running.lines.recv_timeout(left.min(INTERRUPT_POLL)) {
                Ok(line) => break Ok(line),
                Err(RecvTimeoutError::Disconnected) => break Err(Fault::Crash),
                Err(RecvTimeoutError::Timeout) if left.is_zero() => break Err(Fault::Timeout),
                Err(RecvTimeoutError::Timeout) if crate::interrupt::requested() => {
                    break Err(Fault::Interrupted)
                }
                // The program has exited, though something it started may hold its output open
                // (no end of input comes then): a crash, once what it wrote has been read.
                // It is not reaped here: its group is killed first (`Running::stop`).
                Err(RecvTimeoutError::Timeout) if running.exited() => {
                    match running.lines.recv_timeout(INTERRUPT_POLL) {
                        Ok(line) => break Ok(line),
                        Err(_) => break Err(Fault::Crash),
                    }
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        };
        self.waited += asked.elapsed();
        answer
    }

    /// The events of the seat not yet sent, as a JSON list, and marks them sent.
    fn new_events(&mut self, m: &Match, seat: Seat) -> String {
        let events: Vec<qe_core::Event> = m.events_for(seat).skip(self.sent).collect();
        self.sent += events.len();
        serde_json::to_string(&events).expect("events serialize")
    }

    /// The seat's command now: the program's answer if it is legal, else the fallback's move.
    pub fn decide(&mut self, m: &Match, game: u64, seat: Seat, fallback: &mut ValueBot) -> Command {
        while !self.broken {
            let view = m.view(Some(seat));
            let bounds = m.deduce(seat);
            let legal = legal_json(&view.view.legal);
            self.asked += 1;
            let events = self.new_events(m, seat);
            let line = format!(
                r#"{{"type":"act","game":{game},"seat":{},"id":{},"view":{},"spend_bounds":{},"events":{},"legal":{legal}}}"#,
                seat.0,
                self.asked,
                serde_json::to_string(&AgentView::of(&view)).expect("views serialize"),
                serde_json::to_string(bounds.seats.in_play(m.game().players()))
                    .expect("bounds serialize"),
                events,
            );
            let fault = match self.send(line).and_then(|()| self.read_answer(m, seat)) {
                Ok(Some(c)) => return c,
                // An illegal answer: counted; the agent is asked again at its next decision.
                Ok(None) => break,
                Err(fault) => fault,
            };
            // Gone before a word in this game: started again once and asked again.
            if !(matches!(fault, Fault::Crash) && self.restart()) {
                self.failed(fault);
            }
        }
        self.faults.fallback_moves += 1;
        qe_core::bots::decide(fallback, m, seat, true).expect("the value bot acts when it must")
    }

    /// Reads the answer to the `act` just sent (id [`ExecSeat::asked`]) within the time limit:
    /// the command if it is legal, `None` for an illegal answer (counted), or why none came.
    /// Answers that carry another `id` are dropped and counted as stale, and the wait goes on.
    fn read_answer(&mut self, m: &Match, seat: Seat) -> Result<Option<Command>, Fault> {
        let until = Instant::now() + self.timeout;
        loop {
            let line = self.answer(until)?;
            self.heard = true;
            self.answers += 1;
            let Line::Bytes(bytes) = line else {
                self.faults.illegal += 1;
                return Ok(None);
            };
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
            return Ok(match command {
                Ok(c) if c.seat() == Some(seat) && is_legal(m, c) => Some(c),
                _ => {
                    self.faults.illegal += 1;
                    None
                }
            });
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
        if let Err(fault) = self.send(line) {
            self.failed(fault);
        }
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

/// Whether `command` is legal now (R-AUC-12), tried on a copy of the game.
/// The `view` of an `act` message: the seat's [`MatchView`], whose `expansions` list is the set,
/// and `commodities`, kept in `qe-agent/1` for agents written before `expansions`.
#[derive(serde::Serialize)]
struct AgentView<'a> {
    #[serde(flatten)]
    view: &'a MatchView,
    commodities: bool,
}

impl<'a> AgentView<'a> {
    fn of(view: &'a MatchView) -> AgentView<'a> {
        AgentView {
            view,
            commodities: view
                .view
                .expansions
                .contains(qe_core::Expansion::Commodities),
        }
    }
}

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

    fn sh(script: &str) -> Vec<String> {
        vec!["sh".into(), "-c".into(), script.into()]
    }

    /// A thread that cannot be started is the agent's crash, as a program that cannot be: the
    /// value bot plays the seat, and the game goes on.
    #[test]
    fn an_agent_whose_threads_cannot_start_has_crashed() {
        let m = Match::seeded(qe_core::Rules::base(3).unwrap(), 1);
        let mut seat = ExecSeat::new(sh("cat > /dev/null"), Duration::from_secs(60));
        test_hooks::FAIL_THREADS.with(|f| f.set(true));
        seat.start(&m, 0, Seat(0), &Manifest::default());
        test_hooks::FAIL_THREADS.with(|f| f.set(false));
        assert_eq!(seat.faults.crashes, 1);
        assert!(seat.running.is_none());
        let to_act = m.game().to_act().first().unwrap();
        let mut fallback = ValueBot::new(1);
        let c = seat.decide(&m, 0, to_act, &mut fallback);
        assert_eq!(c.seat(), Some(to_act));
        assert_eq!((seat.faults.crashes, seat.faults.fallback_moves), (1, 1));
    }

    /// The state of process `pid` (`/proc/PID/stat`), `None` once it is reaped.
    #[cfg(target_os = "linux")]
    fn state(pid: u32) -> Option<char> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        stat.rsplit(") ").next()?.chars().next()
    }

    /// A program that exits while something it started holds its output is seen to be gone
    /// without being reaped: its process group is killed while its id is still its own, and only
    /// then is it reaped.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_exited_agent_is_reaped_only_after_its_group_is_killed() {
        let mut seat = ExecSeat::new(sh("sleep 30 & exit 0"), Duration::from_secs(60));
        seat.running = Some(Running::spawn(&seat.argv).unwrap());
        let pid = seat.running.as_ref().unwrap().child.id();
        let until = Instant::now() + Duration::from_secs(60);
        assert!(matches!(seat.answer(until), Err(Fault::Crash)));
        assert_eq!(state(pid), Some('Z'), "exited, not reaped");
        // Its group still holds the `sleep`, which the kill reaches.
        // SAFETY: a signal 0 to a process group only checks that it exists.
        let group = || unsafe { libc::killpg(pid as libc::pid_t, 0) } == 0;
        assert!(group());
        seat.failed(Fault::Crash);
        assert_eq!(state(pid), None, "reaped");
        let gone = Instant::now() + Duration::from_secs(10);
        while group() && Instant::now() < gone {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(!group(), "the group was killed");
    }
}
