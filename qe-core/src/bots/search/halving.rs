//! Sequential halving: the pure choice among the candidates (every pile choice, every opening bid, and the sealed
//! bid unless [`SearchConfig::mixed`](super::SearchConfig::mixed)).

use alloc::vec::Vec;

use super::candidates::Choice;
use super::decision::Search;

impl Search<'_, '_> {
    /// Sequential halving over `candidates` within `budget` simulated commands; the best
    /// candidate, or `None` if no world could be built.
    pub(super) fn halving(&mut self, candidates: &[Choice], budget: u64) -> Option<Choice> {
        let c = candidates.len();
        self.stats.candidates = c as u8;
        let (per_playout, world) = self.costs();
        let ppw = u64::from(self.playouts_per_world);
        let rounds = usize::BITS - (c - 1).leading_zeros();
        // Each round shares its worlds among the candidates still in: worlds per playout.
        let mut share = 0.0;
        let mut alive_count = c;
        for _ in 0..rounds {
            share += 1.0 / (f64::from(rounds) * alive_count as f64);
            alive_count = alive_count.div_ceil(2);
        }
        let budget = budget.saturating_sub(self.worlds.len() as u64 * world) as f64;
        let playouts = ((budget / (per_playout + share * world as f64 / ppw as f64)) as u64)
            .max(2 * c as u64 * ppw)
            / ppw;
        let mut alive: Vec<usize> = (0..c).collect();
        let mut sum = alloc::vec![0.0f64; c];
        let mut count = alloc::vec![0u32; c];
        let mut next = 0usize;
        'rounds: for round in 0..rounds {
            let per = (playouts / (u64::from(rounds) * alive.len() as u64)).max(1);
            for _ in 0..per {
                if self.out_of_time() {
                    break 'rounds;
                }
                if self.world(next).is_none() {
                    break;
                }
                for &k in &alive {
                    sum[k] += self.value(next, candidates[k]);
                    count[k] += 1;
                }
                next += 1;
            }
            if round + 1 < rounds {
                // Ties go to the earlier candidate (the cheaper bid).
                alive.sort_by(|&x, &y| sum[y].total_cmp(&sum[x]).then(x.cmp(&y)));
                alive.truncate(alive.len().div_ceil(2));
            }
        }
        // The best mean (the candidates still in have played the same worlds, unless the clock
        // stopped a round); ties to the earlier candidate.
        let mean = |k: usize| sum[k] / f64::from(count[k].max(1));
        alive.sort_by(|&x, &y| mean(y).total_cmp(&mean(x)).then(x.cmp(&y)));
        alive.first().map(|&k| candidates[k])
    }
}
