//! The mixed strategy of [`SearchConfig::mixed`](super::SearchConfig::mixed): regret matching
//! for every seat of a sealed bidding step at once, and the draw of the sealed bid from the
//! searching seat's strategy.

use alloc::vec::Vec;

use super::candidates::Choice;
use super::decision::Search;
use crate::seat::Seat;

/// One seat's regret matching at the sealed step: its regrets (kept non-negative, regret
/// matching+) and its strategies summed with weights growing with the round (linear averaging).
struct Regrets {
    regret: Vec<f64>,
    summed: Vec<f64>,
}

impl Regrets {
    fn new(actions: usize) -> Regrets {
        Regrets {
            regret: alloc::vec![0.0; actions],
            summed: alloc::vec![0.0; actions],
        }
    }

    /// The strategy of the next round: proportional to the positive regrets, uniform when none is.
    fn strategy(&self) -> Vec<f64> {
        normalized(&self.regret)
    }

    /// A round where the seat played `strategy` and its actions would have scored `outcomes`
    /// (against the same bids of the others); `weight` is the round's weight in the average.
    fn update(&mut self, strategy: &[f64], outcomes: &[f64], weight: f64) {
        let expected: f64 = strategy.iter().zip(outcomes).map(|(s, u)| s * u).sum();
        for ((r, u), (sum, s)) in self
            .regret
            .iter_mut()
            .zip(outcomes)
            .zip(self.summed.iter_mut().zip(strategy))
        {
            *r = (*r + u - expected).max(0.0);
            *sum += weight * s;
        }
    }

    /// The average strategy over the rounds played.
    fn average(&self) -> Vec<f64> {
        normalized(&self.summed)
    }
}

/// `xs`' positive parts scaled to sum to 1; uniform when none is positive.
fn normalized(xs: &[f64]) -> Vec<f64> {
    let positive: f64 = xs.iter().map(|x| x.max(0.0)).sum();
    xs.iter()
        .map(|x| {
            if positive > 0.0 {
                x.max(0.0) / positive
            } else {
                1.0 / xs.len() as f64
            }
        })
        .collect()
}

impl Search<'_, '_> {
    /// Regret matching for every bidder of the sealed step, within `budget` simulated commands;
    /// the searching seat's average strategy over `candidates`, or `None` if the budget affords
    /// fewer than `min_rounds` rounds or no world could be built. In a share `model_share` (in
    /// percent) of the rounds, each other bidder is held to its modelled bid.
    ///
    /// The step is a simultaneous game (R-AUC-3, R-AUC-6: the bids are secret): each sampled world
    /// is a round in which every bidder's action is drawn from its current strategy. The searching
    /// seat's actions are the candidate bids; each other bidder's are the same amounts (made legal
    /// for it) and its modelled bid in the world (the `value` bot's, from what that seat knows
    /// there). Every bidder's regrets are then updated with what each of its actions would have
    /// scored against the others' drawn bids (the rest of the game played out by the model, the
    /// same noise for every action), so each answers the others' mixtures rather than one fixed
    /// model of them. Without another bidder it is regret matching against the model's bids.
    pub(super) fn joint_regret_matching(
        &mut self,
        candidates: &[Choice],
        budget: u64,
        model_share: u8,
        min_rounds: u16,
    ) -> Option<Vec<f64>> {
        let me = self.know.me;
        let c = candidates.len();
        self.stats.candidates = c as u8;
        let amounts: Vec<u64> = candidates
            .iter()
            .map(|choice| match choice {
                Choice::Bid(amount) => *amount,
                _ => 0,
            })
            .collect();
        let rivals: Vec<Seat> = self
            .worlds
            .first()?
            .pending
            .seats()
            .filter(|(s, v)| *s != me && v.is_some())
            .map(|(s, _)| s)
            .collect();
        // A rival's actions: the amounts, then its modelled bid.
        let rc = c + 1;
        let (per_playout, world) = self.costs();
        let ppw = f64::from(self.playouts_per_world);
        let model_share = f64::from(model_share.min(100)) / 100.0;
        // A round plays the candidates, and each free rival's actions (a held one needs none).
        let free_actions = rivals.len() as f64 * rc as f64 * (1.0 - model_share);
        let per_round = (c as f64 + free_actions) * ppw * per_playout + world as f64;
        let budget = budget.saturating_sub(self.worlds.len() as u64 * world) as f64;
        let rounds = (budget / per_round) as usize;
        if rounds < usize::from(min_rounds.max(2)) {
            return None;
        }
        let mut mine = Regrets::new(c);
        let mut theirs: Vec<Regrets> = rivals.iter().map(|_| Regrets::new(rc)).collect();
        let mut outcomes = alloc::vec![0.0f64; c];
        let mut played = 0;
        for t in 0..rounds {
            if self.out_of_time() || self.world(t).is_none() {
                break;
            }
            let modelled = self.worlds[t].pending;
            // Rival action `k`: an amount, or (the last) its modelled bid in this world.
            let amount = |r: Seat, k: usize| amounts.get(k).copied().or(modelled[r]);
            let my_strategy = mine.strategy();
            let my_action = draw(&my_strategy, self.rng.unit());
            // Each rival is held to its modelled bid, or free: its bid drawn from its strategy.
            let mut bids = modelled;
            let mut free = Vec::with_capacity(rivals.len());
            for (&r, regrets) in rivals.iter().zip(&theirs) {
                let strategy = (self.rng.unit() >= model_share).then(|| regrets.strategy());
                if let Some(p) = &strategy {
                    bids[r] = amount(r, draw(p, self.rng.unit()));
                }
                free.push(strategy);
            }
            // Each bidder's actions against the others' drawn bids, then every update at once.
            for (k, &choice) in candidates.iter().enumerate() {
                outcomes[k] = self.shares(t, choice, &bids)[me.index()];
            }
            let mut rival_outcomes = Vec::with_capacity(rivals.len());
            for (&r, strategy) in rivals.iter().zip(&free) {
                let mut u = alloc::vec![0.0f64; if strategy.is_some() { rc } else { 0 }];
                let mut deviated = bids;
                for (k, x) in u.iter_mut().enumerate() {
                    deviated[r] = amount(r, k);
                    *x = self.shares(t, candidates[my_action], &deviated)[r.index()];
                }
                rival_outcomes.push(u);
            }
            let weight = (t + 1) as f64;
            mine.update(&my_strategy, &outcomes, weight);
            for ((regrets, strategy), u) in theirs.iter_mut().zip(&free).zip(&rival_outcomes) {
                if let Some(p) = strategy {
                    regrets.update(p, u, weight);
                }
            }
            played += 1;
        }
        (played > 0).then(|| mine.average())
    }
}

