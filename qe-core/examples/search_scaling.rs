//! Does more search change the search bot's decisions? At the bid decisions of games between four
//! `search:medium` bots, asks search bots of several budgets (each twice, with two seeds) and
//! counts how often they agree with each other and with a reference search of a much larger
//! budget. Low agreement of a budget with itself (two seeds) means its estimate is noise-limited;
//! agreement with the reference says how close it is to what the model's best answer is.
//!
//! With `BIDS=1` in the environment it prints instead, at every sealed bid of those games, the
//! bid of a search bot of the first configuration, the `value` bot's bid in the same view and the
//! smallest legal bid (`BID search value min phase`).
//!
//! `cargo run --release -p qe-core --example search_scaling -- [GAMES] [REF_BUDGET] [BUDGET,CANDIDATES,PROBE ...]`

use qe_core::bots::{by_name, BoxedBot, SearchBot, SearchConfig};
use qe_core::Manifest;
use qe_core::{Command, Match, Rules, Seat};

fn parse(s: &str) -> SearchConfig {
    let v: Vec<u64> = s.split(',').map(|x| x.parse().unwrap()).collect();
    SearchConfig {
        budget: v[0],
        candidates: v.get(1).copied().unwrap_or(7) as u8,
        probe_worlds: v.get(2).copied().unwrap_or(24) as u16,
        ..SearchConfig::default()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let reference = parse(&args.next().unwrap_or_else(|| "1920000,9,40".into()));
    let mut configs: Vec<SearchConfig> = args.map(|a| parse(&a)).collect();
    if configs.is_empty() {
        configs = vec![parse("60000,7,24"), parse("240000,9,40")];
    }
    let rules = Rules::base(4).unwrap();
    let n = configs.len();
    let (mut decisions, mut ref_self) = (0u64, 0u64);
    let mut self_agree = vec![0u64; n];
    let mut ref_agree = vec![0u64; n];
    let mut abs_gap = vec![0f64; n];
    for g in 0..games {
        let me = Seat((g % 4) as u8);
        let mut m = Match::seeded(rules, 9000 + g);
        let mut bots: Vec<BoxedBot> = (0..4)
            .map(|s| by_name("search:medium", g * 17 + s).unwrap())
            .collect();
        while !m.game().is_over() {
            let s = m.game().to_act().first().unwrap();
            if std::env::var("BIDS").is_ok() && m.game().legal(s).bid.is_some() {
                // What a search bot bids against what the value bot would in the same view.
                let view = m.view(Some(s));
                let mut probe =
                    SearchBot::with_config(configs[0], g * 3 + decisions, Manifest::default());
                let sb = probe.decide(&view);
                let vb = by_name("value", g * 5 + decisions).unwrap().act(&view.view);
                let range = m.game().legal(s).bid.unwrap();
                if let (
                    Some(Command::Bid { amount: a, .. }),
                    Some(Command::Bid { amount: b, .. }),
                ) = (sb, vb)
                {
                    println!("BID {} {} {} {:?}", a, b, range.min, m.game().phase());
                }
                decisions += 1;
            } else if s == me && m.game().legal(s).bid.is_some() {
                let view = m.view(Some(s));
                let ask = |c: SearchConfig, seed: u64| -> u64 {
                    let mut b = SearchBot::with_config(c, seed, Manifest::default());
                    match b.decide(&view) {
                        Some(Command::Bid { amount, .. }) => amount,
                        _ => u64::MAX,
                    }
                };
                let r1 = ask(reference, g * 1000 + decisions);
                let r2 = ask(reference, g * 1000 + decisions + 500);
                decisions += 1;
                ref_self += u64::from(r1 == r2);
                for (i, &c) in configs.iter().enumerate() {
                    let a = ask(c, g * 77 + decisions);
                    let b = ask(c, g * 77 + decisions + 999);
                    self_agree[i] += u64::from(a == b);
                    ref_agree[i] += u64::from(a == r1);
                    abs_gap[i] += (a as f64 - r1 as f64).abs();
                }
            }
            let c = qe_core::bots::decide(&mut *bots[s.index()], &m, s, true).unwrap();
            m.apply(c).unwrap();
        }
    }
    println!(
        "{games} games, {decisions} bid decisions; reference {reference:?} agrees with itself {:.1}%",
        100.0 * ref_self as f64 / decisions as f64
    );
    for (i, c) in configs.iter().enumerate() {
        println!(
            "{c:?}: agrees with itself {:.1}%, with the reference {:.1}%, mean |bid - reference| {:.2}",
            100.0 * self_agree[i] as f64 / decisions as f64,
            100.0 * ref_agree[i] as f64 / decisions as f64,
            abs_gap[i] / decisions as f64
        );
    }
}
