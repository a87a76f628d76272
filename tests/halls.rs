//! Loop-closing halls: small rectangular rooms built between the last two
//! exits of a loop. Each one is a filled rectangle within the size rules,
//! serves exactly one connection, and touches no other corridor.

use std::collections::{BTreeSet, VecDeque};

use dungeonflow::Project;
use dungeonflow::generate::generate;
use dungeonflow::level::{ConnectionKind, Level, TileKind};

/// The corridor tiles 4-connected to `start`.
fn corridor_component(level: &Level, start: [i32; 2]) -> BTreeSet<[i32; 2]> {
    let kind = |[x, y]: [i32; 2]| {
        (x >= 0 && y >= 0 && x < level.width && y < level.height)
            .then(|| level.tiles[(y * level.width + x) as usize])
    };
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some([x, y]) = queue.pop_front() {
        for next in [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]] {
            if kind(next) == Some(TileKind::Corridor) && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

#[test]
fn loops_close_with_halls_that_keep_to_the_size_rules() {
    let project = Project::bundled();
    let mut halls = 0;
    for name in ["giant_loop", "loop_series", "classic"] {
        let flow = project.flow(name).expect("bundled flow");
        for seed in 0..150 {
            let level = generate(flow, &project.library, seed, &Default::default())
                .expect("lays out")
                .level;
            let on_paths: Vec<BTreeSet<[i32; 2]>> = level
                .connections
                .iter()
                .map(|c| c.path.iter().copied().collect())
                .collect();
            for (i, c) in level.connections.iter().enumerate() {
                if c.kind != ConnectionKind::Corridor || c.path.len() < 3 {
                    continue;
                }
                let component = corridor_component(&level, c.path[1]);
                let xs = component.iter().map(|p| p[0]);
                let ys = component.iter().map(|p| p[1]);
                let (w, h) = (
                    xs.clone().max().unwrap() - xs.min().unwrap() + 1,
                    ys.clone().max().unwrap() - ys.min().unwrap() + 1,
                );
                if component.len() as i32 != w * h || w < 3 || h < 3 {
                    continue; // a corridor, not a hall
                }
                halls += 1;
                let at = format!("{name} seed {seed}, `{}` -> `{}`", c.from, c.to);
                assert!(w * h <= 120, "{at}: a hall of {w}x{h}");
                assert!(w.max(h) <= 5 * w.min(h), "{at}: a hall of {w}x{h}");
                for (j, path) in on_paths.iter().enumerate() {
                    if j != i {
                        assert!(
                            path.is_disjoint(&component),
                            "{at}: the hall also carries `{}` -> `{}`",
                            level.connections[j].from,
                            level.connections[j].to
                        );
                    }
                }
                let inner = &c.path[1..c.path.len() - 1];
                assert!(
                    inner.iter().all(|p| component.contains(p)),
                    "{at}: the way leaves the hall"
                );
            }
        }
    }
    assert!(halls >= 30, "only {halls} halls in 450 levels");
}
