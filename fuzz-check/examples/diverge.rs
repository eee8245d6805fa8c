use qe_core::{Command, Game, Match};
use qe_fuzz_check::engine::{command, decode, external_nations, rules};
fn main() {
    let file = std::env::args().nth(1).unwrap();
    let input = decode(&std::fs::read(file).unwrap());
    let r = rules(&input).unwrap();
    let ns = external_nations(&r, &input.setup);
    let mut m = Match::new(Game::external_chance(r, ns.as_deref()).unwrap());
    let mut states = vec![];
    for &op in &input.ops {
        let Some(c) = command(m.game(), op) else {
            continue;
        };
        if m.apply(c).is_ok() && !matches!(c, Command::Chance(_)) {
            states.push((c, m.game().turn(), m.game().phase()));
        }
    }
    let rec = m.record().unwrap();
    let mut g = Game::new(
        rec.rules().unwrap(),
        rec.setup(&rec.rules().unwrap()).unwrap(),
    )
    .unwrap();
    for (i, (c, turn, phase)) in states.iter().enumerate() {
        if let Err(e) = g.apply(*c) {
            println!("cmd {i} {c:?}: {e}");
            break;
        }
        let _ = (turn, phase);
        if i > 0 && g.turn() > states[i].1 + 1 {
            println!(
                "cmd {i} {c:?}: turn {} vs {}, phase {:?} vs {:?}",
                g.turn(),
                states[i].1,
                g.phase(),
                states[i].2
            );
            break;
        }
    }
    println!(
        "deck {:?}",
        rec.deck.iter().map(|t| t.to_string()).collect::<Vec<_>>()
    );
    println!("piles {:?}", rec.piles);
}
