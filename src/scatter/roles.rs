//! Which main room is the entrance and which the boss room, and the order
//! of the main rooms outwards from the entrance.

use std::collections::VecDeque;

/// Roles of the main rooms (all indices are room indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roles {
    /// Main rooms by links from the entrance (then by index); the first is
    /// the entrance.
    pub order: Vec<usize>,
    /// The main room farthest from the entrance; `None` with one main room.
    pub boss: Option<usize>,
    /// Links from the entrance to each room (`usize::MAX` for rooms that
    /// are not main or not reached).
    pub depth: Vec<usize>,
}

impl Roles {
    /// The entrance.
    pub fn entrance(&self) -> Option<usize> {
        self.order.first().copied()
    }

    /// A link turned to lead away from the entrance: `(nearer, farther)`,
    /// ties by index.
    pub fn orient(&self, (a, b): (usize, usize)) -> (usize, usize) {
        if (self.depth[b], b) < (self.depth[a], a) {
            (b, a)
        } else {
            (a, b)
        }
    }
}

/// Links from `start` to every room over `links` (`usize::MAX` unreached).
fn depths(rooms: usize, links: &[(usize, usize)], start: usize) -> Vec<usize> {
    let mut adj = vec![Vec::new(); rooms];
    for &(a, b) in links {
        adj[a].push(b);
        adj[b].push(a);
    }
    let mut depth = vec![usize::MAX; rooms];
    depth[start] = 0;
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for &w in &adj[v] {
            if depth[w] == usize::MAX {
                depth[w] = depth[v] + 1;
                queue.push_back(w);
            }
        }
    }
    depth
}

/// The reached room of `candidates` deepest in `depth`, the first of equals.
fn deepest(candidates: &[usize], depth: &[usize]) -> Option<usize> {
    candidates
        .iter()
        .copied()
        .filter(|&r| depth[r] != usize::MAX)
        .max_by_key(|&r| (depth[r], std::cmp::Reverse(r)))
}

/// The entrance is an end of the spanning tree's longest path (the main
/// room farthest from the first one); the boss room is the main room
/// farthest from the entrance over all links.
pub fn roles(
    rooms: usize,
    main: &[usize],
    tree: &[(usize, usize)],
    links: &[(usize, usize)],
) -> Roles {
    let Some(&first) = main.first() else {
        return Roles {
            order: Vec::new(),
            boss: None,
            depth: vec![usize::MAX; rooms],
        };
    };
    let entrance = deepest(main, &depths(rooms, tree, first)).unwrap_or(first);
    let depth = depths(rooms, links, entrance);
    let boss = deepest(main, &depth).filter(|&b| b != entrance);
    let mut order = main.to_vec();
    order.sort_by_key(|&r| (depth[r], r));
    Roles { order, boss, depth }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrance_and_boss_at_the_ends_of_a_path() {
        // Rooms 1 - 3 - 5 - 7 in a line, 0 2 4 6 are fillers.
        let tree = [(1, 3), (3, 5), (5, 7)];
        let r = roles(8, &[1, 3, 5, 7], &tree, &tree);
        assert_eq!(r.entrance(), Some(7));
        assert_eq!(r.boss, Some(1));
        assert_eq!(r.order, vec![7, 5, 3, 1]);
        assert_eq!(r.orient((3, 5)), (5, 3));
    }

    #[test]
    fn a_loop_brings_the_boss_nearer() {
        // Path 0 - 1 - 2 - 3 - 4 plus the extra link 0 - 3.
        let tree = [(0, 1), (1, 2), (2, 3), (3, 4)];
        let mut links = tree.to_vec();
        links.push((0, 3));
        let r = roles(5, &[0, 1, 2, 3, 4], &tree, &links);
        assert_eq!(r.entrance(), Some(4));
        // From 4: 3 at 1, 0 and 2 at 2, 1 at 3.
        assert_eq!(r.boss, Some(1));
    }

    #[test]
    fn one_or_no_main_room() {
        let r = roles(3, &[2], &[], &[]);
        assert_eq!((r.entrance(), r.boss), (Some(2), None));
        assert_eq!(roles(3, &[], &[], &[]).entrance(), None);
    }
}
