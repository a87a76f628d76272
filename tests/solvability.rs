//! Locks and keys over many seeds: every level of every bundled flow with
//! locks, and of the nested puzzle generator (both key orderings), is
//! solvable by a check written here, independently of the crate's solver:
//! a reachability fixpoint over (rooms, keys held), every key reachable
//! without its own lock, and the solver's walkthrough replayed door by door.
//! Mutations (a key moved behind its own lock, a one-way door turned the
//! wrong way) are detected.
//!
//! Seeds: 10,000 for `keys_and_locks` and the nested generator, 1,000 for the
//! other flows with locks (`classic`, `shop_route`, `two_wings`; `dungeonflow
//! stats FLOW --seeds 10000` measures them at 10,000). `DUNGEONFLOW_SOLVE_SEEDS`
//! overrides every count.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use dungeonflow::Project;
use dungeonflow::internals::flow::Flow;
use dungeonflow::internals::generate::{Generated, generate_with};
use dungeonflow::internals::layout::ShapeTable;
use dungeonflow::internals::puzzle::{Puzzle, Step, analyse};
use dungeonflow::level::Level;
use rayon::prelude::*;

#[path = "support/suite.rs"]
mod suite;

fn seeds(default: u64) -> u64 {
    std::env::var("DUNGEONFLOW_SOLVE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| suite::seeds(default))
}

/// The nested generator with the key-levels ordering, and a wider one.
fn test_project() -> Project {
    let mut paths = vec![];
    // Removed when dropped, once the project (which keeps its sources) is loaded.
    let dir = tempfile::tempdir().expect("tmp dir");
    for (name, params) in [
        (
            "nested_levels",
            "{ depth: 4, branching: 1..2, ordering: key_levels }",
        ),
        // Rooms with three children lay out less often (a limit of the tree
        // layout): depth 2 keeps failures low.
        ("nested_wide", "{ depth: 2, branching: 1..3 }"),
        ("nested_line", "{ depth: 6 }"),
    ] {
        let path = dir.path().join(format!("{name}.yaml"));
        std::fs::write(
            &path,
            format!("name: {name}\ngenerator: nested_puzzle\nparams: {params}\n"),
        )
        .expect("write");
        paths.push(path);
    }
    let project = Project::load(&paths);
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    project
}

/// What the check needs of a level, built here from the level's own fields.
struct View {
    ids: Vec<String>,
    /// (from, to, one_way, lock)
    doors: Vec<(usize, usize, bool, Option<String>)>,
    keys_in: Vec<BTreeSet<String>>,
    all_keys: BTreeSet<String>,
    goal: Option<usize>,
}

impl View {
    fn of(level: &Level) -> View {
        let index: BTreeMap<&str, usize> = level
            .rooms
            .iter()
            .enumerate()
            .map(|(i, r)| (r.id.as_str(), i))
            .collect();
        let mut keys_in = vec![BTreeSet::new(); level.rooms.len()];
        for item in &level.items {
            keys_in[index[item.room.as_str()]].insert(item.id.clone());
        }
        let doors: Vec<_> = level
            .connections
            .iter()
            .map(|c| {
                (
                    index[c.from.as_str()],
                    index[c.to.as_str()],
                    c.one_way,
                    c.lock.clone(),
                )
            })
            .collect();
        let all_keys = keys_in
            .iter()
            .flatten()
            .cloned()
            .chain(doors.iter().filter_map(|d| d.3.clone()))
            .collect();
        let goal = ["boss", "exit"]
            .iter()
            .find_map(|c| level.rooms.iter().position(|r| r.category == *c));
        View {
            ids: level.rooms.iter().map(|r| r.id.clone()).collect(),
            doors,
            keys_in,
            all_keys,
            goal,
        }
    }

    fn passable(&self, d: usize, keys: &BTreeSet<String>) -> bool {
        self.doors[d].3.as_ref().is_none_or(|k| keys.contains(k))
    }

    /// Rooms reachable from the entrance through doors `keys` opens.
    fn reach(&self, keys: &BTreeSet<String>) -> Vec<bool> {
        let mut seen = vec![false; self.ids.len()];
        seen[0] = true;
        let mut queue = VecDeque::from([0]);
        while let Some(v) = queue.pop_front() {
            for (d, &(a, b, one_way, _)) in self.doors.iter().enumerate() {
                if !self.passable(d, keys) {
                    continue;
                }
                for (x, y) in [(a, b), (b, a)] {
                    if x == v && (x == a || !one_way) && !seen[y] {
                        seen[y] = true;
                        queue.push_back(y);
                    }
                }
            }
        }
        seen
    }

    /// The fixpoint: keys picked up wherever reachable, until nothing new.
    fn independent_check(&self) -> Result<(), String> {
        let mut keys = BTreeSet::new();
        loop {
            let reach = self.reach(&keys);
            let before = keys.len();
            for (r, _) in reach.iter().enumerate().filter(|(_, x)| **x) {
                keys.extend(self.keys_in[r].iter().cloned());
            }
            if keys.len() == before {
                if let Some(g) = self.goal
                    && !reach[g]
                {
                    return Err(format!("goal `{}` unreachable", self.ids[g]));
                }
                break;
            }
        }
        if let Some(k) = self.all_keys.difference(&keys).next() {
            return Err(format!("key `{k}` can never be picked up"));
        }
        // Every key is reachable before its lock: with every other key.
        for k in &self.all_keys {
            let mut others = self.all_keys.clone();
            others.remove(k);
            let reach = self.reach(&others);
            if !(0..self.ids.len()).any(|r| reach[r] && self.keys_in[r].contains(k)) {
                return Err(format!("key `{k}` lies behind its own lock"));
            }
        }
        Ok(())
    }

    /// Replays a walkthrough: every move crosses a door of the level, in an
    /// allowed direction, with its key held; keys are picked up where they
    /// lie; it ends in the goal with every key.
    fn replay(&self, steps: &[Step]) -> Result<(), String> {
        let index: BTreeMap<&str, usize> = self
            .ids
            .iter()
            .enumerate()
            .map(|(i, r)| (r.as_str(), i))
            .collect();
        let mut cur = 0;
        let mut keys = BTreeSet::new();
        for step in steps {
            match step {
                Step::Start { room } if index[room.as_str()] == 0 => {}
                Step::Start { room } => return Err(format!("starts in `{room}`")),
                Step::Open { key, .. } if keys.contains(key) => {}
                Step::Open { key, .. } => return Err(format!("opens `{key}` without it")),
                Step::PickUp { key, room } => {
                    if index[room.as_str()] != cur || !self.keys_in[cur].contains(key) {
                        return Err(format!("picks up `{key}` where it does not lie"));
                    }
                    keys.insert(key.clone());
                }
                Step::Walk { room, .. } => {
                    let next = index[room.as_str()];
                    let ok = self
                        .doors
                        .iter()
                        .enumerate()
                        .any(|(d, &(a, b, one_way, _))| {
                            self.passable(d, &keys)
                                && ((a == cur && b == next) || (!one_way && b == cur && a == next))
                        });
                    if !ok {
                        return Err(format!(
                            "walks from `{}` to `{room}` through no open door",
                            self.ids[cur]
                        ));
                    }
                    cur = next;
                }
            }
        }
        if keys != self.all_keys {
            return Err(format!("ends with keys {keys:?}"));
        }
        match self.goal {
            Some(g) if g != cur => Err(format!("ends in `{}`, not the goal", self.ids[cur])),
            _ => Ok(()),
        }
    }
}

/// Generates `n` seeds of `flow` in parallel; every level passes the checks.
/// Returns (levels, layout failures).
fn check_flow(project: &Project, flow: &Flow, n: u64) -> (u64, u64) {
    let table = ShapeTable::new(&project.library);
    let results: Vec<Result<bool, String>> = (0..n)
        .into_par_iter()
        .map(|seed| {
            match generate_with(flow, &project.library, &table, seed, &Default::default()) {
                Ok(g) => check_level(&g)
                    .map(|()| true)
                    .map_err(|e| format!("{} seed {seed}: {e}", flow.name.value)),
                Err(d) if d.code == "generate::unsolvable" => {
                    Err(format!("{} seed {seed}: {}", flow.name.value, d.message))
                }
                Err(_) => Ok(false), // a layout failure, measured by `stats`
            }
        })
        .collect();
    let mut levels = 0;
    for r in results {
        match r {
            Ok(true) => levels += 1,
            Ok(false) => {}
            Err(e) => panic!("{e}"),
        }
    }
    (levels, n - levels)
}

fn check_level(g: &Generated) -> Result<(), String> {
    // The analysis handed out (the graph's, when the level carries all of
    // it) is the one the laid-out level itself gives.
    if g.analysis != analyse(&Puzzle::from_level(&g.level)) {
        return Err("the returned analysis differs from the level's own".to_owned());
    }
    let view = View::of(&g.level);
    view.independent_check()?;
    let solution = g.analysis.solution.as_ref().ok_or("no walkthrough")?;
    view.replay(&solution.steps)?;
    if !g.analysis.solvable {
        return Err("the solver says unsolvable".to_owned());
    }
    Ok(())
}

fn run(project: &Project, name: &str, n: u64) {
    let flow = project.flow(name).expect("flow");
    let start = std::time::Instant::now();
    let (levels, failed) = check_flow(project, flow, n);
    println!(
        "{name}: {levels} levels solvable, {failed} layout failures, {:.1} s",
        start.elapsed().as_secs_f64()
    );
    // Layout failures are `tests/levels.rs`'s and `stats`' business; a sanity bound.
    assert!(failed * 20 <= n, "{name}: {failed} layout failures of {n}");
}

#[test]
fn keys_and_locks_is_always_solvable() {
    run(&Project::bundled(), "keys_and_locks", seeds(10_000));
}

#[test]
fn the_nested_generator_is_always_solvable() {
    run(&Project::bundled(), "nested", seeds(10_000));
}

#[test]
fn the_nested_generator_with_key_levels_is_always_solvable() {
    let project = test_project();
    run(&project, "nested_levels", seeds(10_000));
    run(&project, "nested_wide", seeds(1_000));
    run(&project, "nested_line", seeds(1_000));
}

#[test]
fn the_other_flows_with_locks_are_always_solvable() {
    let project = Project::bundled();
    let with_locks: Vec<&str> = project
        .flows
        .iter()
        .filter(|(n, f)| {
            *n != "keys_and_locks"
                && f.graph().is_some_and(|g| {
                    g.nodes
                        .iter()
                        .any(|n| matches!(n.door, dungeonflow::internals::flow::Door::Locked(_)))
                })
        })
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(with_locks, ["classic", "shop_route", "two_wings"]);
    for name in with_locks {
        run(&project, name, seeds(1_000));
    }
}

/// A level of `keys_and_locks` (seed 1) for the mutation tests.
fn keys_and_locks() -> Level {
    Project::bundled()
        .generate("keys_and_locks", 1)
        .expect("generates")
}

#[test]
fn a_key_moved_behind_its_own_lock_is_detected() {
    let mut level = keys_and_locks();
    assert!(analyse(&Puzzle::from_level(&level)).solvable);
    // `red` opens the crypt; move it into the ossuary, past that door.
    let red = level.items.iter_mut().find(|i| i.id == "red").expect("red");
    red.room = "ossuary".to_owned();
    let a = analyse(&Puzzle::from_level(&level));
    assert!(!a.solvable);
    let red = a
        .problems
        .iter()
        .find(|p| p.key.as_deref() == Some("red"))
        .expect("red is named");
    assert!(red.message.contains("behind its own lock"), "{a:?}");
    assert!(
        a.report("mutated")
            .contains("key `red` lies in `ossuary`, behind its own lock")
    );
    // The independent check agrees (`blue` lies in the ossuary too).
    assert!(View::of(&level).independent_check().is_err());
}

#[test]
fn a_one_way_door_turned_the_wrong_way_is_detected() {
    // The treasury lets out one-way onto the courtyard; turned the other
    // way, it lets the player into the treasury around its lock.
    let mut level = keys_and_locks();
    assert!(analyse(&Puzzle::from_level(&level)).bypasses.is_empty());
    let door = level
        .connections
        .iter_mut()
        .find(|c| c.from == "treasury" && c.to == "court")
        .expect("the treasury loop");
    assert!(door.one_way);
    std::mem::swap(&mut door.from, &mut door.to);
    let a = analyse(&Puzzle::from_level(&level));
    assert_eq!(a.bypasses.len(), 1, "{a:?}");
    assert_eq!(a.bypasses[0].key, "gold");

    // A tree door made one-way back towards the courtyard strands the crypt
    // and the blue key in it.
    let mut level = keys_and_locks();
    let door = level
        .connections
        .iter_mut()
        .find(|c| c.from == "court" && c.to == "crypt.1")
        .expect("the red door");
    std::mem::swap(&mut door.from, &mut door.to);
    door.one_way = true;
    let a = analyse(&Puzzle::from_level(&level));
    assert!(!a.solvable);
    assert!(
        a.problems.iter().any(|p| p.key.as_deref() == Some("blue")),
        "{a:?}"
    );
    assert!(a.unreachable.contains(&"boss".to_owned()));
    assert!(View::of(&level).independent_check().is_err());
}

#[test]
fn the_solver_agrees_with_the_independent_check_on_random_mutations() {
    // Random key moves and door flips over a few levels: the solver's verdict
    // implies the independent one (the solver is stricter only about
    // one-way doors that split the keys, which the fixpoint ignores).
    let project = Project::bundled();
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    let mut unsolvable = 0;
    for (name, seed) in [("keys_and_locks", 3), ("nested", 4), ("classic", 5)] {
        let base = project.generate(name, seed).expect("generates");
        for _ in 0..200 {
            let mut level = base.clone();
            if next(2) == 0 && !level.items.is_empty() {
                let i = next(level.items.len());
                level.items[i].room = level.rooms[next(level.rooms.len())].id.clone();
            } else {
                let c = next(level.connections.len());
                let door = &mut level.connections[c];
                std::mem::swap(&mut door.from, &mut door.to);
                door.one_way = true;
            }
            let a = analyse(&Puzzle::from_level(&level));
            let independent = View::of(&level).independent_check();
            if a.solvable {
                assert_eq!(independent, Ok(()), "{name} {seed}");
                let steps = &a.solution.as_ref().expect("walkthrough").steps;
                View::of(&level)
                    .replay(steps)
                    .unwrap_or_else(|e| panic!("{name} {seed}: {e}"));
            } else {
                unsolvable += 1;
                assert!(!a.problems.is_empty());
            }
        }
    }
    assert!(unsolvable > 50, "the mutations break levels: {unsolvable}");
}

/// The diagnostics `validate` gives `keys_and_locks.yaml` after `edit`.
fn validate_edited(edit: impl Fn(&str) -> String) -> Vec<dungeonflow::Diagnostic> {
    let original = std::fs::read_to_string("flows/keys_and_locks.yaml").expect("read");
    let text = edit(&original);
    assert_ne!(text, original, "the edit applies");
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("keys_and_locks.yaml");
    std::fs::write(&path, text).expect("write");
    Project::load(&[path])
        .diagnostics
        .into_iter()
        .filter(|d| {
            d.file
                .as_ref()
                .is_some_and(|f| f.name.ends_with("keys_and_locks.yaml"))
        })
        .collect()
}

#[test]
fn flow_mutations_are_reported_by_validate() {
    // The red key moved into the ossuary, behind the red door.
    let diags = validate_edited(|t| {
        t.replace("pool: [barracks], keys: [red] }", "pool: [barracks] }")
            .replace(
                "ossuary:  { category: normal, keys: [blue] }",
                "ossuary:  { category: normal, keys: [blue, red] }",
            )
    });
    let d = diags
        .iter()
        .find(|d| d.code == "flow::key-behind-lock")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert!(d.message.contains("`red`"));
    assert!(d.is_error());

    // The treasury's one-way loop turned the wrong way: its lock guards nothing.
    let diags = validate_edited(|t| t.replace("  - treasury -> court", "  - court -> treasury"));
    let d = diags
        .iter()
        .find(|d| d.code == "flow::lock-bypassed")
        .unwrap_or_else(|| panic!("{diags:?}"));
    assert!(d.message.contains("key `gold`"), "{}", d.message);
    assert!(!d.is_error());

    // The ossuary's loop turned the wrong way: the crypt's red lock is walked around.
    let diags =
        validate_edited(|t| t.replace("  - ossuary -> barracks", "  - barracks -> ossuary"));
    assert!(
        diags
            .iter()
            .any(|d| d.code == "flow::lock-bypassed" && d.message.contains("key `red`")),
        "{diags:?}"
    );

    // Both keys of the main path swapped: each lies behind the other's lock.
    let diags = validate_edited(|t| {
        t.replace("pool: [barracks], keys: [red] }", "pool: [barracks] }")
            .replace(
                "ossuary:  { category: normal, keys: [blue] }",
                "ossuary:  { category: normal }",
            )
            .replace(
                "  treasury: { category: reward, lock: gold }",
                "  treasury: { category: reward, lock: gold, keys: [red] }",
            )
            .replace(
                "  - court -> e_hall -> treasury",
                "  - court -> e_hall -> treasury\n  - crypt -> vestry",
            )
            .replace(
                "  shop:     shop",
                "  shop:     shop\n  vestry:   { category: normal, keys: [gold, blue] }",
            )
    });
    assert!(
        diags.iter().any(|d| d.code == "flow::unsolvable"),
        "{diags:?}"
    );
}
