//! The solver: an exact search over (room, keys held) that honours one-way
//! doors, and a walkthrough guided by it.
//!
//! **Exact verdict.** From a state (room `r`, keys `K`) the player can walk
//! to every room of `r`'s strongly connected component under the doors `K`
//! opens and come back, so they pick up every key there; with the new keys
//! the component may grow, and so on to a fixpoint `(C, K*)`, which dominates
//! `(r, K)` (keys are never lost). The only moves that matter after that are
//! the ones that cannot be undone: through a door out of `C`, into a room `s`
//! from which `C` cannot be reached again, giving the state `(s, K*)`. These
//! states form a finite acyclic graph (keys only grow, and for fixed keys the
//! components form the condensation, a DAG). The level is solvable when a
//! path of states leads from the entrance to one holding every key from which
//! the goal can be reached. A level without one-way doors has one state.
//!
//! **Walkthrough.** Greedy: walk (shortest path through open doors) to the
//! nearest room holding a key not held yet, but only if the level is still
//! solvable from there (checked with the exact search, so a one-way door
//! never strands the walkthrough); when every key is held, walk to the goal.
//! This is a readable solution, not the shortest possible one.
//!
//! **Cost.** A state's closure is one incremental pair of searches,
//! O(rooms + doors). The exact search makes at most
//! `WORK_BUDGET / (rooms + doors)` states and otherwise stops with
//! `complete: false` (the verdict is then "not proven", never a guess);
//! the walkthrough explores one state per key picked up. A level thus costs
//! O(states x (rooms + doors)): quadratic in the worst case (a line of
//! rooms each locked by the key of the one before), linear without one-way
//! doors or locks.

use std::collections::{BTreeMap, HashMap, VecDeque};

use super::view::Puzzle;

/// Largest amount of work (states x rooms) the exact search does before it
/// gives up and reports the level as unproven.
const WORK_BUDGET: usize = 50_000_000;

/// One step of a walkthrough.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The player starts in this room.
    Start {
        /// Room id.
        room: String,
    },
    /// A locked door is opened (the first time it is passed).
    Open {
        /// The key used.
        key: String,
        /// The room the player opens it from.
        from: String,
        /// The room behind it.
        to: String,
    },
    /// The player walks through a door into a room.
    Walk {
        /// Room id.
        room: String,
        /// Whether the room was visited before (backtracking).
        revisit: bool,
    },
    /// A key is picked up.
    PickUp {
        /// Key id.
        key: String,
        /// Room id.
        room: String,
    },
}

/// A walkthrough from the entrance: every key, then the goal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solution {
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Critical path length: rooms entered after the start, revisits counted.
    pub length: usize,
    /// Rooms entered that had been visited before.
    pub backtracking: usize,
    /// Distinct rooms visited (the start included).
    pub rooms: usize,
    /// Keys picked up.
    pub keys: usize,
    /// Locked doors opened.
    pub locks: usize,
}

/// Why a level is not solvable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The key that cannot be obtained, when it is about a key.
    pub key: Option<String>,
    /// The room at fault (where the key lies, or the goal).
    pub room: Option<String>,
    /// A sentence saying what is wrong.
    pub message: String,
}

/// A locked door that does not guard anything: both its rooms can be reached
/// without its key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bypass {
    /// The lock's key.
    pub key: String,
    /// Source room of the door.
    pub from: String,
    /// Target room of the door.
    pub to: String,
}

/// A one-way door that strands the player when taken too early: from the
/// state before it the level can be finished, from the state after it not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trap {
    /// The room the door leaves.
    pub from: String,
    /// The room it leads to.
    pub to: String,
    /// Keys not held yet when the player is stranded.
    pub missing: Vec<String>,
}

/// What [`analyse`] finds out about a level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Whether the player can pick up every key and then reach the goal.
    pub solvable: bool,
    /// The goal room's id (boss, else exit), if any.
    pub goal: Option<String>,
    /// A walkthrough, when solvable.
    pub solution: Option<Solution>,
    /// Why it is not solvable (empty when it is).
    pub problems: Vec<Problem>,
    /// Rooms the player can never enter, whatever they do.
    pub unreachable: Vec<String>,
    /// Locked doors that can be walked around.
    pub bypasses: Vec<Bypass>,
    /// One-way doors that can strand the player.
    pub traps: Vec<Trap>,
    /// Distinct keys (lying in rooms or named by locks).
    pub keys: usize,
    /// Locked doors.
    pub locks: usize,
    /// Whether the search finished within its budget (when not, `solvable`
    /// is only true if a solution was found anyway).
    pub complete: bool,
}

