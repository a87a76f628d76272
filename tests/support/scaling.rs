//! The scaling graphs of the bench (`scaling/*`) and of the large-level
//! tests: random trees of normal rooms plus about 10% loop edges.

use dungeonflow::internals::rng::Rng;

/// How the loop edges of a [`scaling_flow`] may sit.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Loops {
    /// Anywhere: loops share rooms and merge into blocks of many cycles.
    Overlapping,
    /// Each room on at most one loop (the tree path a loop edge closes
    /// crosses no other loop's): every loop composite is one cycle.
    RoomDisjoint,
}

/// A flow of `n` normal rooms: a random tree (at most 2 children a room) plus
/// about 10% extra loop edges between rooms 3 to 6 tree steps apart, placed
/// as `loops` says.
pub fn scaling_flow(n: usize, seed: u64, loops: Loops) -> String {
    let mut rng = Rng::new(seed);
    let mut on_loop = vec![false; n];
    let mut parent = vec![usize::MAX; n];
    let mut kids = vec![0; n];
    let mut flow =
        format!("name: scale{n}\nlayout: {{ reuse_templates: true }}\nnodes:\n  r0: entrance\n");
    for i in 1..n {
        flow += &format!("  r{i}: normal\n");
    }
    flow += "edges:\n";
    for (i, slot) in parent.iter_mut().enumerate().skip(1) {
        let lo = i.saturating_sub(8);
        let mut p = lo + rng.index(i - lo);
        while kids[p] >= 2 {
            p = (p + 1) % i;
        }
        kids[p] += 1;
        *slot = p;
        flow += &format!("  - r{p} -> r{i}\n");
    }
    flow += "loops:\n";
    let mut degree: Vec<usize> = (0..n).map(|i| kids[i] + usize::from(i > 0)).collect();
    let mut added = 0;
    let mut tries = 0;
    while added < n / 10 && tries < n * 50 {
        tries += 1;
        let a = 1 + rng.index(n - 1);
        let mut b = a;
        for _ in 0..3 + rng.index(4) {
            if parent[b] != usize::MAX {
                b = parent[b];
            }
        }
        let steps_down = rng.index(3);
        let mut c = b;
        for _ in 0..steps_down {
            let children: Vec<usize> = (0..n).filter(|&x| parent[x] == c).collect();
            if children.is_empty() {
                break;
            }
            c = children[rng.index(children.len())];
        }
        if c == a || parent[a] == c || parent[c] == a || degree[a] >= 4 || degree[c] >= 4 {
            continue;
        }
        if loops == Loops::RoomDisjoint {
            let cycle = tree_path(&parent, a, c);
            if cycle.iter().any(|&v| on_loop[v]) {
                continue;
            }
            for v in cycle {
                on_loop[v] = true;
            }
        }
        degree[a] += 1;
        degree[c] += 1;
        added += 1;
        flow += &format!("  - r{a} <-> r{c}\n");
    }
    flow
}

/// The rooms of the tree path from `a` to `c` (both included).
fn tree_path(parent: &[usize], a: usize, c: usize) -> Vec<usize> {
    let up = |mut v: usize| {
        let mut path = vec![v];
        while parent[v] != usize::MAX {
            v = parent[v];
            path.push(v);
        }
        path
    };
    let (from_a, from_c) = (up(a), up(c));
    let common = *from_a
        .iter()
        .find(|v| from_c.contains(v))
        .expect("one tree");
    from_a
        .iter()
        .take_while(|&&v| v != common)
        .chain(from_c.iter().take_while(|&&v| v != common))
        .copied()
        .chain([common])
        .collect()
}