/// The index drawn from the distribution `p` (summing to about 1) by `u` in `[0, 1)`.
pub(super) fn draw(p: &[f64], u: f64) -> usize {
    let total: f64 = p.iter().sum();
    let mut left = u * total;
    for (i, &x) in p.iter().enumerate() {
        if left < x {
            return i;
        }
        left -= x;
    }
    p.iter()
        .rposition(|&x| x > 0.0)
        .unwrap_or(p.len().saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Self-play of two seats' [`Regrets`] on a matrix game with exact outcomes: the average
    /// strategies of both.
    fn self_play(payoff: &[[f64; 3]; 3], rounds: usize) -> (Vec<f64>, Vec<f64>) {
        let (mut a, mut b) = (Regrets::new(3), Regrets::new(3));
        for t in 0..rounds {
            let (pa, pb) = (a.strategy(), b.strategy());
            // Row's outcome of each action against column's mixture, and column's (zero sum).
            let ua: Vec<f64> = (0..3)
                .map(|i| (0..3).map(|j| pb[j] * payoff[i][j]).sum())
                .collect();
            let ub: Vec<f64> = (0..3)
                .map(|j| (0..3).map(|i| -pa[i] * payoff[i][j]).sum())
                .collect();
            a.update(&pa, &ua, (t + 1) as f64);
            b.update(&pb, &ub, (t + 1) as f64);
        }
        (a.average(), b.average())
    }

    /// Rock, paper, scissors: the only equilibrium is uniform, and the averages reach it.
    #[test]
    fn regret_matching_finds_the_mixed_equilibrium_of_a_cyclic_game() {
        let rps = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]];
        let (a, b) = self_play(&rps, 2_000);
        for p in a.iter().chain(&b) {
            assert!((p - 1.0 / 3.0).abs() < 0.02, "{a:?} {b:?}");
        }
    }

    /// A biased cyclic game (a win with the first action pays twice): the equilibrium is not
    /// uniform (row 1/4, 5/12, 1/3: the mixture that leaves the column indifferent), and the averages find it.
    #[test]
    fn regret_matching_finds_an_uneven_equilibrium() {
        let game = [[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]];
        let (a, _) = self_play(&game, 5_000);
        let want = [0.25, 5.0 / 12.0, 1.0 / 3.0];
        for (p, w) in a.iter().zip(want) {
            assert!((p - w).abs() < 0.03, "{a:?} against {want:?}");
        }
    }

    /// A dominated action gets no weight in the long run.
    #[test]
    fn regret_matching_drops_a_dominated_action() {
        let game = [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.5, 0.5, 0.5]];
        let (a, _) = self_play(&game, 1_000);
        assert!(a[0] > 0.98, "{a:?}");
    }
}