/// Analyses a level: exact verdict, reasons, walkthrough, bypassed locks and
/// one-way traps.
pub fn analyse(puzzle: &Puzzle) -> Analysis {
    let mut a = Analysis {
        goal: puzzle.goal().map(|g| puzzle.rooms[g].id.clone()),
        locks: puzzle.doors.iter().filter(|d| d.lock.is_some()).count(),
        complete: true,
        ..Analysis::default()
    };
    if puzzle.entrance >= puzzle.rooms.len() {
        a.problems.push(Problem {
            key: None,
            room: None,
            message: "the level has no entrance room".to_owned(),
        });
        return a;
    }
    let mut s = Search::new(puzzle);
    a.keys = s.names.len();
    let start = s.explore(puzzle.entrance, KeySet::new(s.names.len()));
    a.complete = !s.truncated;
    let entered = s.entered.clone();
    let obtained = s.obtained.clone();
    a.solvable = s.good(start);
    a.unreachable = (0..puzzle.rooms.len())
        .filter(|&r| !entered[r])
        .map(|r| puzzle.rooms[r].id.clone())
        .collect();
    a.traps = s.traps(start);
    a.bypasses = s.bypasses();
    if a.solvable {
        a.solution = s.walkthrough();
        if a.solution.is_none() {
            // Cannot happen (the walkthrough follows the exact search); say so
            // rather than claim a solution that was not written.
            a.solvable = false;
            a.problems.push(Problem {
                key: None,
                room: None,
                message: "the walkthrough got stuck although the search found a way (a solver bug)"
                    .to_owned(),
            });
        }
    } else {
        a.problems = s.problems(start, &entered, &obtained);
    }
    a
}

/// A set of keys, by index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct KeySet(Vec<u64>);

impl KeySet {
    fn new(n: usize) -> Self {
        KeySet(vec![0; n.div_ceil(64)])
    }
    fn full(n: usize) -> Self {
        let mut k = Self::new(n);
        for i in 0..n {
            k.add(i);
        }
        k
    }
    fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    fn add(&mut self, i: usize) -> bool {
        let had = self.has(i);
        self.0[i / 64] |= 1 << (i % 64);
        !had
    }
    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    fn union(&mut self, other: &KeySet) {
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }
}

/// A state of the exact search: a component with the keys held in it.
struct Node {
    /// The room first entered into this state, and the keys held then
    /// (those lying in that room included).
    entry: (usize, KeySet),
    /// Keys held (after picking up everything in the component).
    keys: KeySet,
    /// Doors out of the component that the keys open: (door, room beyond).
    exits: Vec<(usize, usize)>,
    /// Resolved successors: (door, room beyond, node).
    children: Vec<(usize, usize, usize)>,
    /// Every key held and the goal reachable.
    terminal: bool,
    expanded: bool,
    good: Option<bool>,
}

/// Index of the forward search in [`Walk`].
const FORWARD: usize = 0;
/// Index of the backward search in [`Walk`].
const BACKWARD: usize = 1;

/// The two searches of [`Search::closure`] (forward from a room, and
/// backward to it), grown together as keys are picked up.
struct Walk {
    /// Rooms reached, per direction.
    seen: [Vec<bool>; 2],
    /// Reached rooms still to expand, per direction.
    todo: [Vec<usize>; 2],
    /// Unreached rooms behind a door of each missing key, per direction.
    parked: [HashMap<usize, Vec<usize>>; 2],
    /// Rooms now reached both ways whose keys are not handed over yet.
    joined: Vec<usize>,
}

impl Walk {
    fn new(rooms: usize) -> Self {
        Walk {
            seen: [vec![false; rooms], vec![false; rooms]],
            todo: [Vec::new(), Vec::new()],
            parked: [HashMap::new(), HashMap::new()],
            joined: Vec::new(),
        }
    }

    /// Marks `room` reached in direction `dir` (once).
    fn arrive(&mut self, dir: usize, room: usize) {
        if !self.seen[dir][room] {
            self.seen[dir][room] = true;
            self.todo[dir].push(room);
            if self.seen[1 - dir][room] {
                self.joined.push(room);
            }
        }
    }
}

