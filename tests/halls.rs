//! Loop-closing halls: small rectangular rooms built between the last two
//! exits of a loop. Corridor ground three tiles wide is a hall: it must be a
//! filled rectangle within the size rules, touched by no other corridor,
//! serving exactly one connection.

use std::collections::{BTreeSet, VecDeque};

use dungeonflow::Project;
use dungeonflow::internals::generate::generate;
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

/// Whether the corridor tiles include the 3x3 block with top-left `p`.
fn hall_at(tiles: &BTreeSet<[i32; 2]>, [x, y]: [i32; 2]) -> bool {
    (0..3).all(|dy| (0..3).all(|dx| tiles.contains(&[x + dx, y + dy])))
}

#[test]
fn loops_close_with_halls_that_keep_to_the_size_rules() {
    let project = Project::bundled();
    let mut halls = 0;
    for name in ["giant_loop", "loop_series", "classic", "maze"] {
        let flow = project.flow(name).expect("bundled flow");
        for seed in 0..150 {
            let level = generate(flow, &project.library, seed, &Default::default())
                .expect("lays out")
                .level;
            let corridor: BTreeSet<[i32; 2]> = (0..level.height)
                .flat_map(|y| (0..level.width).map(move |x| [x, y]))
                .filter(|&[x, y]| level.tiles[(y * level.width + x) as usize] == TileKind::Corridor)
                .collect();
            // Corridors are one tile wide (two at most where two run side by
            // side); corridor ground three tiles wide belongs to a hall, which
            // must be a whole rectangle of its own.
            let mut seen: BTreeSet<[i32; 2]> = BTreeSet::new();
            for &p in &corridor {
                if seen.contains(&p) || !hall_at(&corridor, p) {
                    continue;
                }
                let component = corridor_component(&level, p);
                seen.extend(component.iter().copied());
                let at = format!("{name} seed {seed}, hall at {p:?}");
                let xs = component.iter().map(|p| p[0]);
                let ys = component.iter().map(|p| p[1]);
                let (w, h) = (
                    xs.clone().max().unwrap() - xs.min().unwrap() + 1,
                    ys.clone().max().unwrap() - ys.min().unwrap() + 1,
                );
                assert_eq!(
                    component.len() as i32,
                    w * h,
                    "{at}: not a rectangle of its own ({w}x{h} box): a corridor runs into it"
                );
                assert!(w >= 3 && h >= 3 && w * h <= 120, "{at}: a hall of {w}x{h}");
                assert!(w.max(h) <= 5 * w.min(h), "{at}: a hall of {w}x{h}");
                let through: Vec<_> = level
                    .connections
                    .iter()
                    .filter(|c| c.path.iter().any(|q| component.contains(q)))
                    .collect();
                assert_eq!(
                    through.len(),
                    1,
                    "{at}: carries {} connections",
                    through.len()
                );
                assert_eq!(through[0].kind, ConnectionKind::Corridor, "{at}");
                halls += 1;
            }
        }
    }
    assert!(halls >= 30, "only {halls} halls in 600 levels");
}
