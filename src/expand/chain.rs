//! Chain rooms: length draws and rewrite rules.

use crate::flow::{CHAIN_LETTERS as LETTERS, Chain, FlowNode};
use crate::rng::Rng;

/// Passes of rewriting applied to a chain's start word.
pub const REWRITE_PASSES: usize = 4;

fn category_of(letter: char) -> Option<&'static str> {
    LETTERS.iter().find(|(l, _)| *l == letter).map(|(_, c)| *c)
}

fn letter_of(category: &str) -> char {
    LETTERS
        .iter()
        .find(|(_, c)| *c == category)
        .map_or('n', |(l, _)| *l)
}

/// The categories of a chain's rooms, in order.
pub fn chain_categories(node: &FlowNode, chain: &Chain, rng: &mut Rng) -> Vec<String> {
    let (lo, hi) = chain.length.value;
    if chain.rules.is_empty() {
        let len = rng.range(lo, hi);
        return vec![node.category.value.clone(); len as usize];
    }
    let pad = letter_of(&node.category.value);
    let mut word: Vec<char> = match &chain.start {
        Some(s) => s.value.chars().collect(),
        None => vec![pad],
    };
    for _ in 0..REWRITE_PASSES {
        let mut next = Vec::with_capacity(word.len() * 2);
        for &c in &word {
            let fired = chain
                .rules
                .iter()
                .filter(|r| r.from == c)
                .find(|r| rng.chance(r.chance));
            match fired {
                Some(rule) => next.extend(rule.to[rng.index(rule.to.len())].chars()),
                None => next.push(c),
            }
            if next.len() > hi as usize {
                break;
            }
        }
        word = next;
    }
    word.truncate(hi as usize);
    while word.len() < lo as usize {
        word.push(pad);
    }
    word.into_iter()
        .map(|c| category_of(c).unwrap_or("normal").to_owned())
        .collect()
}