struct Search<'a> {
    p: &'a Puzzle,
    names: Vec<String>,
    room_keys: Vec<Vec<usize>>,
    door_key: Vec<Option<usize>>,
    /// Passable directions: room -> (door, other room).
    out: Vec<Vec<(usize, usize)>>,
    /// Reverse of `out`.
    inc: Vec<Vec<(usize, usize)>>,
    goal: Option<usize>,
    nodes: Vec<Node>,
    by_state: HashMap<(usize, KeySet), usize>,
    by_entry: HashMap<(usize, KeySet), usize>,
    /// Rooms entered in some state reached so far.
    entered: Vec<bool>,
    /// Keys held in some state reached so far.
    obtained: KeySet,
    max_nodes: usize,
    truncated: bool,
}

impl<'a> Search<'a> {
    fn new(p: &'a Puzzle) -> Self {
        let names = p.key_ids();
        let index: BTreeMap<&str, usize> = names
            .iter()
            .enumerate()
            .map(|(i, k)| (k.as_str(), i))
            .collect();
        let room_keys = p
            .rooms
            .iter()
            .map(|r| r.keys.iter().map(|k| index[k.as_str()]).collect())
            .collect();
        let door_key = p
            .doors
            .iter()
            .map(|d| d.lock.as_deref().map(|k| index[k]))
            .collect();
        let n = p.rooms.len();
        let mut out = vec![Vec::new(); n];
        let mut inc = vec![Vec::new(); n];
        for (i, d) in p.doors.iter().enumerate() {
            out[d.from].push((i, d.to));
            inc[d.to].push((i, d.from));
            if !d.one_way {
                out[d.to].push((i, d.from));
                inc[d.from].push((i, d.to));
            }
        }
        let nkeys = names.len();
        Search {
            p,
            names,
            room_keys,
            door_key,
            out,
            inc,
            goal: p.goal(),
            nodes: Vec::new(),
            by_state: HashMap::new(),
            by_entry: HashMap::new(),
            entered: vec![false; n],
            obtained: KeySet::new(nkeys),
            max_nodes: (WORK_BUDGET / (n + p.doors.len() + 1)).max(64),
            truncated: false,
        }
    }

    fn opens(&self, door: usize, keys: &KeySet) -> bool {
        self.door_key[door].is_none_or(|k| keys.has(k))
    }

    /// Rooms reachable from `from` through doors `keys` opens.
    fn reach(&self, from: &[usize], keys: &KeySet, backwards: bool) -> Vec<bool> {
        let adj = if backwards { &self.inc } else { &self.out };
        let mut seen = vec![false; self.p.rooms.len()];
        let mut queue: VecDeque<usize> = VecDeque::new();
        for &r in from {
            if !seen[r] {
                seen[r] = true;
                queue.push_back(r);
            }
        }
        while let Some(v) = queue.pop_front() {
            for &(d, w) in &adj[v] {
                if !seen[w] && self.opens(d, keys) {
                    seen[w] = true;
                    queue.push_back(w);
                }
            }
        }
        seen
    }

    /// The fixpoint of entering `room` holding `keys`: the rooms reachable
    /// from `room` and back (its component), after picking up every key in
    /// them, and then in the rooms those keys open, and so on. Returns the
    /// component and the rooms reachable forward; `keys` ends holding the
    /// keys gained. Incremental, in O(rooms + doors): a door whose key is
    /// missing is parked under that key and crossed when it is picked up
    /// (recomputing both searches per new key made a line of 2,000 rooms,
    /// each locked by the key of the one before, cost seconds per state).
    fn closure(&self, room: usize, keys: &mut KeySet) -> (Vec<bool>, Vec<bool>) {
        let mut w = Walk::new(self.p.rooms.len());
        let mut members = vec![false; self.p.rooms.len()];
        w.arrive(FORWARD, room);
        w.arrive(BACKWARD, room);
        loop {
            // New members hand over their keys, which release parked rooms.
            while let Some(r) = w.joined.pop() {
                members[r] = true;
                for &k in &self.room_keys[r] {
                    if keys.add(k) {
                        for dir in [FORWARD, BACKWARD] {
                            for room in w.parked[dir].remove(&k).unwrap_or_default() {
                                w.arrive(dir, room);
                            }
                        }
                    }
                }
            }
            let Some((dir, v)) = [FORWARD, BACKWARD]
                .into_iter()
                .find_map(|d| w.todo[d].pop().map(|v| (d, v)))
            else {
                break;
            };
            let adj = if dir == FORWARD {
                &self.out[v]
            } else {
                &self.inc[v]
            };
            for &(d, next) in adj {
                match self.door_key[d] {
                    Some(k) if !keys.has(k) => w.parked[dir].entry(k).or_default().push(next),
                    _ => w.arrive(dir, next),
                }
            }
        }
        let [forward, _] = w.seen;
        (members, forward)
    }

