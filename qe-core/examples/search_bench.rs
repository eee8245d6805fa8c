//! Measures the search bot: one search seat against `value` bots (or another opponent), seats
//! rotated, and the time of each of its decisions: wall time, and (on Linux) the time its thread
//! spent on a core (`CLOCK_THREAD_CPUTIME_ID`), which a loaded machine does not inflate.
//!
//! `cargo run --release -p qe-core --example search_bench -- [GAMES] [PLAYERS] [LEVEL] [commodities] [THREADS] [OPPONENT]`

use std::time::Instant;

/// Nanoseconds this thread has run on a core (`CLOCK_THREAD_CPUTIME_ID`, Linux), if known.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn on_cpu_ns() -> Option<u64> {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the C library's clock_gettime fills it.
    let ok = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &raw mut t) } == 0;
    ok.then(|| t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64)
}

#[cfg(not(target_os = "linux"))]
fn on_cpu_ns() -> Option<u64> {
    None
}

use qe_core::bots::{by_name, BoxedBot, Level, SearchBot};
use qe_core::{Match, Rules, Seat};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let players: u8 = args.next().and_then(|s| s.parse().ok()).unwrap_or(4);
    let level = args
        .next()
        .and_then(|s| Level::from_name(&s))
        .unwrap_or(Level::Medium);
    let commodities = args.next().as_deref() == Some("commodities");
    let threads: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let opponent = args.next().unwrap_or_else(|| "value".into());
    let rules = if commodities {
        Rules::commodities(players)
    } else {
        Rules::base(players)
    }
    .unwrap();
    type Result = (f64, Vec<f64>, u64, u64, u64, Vec<f64>);
    let results: Vec<Result> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let opponent = opponent.clone();
                scope.spawn(move || {
                    let mut wins = 0.0;
                    let mut times = Vec::new();
                    let mut cpu = Vec::new();
                    let (mut rejected, mut worlds, mut fallback) = (0, 0, 0);
                    let mut g = t;
                    while g < games {
                        let seat = Seat((g % u64::from(players)) as u8);
                        let mut m = Match::seeded(rules, 1000 + g);
                        let mut search = SearchBot::new(level, g * 7 + 1);
                        let mut others: Vec<BoxedBot> = (0..players)
                            .map(|s| by_name(&opponent, g * 31 + u64::from(s)).unwrap())
                            .collect();
                        while !m.game().is_over() {
                            let s = m.game().to_act().first().unwrap();
                            let c = if s == seat {
                                let view = m.view(Some(s));
                                let start = Instant::now();
                                let cpu_start = on_cpu_ns();
                                let c = search.decide(&view).unwrap();
                                times.push(start.elapsed().as_secs_f64() * 1e3);
                                if let (Some(a), Some(b)) = (cpu_start, on_cpu_ns()) {
                                    cpu.push((b - a) as f64 / 1e6);
                                }
                                let st = search.last_stats();
                                if std::env::var("QE_TRACE").is_ok() {
                                    eprintln!(
                                        "{} {} {} {} {:?}",
                                        m.game().turn(),
                                        st.commands,
                                        st.worlds,
                                        cpu.last().copied().unwrap_or(f64::NAN),
                                        m.game().phase()
                                    );
                                }
                                rejected += u64::from(st.rejected);
                                worlds += u64::from(st.worlds);
                                fallback += u64::from(st.fallback);
                                c
                            } else {
                                let bot = &mut others[s.index()];
                                qe_core::bots::decide(&mut **bot, &m, s, true).unwrap()
                            };
                            m.apply(c).unwrap();
                        }
                        let o = m.game().outcome().unwrap();
                        if o.seat(seat).winner {
                            wins += 1.0 / o.winners().count() as f64;
                        }
                        g += threads;
                    }
                    (wins, times, rejected, worlds, fallback, cpu)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let wins: f64 = results.iter().map(|r| r.0).sum();
    let mut times: Vec<f64> = results.iter().flat_map(|r| r.1.clone()).collect();
    times.sort_by(f64::total_cmp);
    let rejected: u64 = results.iter().map(|r| r.2).sum();
    let worlds: u64 = results.iter().map(|r| r.3).sum();
    let fallback: u64 = results.iter().map(|r| r.4).sum();
    let mut cpu: Vec<f64> = results.iter().flat_map(|r| r.5.clone()).collect();
    cpu.sort_by(f64::total_cmp);
    let p = wins / games as f64;
    let se = (p * (1.0 - p) / games as f64).sqrt();
    println!(
        "search:{} vs {opponent}, {players}p{}: {games} games, win {:.1}% ± {:.1} (fair {:.1}%)",
        level.name(),
        if commodities { " commodities" } else { "" },
        p * 100.0,
        1.96 * se * 100.0,
        100.0 / f64::from(players)
    );
    let q = |xs: &[f64], f: f64| xs[((xs.len() - 1) as f64 * f) as usize];
    println!(
        "decisions {}, wall: median {:.2} ms, p90 {:.2}, p99 {:.2}, max {:.2}; worlds {worlds}, rejected {rejected}, fallbacks {fallback}",
        times.len(),
        q(&times, 0.5),
        q(&times, 0.9),
        q(&times, 0.99),
        q(&times, 1.0)
    );
    if !cpu.is_empty() {
        println!(
            "decisions on a core: median {:.2} ms, p90 {:.2}, p99 {:.2}, max {:.2}",
            q(&cpu, 0.5),
            q(&cpu, 0.9),
            q(&cpu, 0.99),
            q(&cpu, 1.0)
        );
    }
}
