//! The generic resolver of DATC v3.0 section 5.E (the partial-information algorithm).
//!
//! It knows nothing of orders: a `Decide` implementation states each order's condition,
//! asking the resolver for the orders it depends on. The resolver settles an order when
//! the optimistic and pessimistic readings agree, finds dependency cycles, and applies the
//! backup rule to a cycle with no single answer: circular movement (every move succeeds)
//! or a convoy paradox (the Szykman rule: the convoying fleets in it hold).

/// The conditions of one phase's orders, indexed by unit.
pub trait Decide {
    /// Whether order `u` succeeds; `opt` says which way to read what is still unknown.
    fn decide(&mut self, r: &mut Resolver, u: usize, opt: bool) -> bool;
    fn is_convoy(&self, u: usize) -> bool;
    fn is_move(&self, u: usize) -> bool;
    /// The Szykman rule took this convoy out.
    fn mark_paradox(&mut self, u: usize);
}

/// Bookkeeping of the resolution in progress.
pub struct Resolver {
    resolution: Vec<Option<bool>>,
    visited: Vec<bool>,
    in_cycle: Vec<bool>,
    cycle: Vec<usize>,
    /// Orders the recursion came back to while they were being decided, in the order hit.
    hit_log: Vec<usize>,
    /// Where each order stands in `cycle`, while it is there.
    cycle_pos: Vec<usize>,
    /// Cycle positions of undecided orders read while they sat in `cycle`: a frame that read
    /// one placed before its own part of `cycle` depends on an outer cycle.
    cycle_reads: Vec<usize>,
    uncertain: bool,
}

impl Resolver {
    pub fn new(n: usize) -> Resolver {
        Resolver {
            resolution: vec![None; n],
            visited: vec![false; n],
            in_cycle: vec![false; n],
            cycle: Vec::new(),
            hit_log: Vec::new(),
            cycle_pos: vec![0; n],
            cycle_reads: Vec::new(),
            uncertain: false,
        }
    }

    /// A resolver whose every order is already decided, for reading strengths afterwards.
    pub fn settled(results: &[bool]) -> Resolver {
        let mut r = Resolver::new(results.len());
        r.resolution = results.iter().map(|b| Some(*b)).collect();
        r
    }

    /// The decided result of `u` (false if it was never decided).
    pub fn result(&self, u: usize) -> bool {
        self.resolution[u].unwrap_or(false)
    }

    /// Decides `u` for good.
    pub fn settle(&mut self, d: &mut impl Decide, u: usize) {
        let mut rounds = 0;
        while self.resolution[u].is_none() {
            self.resolve(d, u, true);
            rounds += 1;
            if rounds > 8 {
                debug_assert!(false, "order {u} could not be settled");
                self.resolution[u] = Some(false);
            }
        }
    }

    /// Whether `u` succeeds: final when known, else the reading `opt` asks for.
    pub fn resolve(&mut self, d: &mut impl Decide, u: usize, opt: bool) -> bool {
        if let Some(result) = self.resolution[u] {
            return result;
        }
        if self.in_cycle[u] {
            self.cycle_reads.push(self.cycle_pos[u]);
            self.uncertain = true;
            return opt;
        }
        if self.visited[u] {
            self.add_to_cycle(u);
            self.hit_log.push(u);
            self.uncertain = true;
            return opt;
        }
        self.visited[u] = true;
        let old_cycle_len = self.cycle.len();
        let old_hits = self.hit_log.len();
        let old_reads = self.cycle_reads.len();
        let old_uncertain = self.uncertain;
        self.uncertain = false;
        let opt_result = d.decide(self, u, true);
        let pes_result = if self.uncertain && opt_result {
            d.decide(self, u, false)
        } else {
            opt_result
        };
        self.visited[u] = false;

        if opt_result == pes_result {
            self.truncate_cycle(old_cycle_len);
            self.hit_log.truncate(old_hits);
            self.cycle_reads.truncate(old_reads);
            self.uncertain = old_uncertain;
            self.resolution[u] = Some(opt_result);
            return opt_result;
        }
        // Hits on this order are accounted for now that we are back at it.
        let mut kept = old_hits;
        for i in old_hits..self.hit_log.len() {
            if self.hit_log[i] != u {
                self.hit_log[kept] = self.hit_log[i];
                kept += 1;
            }
        }
        self.hit_log.truncate(kept);
        let outer = self.cycle_reads[old_reads..]
            .iter()
            .any(|pos| *pos < old_cycle_len);
        if self.hit_log.len() == old_hits && !outer {
            // This order is the ancestor of the whole cycle.
            let cycle = self.cycle[old_cycle_len..].to_vec();
            self.truncate_cycle(old_cycle_len);
            self.cycle_reads.truncate(old_reads);
            self.backup_rule(d, &cycle);
            self.uncertain = old_uncertain;
            return self.resolve(d, u, opt);
        }
        self.add_to_cycle(u);
        opt
    }

    fn add_to_cycle(&mut self, u: usize) {
        if !self.in_cycle[u] {
            self.in_cycle[u] = true;
            self.cycle_pos[u] = self.cycle.len();
            self.cycle.push(u);
        }
    }

    fn truncate_cycle(&mut self, len: usize) {
        for u in self.cycle.drain(len..) {
            self.in_cycle[u] = false;
        }
    }

    /// DATC 5.B.9: a cycle with no single answer.
    fn backup_rule(&mut self, d: &mut impl Decide, cycle: &[usize]) {
        if cycle.iter().any(|u| d.is_convoy(*u)) {
            for u in cycle {
                if d.is_convoy(*u) {
                    d.mark_paradox(*u);
                    self.resolution[*u] = Some(false);
                }
            }
        } else if cycle.iter().all(|u| d.is_move(*u)) {
            for u in cycle {
                self.resolution[*u] = Some(true);
            }
        } else {
            for u in cycle {
                self.resolution[*u] = Some(false);
            }
        }
    }
}