    /// The node of the state reached by entering `room` holding `keys`.
    fn node_for(&mut self, room: usize, keys: KeySet) -> usize {
        if let Some(&id) = self.by_entry.get(&(room, keys.clone())) {
            return id;
        }
        let entry = (room, keys.clone());
        let mut keys = keys;
        let mut arrival = keys.clone();
        for &k in &self.room_keys[room] {
            arrival.add(k);
        }
        let (members, forward) = self.closure(room, &mut keys);
        let rep = members.iter().position(|m| *m).unwrap_or(room);
        if let Some(&id) = self.by_state.get(&(rep, keys.clone())) {
            self.by_entry.insert(entry, id);
            return id;
        }
        if self.nodes.len() >= self.max_nodes {
            self.truncated = true;
            // A dead end standing for the unexplored rest.
            self.nodes.push(Node {
                entry: (room, arrival),
                keys,
                exits: Vec::new(),
                children: Vec::new(),
                terminal: false,
                expanded: true,
                good: Some(false),
            });
            return self.nodes.len() - 1;
        }
        for (r, f) in forward.iter().enumerate() {
            self.entered[r] |= *f;
        }
        self.obtained.union(&keys);
        let mut exits = Vec::new();
        for (u, _) in members.iter().enumerate().filter(|(_, m)| **m) {
            for &(d, s) in &self.out[u] {
                if !members[s] && self.opens(d, &keys) {
                    exits.push((d, s));
                }
            }
        }
        let terminal = keys.count() == self.names.len() && self.goal.is_none_or(|g| forward[g]);
        self.nodes.push(Node {
            entry: (room, arrival),
            keys: keys.clone(),
            exits,
            children: Vec::new(),
            terminal,
            expanded: false,
            good: None,
        });
        let id = self.nodes.len() - 1;
        self.by_state.insert((rep, keys), id);
        self.by_entry.insert(entry, id);
        id
    }

    /// Creates and expands every state reachable from entering `room` with
    /// `keys`; returns the first.
    fn explore(&mut self, room: usize, keys: KeySet) -> usize {
        let root = self.node_for(room, keys);
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            if self.nodes[id].expanded {
                continue;
            }
            self.nodes[id].expanded = true;
            let exits = std::mem::take(&mut self.nodes[id].exits);
            let keys = self.nodes[id].keys.clone();
            for &(d, s) in &exits {
                let c = self.node_for(s, keys.clone());
                self.nodes[id].children.push((d, s, c));
                if !self.nodes[c].expanded {
                    stack.push(c);
                }
            }
            self.nodes[id].exits = exits;
        }
        root
    }

    /// Whether the level can be finished from the state `root` (expanded).
    fn good(&mut self, root: usize) -> bool {
        let mut stack = vec![(root, false)];
        while let Some((id, done)) = stack.pop() {
            if self.nodes[id].good.is_some() {
                continue;
            }
            if done {
                let g = self.nodes[id].terminal
                    || self.nodes[id]
                        .children
                        .iter()
                        .any(|&(_, _, c)| self.nodes[c].good == Some(true));
                self.nodes[id].good = Some(g);
            } else {
                stack.push((id, true));
                for &(_, _, c) in &self.nodes[id].children {
                    if self.nodes[c].good.is_none() {
                        stack.push((c, false));
                    }
                }
            }
        }
        self.nodes[root].good == Some(true)
    }

    /// One-way moves that strand the player: from a state that can finish,
    /// the door taken straight away on arrival (before the keys of the
    /// component are picked up) leads to a state that cannot.
    fn traps(&mut self, root: usize) -> Vec<Trap> {
        let mut out: Vec<Trap> = Vec::new();
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![root];
        while let Some(id) = stack.pop() {
            if id >= seen.len()
                || std::mem::replace(&mut seen[id], true)
                || self.nodes[id].good != Some(true)
            {
                continue;
            }
            let (room, early) = self.nodes[id].entry.clone();
            let near = self.reach(&[room], &early, false);
            let children = self.nodes[id].children.clone();
            for (d, s, c) in children {
                stack.push(c);
                let door = &self.p.doors[d];
                let u = if door.to == s { door.from } else { door.to };
                if !near[u] || !self.opens(d, &early) {
                    continue;
                }
                let after = self.explore(s, early.clone());
                if self.good(after) {
                    continue;
                }
                let trap = Trap {
                    from: self.p.rooms[u].id.clone(),
                    to: self.p.rooms[s].id.clone(),
                    missing: self.missing(&self.nodes[after].keys),
                };
                if !out.iter().any(|t| t.from == trap.from && t.to == trap.to) {
                    out.push(trap);
                }
            }
        }
        out
    }

    fn missing(&self, keys: &KeySet) -> Vec<String> {
        (0..self.names.len())
            .filter(|&k| !keys.has(k))
            .map(|k| self.names[k].clone())
            .collect()
    }

    /// Locked doors whose two rooms are both reachable without their key.
    fn bypasses(&self) -> Vec<Bypass> {
        let mut out = Vec::new();
        let mut by_key: BTreeMap<usize, Vec<bool>> = BTreeMap::new();
        for (d, door) in self.p.doors.iter().enumerate() {
            let Some(k) = self.door_key[d] else { continue };
            let reach = by_key.entry(k).or_insert_with(|| {
                let mut keys = KeySet::full(self.names.len());
                keys.remove(k);
                self.reach(&[self.p.entrance], &keys, false)
            });
            if reach[door.from] && reach[door.to] {
                out.push(Bypass {
                    key: self.names[k].clone(),
                    from: self.p.rooms[door.from].id.clone(),
                    to: self.p.rooms[door.to].id.clone(),
                });
            }
        }
        out
    }

    /// Why the level is not solvable.
    fn problems(&self, root: usize, entered: &[bool], obtained: &KeySet) -> Vec<Problem> {
        let mut out = Vec::new();
        let all = KeySet::full(self.names.len());
        let with_all = self.reach(&[self.p.entrance], &all, false);
        let room = |r: usize| self.p.rooms[r].id.clone();
        let lock_of = |k: usize| {
            self.p
                .doors
                .iter()
                .enumerate()
                .find(|(d, _)| self.door_key[*d] == Some(k))
                .map(|(_, d)| format!("`{} -> {}`", room(d.from), room(d.to)))
        };
        let unobtainable: Vec<String> = (0..self.names.len())
            .filter(|&k| !obtained.has(k))
            .map(|k| format!("`{}`", self.names[k]))
            .collect();
        for k in (0..self.names.len()).filter(|&k| !obtained.has(k)) {
            let name = &self.names[k];
            let holder = (0..self.p.rooms.len()).find(|&r| self.room_keys[r].contains(&k));
            let message = match holder {
                None => format!(
                    "key `{name}` lies in no room, so its lock {} can never be opened",
                    lock_of(k).unwrap_or_default()
                ),
                Some(h) if !with_all[h] => format!(
                    "key `{name}` lies in `{}`, which cannot be entered from the entrance even with every key (one-way doors)",
                    room(h)
                ),
                Some(h) => {
                    let mut without = all.clone();
                    without.remove(k);
                    if !self.reach(&[self.p.entrance], &without, false)[h] {
                        format!(
                            "key `{name}` lies in `{}`, behind its own lock {}",
                            room(h),
                            lock_of(k).unwrap_or_default()
                        )
                    } else {
                        format!(
                            "key `{name}` lies in `{}`, which cannot be reached with the keys obtainable before it (never obtainable: {})",
                            room(h),
                            unobtainable.join(", ")
                        )
                    }
                }
            };
            out.push(Problem {
                key: Some(name.clone()),
                room: holder.map(room),
                message,
            });
        }
        if let Some(g) = self.goal
            && !entered[g]
            && !(with_all[g] && unobtainable.is_empty())
        {
            let message = if with_all[g] {
                format!(
                    "the goal `{}` is behind locks whose keys cannot be obtained ({})",
                    room(g),
                    unobtainable.join(", ")
                )
            } else {
                format!(
                    "the goal `{}` cannot be entered from the entrance even with every key (one-way doors)",
                    room(g)
                )
            };
            out.push(Problem {
                key: None,
                room: Some(room(g)),
                message,
            });
        }
        if out.is_empty() && self.truncated {
            out.push(Problem {
                key: None,
                room: None,
                message: "the search gave up before finding a way (too many one-way choices)"
                    .to_owned(),
            });
        } else if out.is_empty() {
            // Every key and the goal can be reached, but one-way doors split
            // them: name the doors out of the first part of the level.
            let doors: Vec<(String, String)> = self.nodes[root]
                .children
                .iter()
                .map(|&(d, s, _)| {
                    let door = &self.p.doors[d];
                    let u = if door.to == s { door.from } else { door.to };
                    (room(u), room(s))
                })
                .collect();
            let named: Vec<String> = doors.iter().map(|(a, b)| format!("`{a} -> {b}`")).collect();
            out.push(Problem {
                key: None,
                room: doors.first().map(|(_, b)| b.clone()),
                message: format!(
                    "the keys and the goal cannot all be reached in one walk: there is no way back through the one-way door{} {}",
                    if named.len() == 1 { "" } else { "s" },
                    named.join(", ")
                ),
            });
        }
        out
    }

    /// Shortest walk from `from` to any room of `targets` through doors
    /// `keys` opens: (door, room) moves in order, per reached target, sorted
    /// by distance.
    fn paths(&self, from: usize, keys: &KeySet) -> Vec<Option<(usize, usize)>> {
        let n = self.p.rooms.len();
        let mut prev: Vec<Option<(usize, usize)>> = vec![None; n];
        let mut seen = vec![false; n];
        seen[from] = true;
        let mut queue = VecDeque::from([from]);
        while let Some(v) = queue.pop_front() {
            for &(d, w) in &self.out[v] {
                if !seen[w] && self.opens(d, keys) {
                    seen[w] = true;
                    prev[w] = Some((d, v));
                    queue.push_back(w);
                }
            }
        }
        prev
    }

    fn walkthrough(&mut self) -> Option<Solution> {
        let p = self.p;
        let n = p.rooms.len();
        let mut sol = Solution::default();
        let mut keys = KeySet::new(self.names.len());
        let mut visited = vec![false; n];
        let mut opened = vec![false; p.doors.len()];
        let mut cur = p.entrance;
        sol.steps.push(Step::Start {
            room: p.rooms[cur].id.clone(),
        });
        visited[cur] = true;
        self.pick_up(cur, &mut keys, &mut sol);
        loop {
            let done = keys.count() == self.names.len();
            let prev = self.paths(cur, &keys);
            let route = |t: usize| {
                let mut moves = Vec::new();
                let mut at = t;
                while let Some((d, v)) = prev[at] {
                    moves.push((d, at));
                    at = v;
                }
                moves.reverse();
                moves
            };
            if done {
                if let Some(g) = self.goal
                    && g != cur
                {
                    prev[g]?;
                    let moves = route(g);
                    self.walk(
                        &mut cur,
                        &moves,
                        &mut keys,
                        &mut visited,
                        &mut opened,
                        &mut sol,
                    );
                }
                break;
            }
            let mut targets: Vec<(usize, usize)> = (0..n)
                .filter(|&r| r == cur || prev[r].is_some())
                .filter(|&r| self.room_keys[r].iter().any(|&k| !keys.has(k)))
                .map(|r| (route(r).len(), r))
                .collect();
            targets.sort_unstable();
            let mut moved = false;
            for (_, t) in targets {
                let moves = route(t);
                let mut after = keys.clone();
                for &(_, r) in &moves {
                    for &k in &self.room_keys[r] {
                        after.add(k);
                    }
                }
                let state = self.explore(t, after);
                if self.good(state) {
                    self.walk(
                        &mut cur,
                        &moves,
                        &mut keys,
                        &mut visited,
                        &mut opened,
                        &mut sol,
                    );
                    moved = true;
                    break;
                }
            }
            if !moved {
                return None;
            }
        }
        sol.rooms = visited.iter().filter(|v| **v).count();
        Some(sol)
    }

    fn pick_up(&self, room: usize, keys: &mut KeySet, sol: &mut Solution) {
        for &k in &self.room_keys[room] {
            if keys.add(k) {
                sol.keys += 1;
                sol.steps.push(Step::PickUp {
                    key: self.names[k].clone(),
                    room: self.p.rooms[room].id.clone(),
                });
            }
        }
    }

    fn walk(
        &self,
        cur: &mut usize,
        moves: &[(usize, usize)],
        keys: &mut KeySet,
        visited: &mut [bool],
        opened: &mut [bool],
        sol: &mut Solution,
    ) {
        for &(d, r) in moves {
            if let Some(k) = self.door_key[d]
                && !std::mem::replace(&mut opened[d], true)
            {
                sol.locks += 1;
                sol.steps.push(Step::Open {
                    key: self.names[k].clone(),
                    from: self.p.rooms[*cur].id.clone(),
                    to: self.p.rooms[r].id.clone(),
                });
            }
            let revisit = std::mem::replace(&mut visited[r], true);
            sol.length += 1;
            sol.backtracking += usize::from(revisit);
            sol.steps.push(Step::Walk {
                room: self.p.rooms[r].id.clone(),
                revisit,
            });
            *cur = r;
            self.pick_up(r, keys, sol);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::{PuzzleDoor, PuzzleRoom};

    /// Rooms `(id, category, keys)` and doors `"a -> b"` (one-way) or
    /// `"a - b"`, with an optional lock `"a - b : key"`.
    fn puzzle(rooms: &[(&str, &str, &[&str])], doors: &[&str]) -> Puzzle {
        let find = |id: &str| rooms.iter().position(|r| r.0 == id).expect(id);
        Puzzle {
            rooms: rooms
                .iter()
                .map(|(id, category, keys)| PuzzleRoom {
                    id: (*id).to_owned(),
                    category: (*category).to_owned(),
                    keys: keys.iter().map(|k| (*k).to_owned()).collect(),
                })
                .collect(),
            doors: doors
                .iter()
                .map(|d| {
                    let (ends, lock) = match d.split_once(" : ") {
                        Some((e, k)) => (e, Some(k.to_owned())),
                        None => (*d, None),
                    };
                    let one_way = ends.contains("->");
                    let (a, b) = ends
                        .split_once(if one_way { " -> " } else { " - " })
                        .expect("door");
                    PuzzleDoor {
                        from: find(a),
                        to: find(b),
                        one_way,
                        lock,
                    }
                })
                .collect(),
            entrance: 0,
        }
    }

    fn walked(a: &Analysis) -> Vec<String> {
        a.solution
            .as_ref()
            .expect("solution")
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Walk { room, .. } => Some(room.clone()),
                Step::PickUp { key, .. } => Some(format!("+{key}")),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_long_line_of_locks_is_walked_key_by_key() {
        // Room i holds key ki, which opens the door to room i + 1: each
        // state's key closure grows room by room (quadratic per state, and
        // cubic in all, before the closure became incremental).
        const N: usize = 1000;
        let ids: Vec<String> = (0..N).map(|i| format!("r{i}")).collect();
        let keys: Vec<[String; 1]> = (0..N).map(|i| [format!("k{i}")]).collect();
        let key_refs: Vec<[&str; 1]> = keys.iter().map(|[k]| [k.as_str()]).collect();
        let rooms: Vec<(&str, &str, &[&str])> = (0..N)
            .map(|i| {
                let category = if i + 1 == N { "boss" } else { "normal" };
                let held: &[&str] = if i + 1 == N { &[] } else { &key_refs[i] };
                (ids[i].as_str(), category, held)
            })
            .collect();
        let doors: Vec<String> = (1..N)
            .map(|i| format!("r{} - r{i} : k{}", i - 1, i - 1))
            .collect();
        let door_refs: Vec<&str> = doors.iter().map(String::as_str).collect();
        let a = analyse(&puzzle(&rooms, &door_refs));
        assert!(a.solvable && a.complete, "{:?}", a.problems);
        let sol = a.solution.as_ref().expect("solution");
        assert_eq!((sol.keys, sol.locks), (N - 1, N - 1));
        assert_eq!((sol.length, sol.backtracking), (N - 1, 0));
        assert!(a.bypasses.is_empty() && a.traps.is_empty());
    }

    #[test]
    fn a_key_before_its_lock_is_solvable() {
        let p = puzzle(
            &[
                ("e", "entrance", &[]),
                ("k", "normal", &["red"]),
                ("b", "boss", &[]),
            ],
            &["e - k", "e - b : red"],
        );
        let a = analyse(&p);
        assert!(a.solvable, "{a:?}");
        assert_eq!(walked(&a), ["k", "+red", "e", "b"]);
        let s = a.solution.as_ref().expect("solution");
        assert_eq!((s.length, s.backtracking, s.keys, s.locks), (3, 1, 1, 1));
        assert!(a.traps.is_empty() && a.bypasses.is_empty());
    }

    #[test]
    fn a_key_behind_its_own_lock_is_named() {
        let p = puzzle(
            &[
                ("e", "entrance", &[]),
                ("k", "normal", &["red"]),
                ("b", "boss", &[]),
            ],
            &["e - k : red", "k - b"],
        );
        let a = analyse(&p);
        assert!(!a.solvable);
        assert_eq!(a.problems[0].key.as_deref(), Some("red"));
        assert!(
            a.problems[0].message.contains("behind its own lock"),
            "{a:?}"
        );
        assert_eq!(a.unreachable, ["k", "b"]);
    }

    #[test]
    fn a_lock_without_a_key_is_reported() {
        let p = puzzle(
            &[("e", "entrance", &[]), ("b", "boss", &[])],
            &["e - b : gold"],
        );
        let a = analyse(&p);
        assert!(!a.solvable);
        assert!(a.problems[0].message.contains("lies in no room"), "{a:?}");
    }

    #[test]
    fn the_walkthrough_avoids_a_one_way_trap() {
        // The nearest key lies past a one-way door; taking it first strands
        // the player without `red`.
        let p = puzzle(
            &[
                ("e", "entrance", &[]),
                ("a", "normal", &["blue"]),
                ("m", "normal", &[]),
                ("k", "normal", &["red"]),
                ("b", "boss", &[]),
            ],
            &["e -> a", "e - m", "m - k", "a - b : red"],
        );
        let a = analyse(&p);
        assert!(a.solvable, "{a:?}");
        assert_eq!(walked(&a), ["m", "k", "+red", "m", "e", "a", "+blue", "b"]);
        assert_eq!(a.traps.len(), 1);
        assert_eq!(
            (a.traps[0].from.as_str(), a.traps[0].to.as_str()),
            ("e", "a")
        );
        assert_eq!(a.traps[0].missing, ["red"]);
    }

    #[test]
    fn keys_split_by_one_way_doors_are_unsolvable() {
        let p = puzzle(
            &[
                ("e", "entrance", &[]),
                ("a", "normal", &["red"]),
                ("c", "normal", &["blue"]),
                ("b", "boss", &[]),
            ],
            &["e -> a", "e -> c", "a - b : red", "c - b : blue"],
        );
        let a = analyse(&p);
        assert!(!a.solvable);
        assert!(a.unreachable.is_empty());
        assert!(a.problems[0].message.contains("in one walk"), "{a:?}");
        assert!(
            a.problems[0].message.contains("`e -> a`, `e -> c`"),
            "{a:?}"
        );
    }

    #[test]
    fn a_wrong_way_one_way_door_bypasses_a_lock() {
        let rooms: &[(&str, &str, &[&str])] = &[
            ("e", "entrance", &["gold"]),
            ("t", "reward", &[]),
            ("b", "boss", &[]),
        ];
        let right = analyse(&puzzle(rooms, &["e - t : gold", "t -> e", "e - b"]));
        assert!(right.solvable && right.bypasses.is_empty(), "{right:?}");
        let wrong = analyse(&puzzle(rooms, &["e - t : gold", "e -> t", "e - b"]));
        assert_eq!(wrong.bypasses.len(), 1);
        assert_eq!(wrong.bypasses[0].key, "gold");
    }

    #[test]
    fn many_one_way_choices_stay_cheap() {
        // A ladder of 200 one-way rungs: every state is explored once.
        let mut rooms: Vec<(String, &str, Vec<String>)> = vec![("e".into(), "entrance", vec![])];
        let mut doors = Vec::new();
        for i in 0..200 {
            rooms.push((format!("r{i}"), "normal", vec![format!("k{i}")]));
            let prev = if i == 0 {
                "e".to_owned()
            } else {
                format!("r{}", i - 1)
            };
            doors.push(format!("{prev} -> r{i}"));
        }
        rooms.push(("b".into(), "boss", vec![]));
        doors.push("r199 - b : k0".to_owned());
        let rooms_ref: Vec<(&str, &str, Vec<&str>)> = rooms
            .iter()
            .map(|(a, b, c)| (a.as_str(), *b, c.iter().map(String::as_str).collect()))
            .collect();
        let rooms_ref: Vec<(&str, &str, &[&str])> = rooms_ref
            .iter()
            .map(|(a, b, c)| (*a, *b, c.as_slice()))
            .collect();
        let doors_ref: Vec<&str> = doors.iter().map(String::as_str).collect();
        let a = analyse(&puzzle(&rooms_ref, &doors_ref));
        assert!(a.solvable && a.complete, "{:?}", a.problems);
        assert_eq!(a.solution.expect("solution").length, 201);
    }
}
