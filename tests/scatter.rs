//! The scatter generator over thousands of seeds: rooms never overlap after
//! separation; main rooms are the large ones; the links are a minimum
//! spanning tree of the triangulation plus the configured fraction of its
//! other edges; the level realises exactly those links (filler rooms on a
//! corridor contracted) and passes `Level::check()`; the same seed gives the
//! same level; a configuration that cannot separate ends with a diagnostic.
//! Each check here is computed independently of the generator's own code.

use std::collections::{BTreeMap, BTreeSet};

use dungeonflow::Project;
use dungeonflow::SourceFile;
use dungeonflow::internals::flow::{Flow, Generator, Region, ScatterParams, SizeDistribution};
use dungeonflow::internals::generate::generate;
use dungeonflow::internals::geom::Pos;
use dungeonflow::internals::project::{FileKind, Source};
use dungeonflow::internals::scatter::{self, MAIN_TEMPLATE, Plan, Rect, Shape};
use dungeonflow::level::Level;

#[path = "support/suite.rs"]
mod suite;

fn bundled() -> (Project, ScatterParams) {
    let project = Project::bundled();
    let params = match &project.flow("scatter").expect("bundled flow").generator {
        Generator::Scatter(p) => p.clone(),
        other => panic!("`scatter` runs {}", other.name()),
    };
    (project, params)
}

/// A project holding one flow file.
fn project_with(yaml: &str) -> Project {
    Project::from_layers(vec![vec![Source {
        file: SourceFile::new("scattered.yaml", yaml),
        kind: FileKind::Flow,
        bundled: false,
    }]])
}

fn footprint(r: &Rect) -> Rect {
    Rect::new(r.x - 1, r.y - 1, r.w + 2, r.h + 2)
}

fn share_a_tile(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h
}

fn squared_length(plan: &Plan, (a, b): (usize, usize)) -> i64 {
    let centre = |r: &Rect| {
        (
            2 * i64::from(r.x) + i64::from(r.w),
            2 * i64::from(r.y) + i64::from(r.h),
        )
    };
    let ((ax, ay), (bx, by)) = (centre(&plan.floors[a]), centre(&plan.floors[b]));
    (ax - bx).pow(2) + (ay - by).pow(2)
}

/// Components of `nodes` joined by `edges` (a small union-find).
fn components(nodes: &[usize], edges: &[(usize, usize)]) -> usize {
    let mut parent: BTreeMap<usize, usize> = nodes.iter().map(|&n| (n, n)).collect();
    fn root(parent: &mut BTreeMap<usize, usize>, mut n: usize) -> usize {
        while parent[&n] != n {
            n = parent[&n];
        }
        n
    }
    for &(a, b) in edges {
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent.insert(ra, rb);
    }
    nodes.iter().filter(|&&n| root(&mut parent, n) == n).count()
}

/// Total length of a minimum spanning tree of `edges` over `nodes` (Prim,
/// written here rather than taken from the generator).
fn mst_weight(plan: &Plan, edges: &[(usize, usize)]) -> i64 {
    let Some(&start) = plan.main.first() else {
        return 0;
    };
    let mut inside = BTreeSet::from([start]);
    let mut total = 0;
    while inside.len() < plan.main.len() {
        let best = edges
            .iter()
            .filter(|(a, b)| inside.contains(a) != inside.contains(b))
            .map(|&e| (squared_length(plan, e), e))
            .min()
            .expect("the triangulation is connected");
        total += best.0;
        inside.insert(best.1.0);
        inside.insert(best.1.1);
    }
    total
}

/// Links between main rooms as the level shows them: main rooms joined by a
/// connection directly or through filler rooms only, as sorted id pairs.
fn contracted_links(level: &Level) -> BTreeSet<(String, String)> {
    let main = |id: &str| level.room(id).is_some_and(|r| r.template == MAIN_TEMPLATE);
    let mut adj: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for c in &level.connections {
        adj.entry(&c.from).or_default().push(&c.to);
        adj.entry(&c.to).or_default().push(&c.from);
    }
    let mut links = BTreeSet::new();
    for r in level.rooms.iter().filter(|r| main(&r.id)) {
        let mut seen = BTreeSet::from([r.id.as_str()]);
        let mut stack = vec![r.id.as_str()];
        while let Some(v) = stack.pop() {
            for &w in adj.get(v).map(Vec::as_slice).unwrap_or_default() {
                if !seen.insert(w) {
                    continue;
                }
                if main(w) {
                    let (a, b) = (
                        r.id.clone().min(w.to_owned()),
                        r.id.clone().max(w.to_owned()),
                    );
                    links.insert((a, b));
                } else {
                    stack.push(w);
                }
            }
        }
    }
    links
}

/// What one seed shows, for the averages.
#[derive(Default)]
struct Tally {
    levels: usize,
    main: usize,
    kept: usize,
    extra: usize,
    shapes: BTreeMap<String, usize>,
}

/// Every property of the plan and level of `seed`.
fn check_seed(flow: &Flow, params: &ScatterParams, seed: u64, tally: &mut Tally) {
    let (plan, _) = scatter::plan(params, seed).unwrap_or_else(|f| panic!("seed {seed}: {f:?}"));
    let n = plan.floors.len();
    assert_eq!(n as u32, params.rooms, "seed {seed}: rooms spawned");

    // No two footprints (floor and wall ring) share a tile.
    let prints: Vec<Rect> = plan.floors.iter().map(footprint).collect();
    let mut by_x: Vec<usize> = (0..n).collect();
    by_x.sort_by_key(|&i| prints[i].x);
    for (k, &a) in by_x.iter().enumerate() {
        for &b in &by_x[k + 1..] {
            if prints[b].x >= prints[a].x + prints[a].w {
                break;
            }
            assert!(
                !share_a_tile(&prints[a], &prints[b]),
                "seed {seed}: rooms {a} and {b} overlap"
            );
        }
    }

    // Main rooms keep a corridor's width between their footprints.
    let gap = i32::try_from(params.corridor_width)
        .expect("small")
        .clamp(1, 3);
    for (k, &a) in plan.main.iter().enumerate() {
        for &b in &plan.main[k + 1..] {
            let grown = Rect::new(
                prints[a].x - gap,
                prints[a].y - gap,
                prints[a].w + 2 * gap,
                prints[a].h + 2 * gap,
            );
            assert!(
                !share_a_tile(&grown, &prints[b]),
                "seed {seed}: main rooms {a} and {b} too close"
            );
        }
    }

    // Main rooms: both sides above the threshold times the mean.
    let mean_w = plan.floors.iter().map(|r| f64::from(r.w)).sum::<f64>() / n as f64;
    let mean_h = plan.floors.iter().map(|r| f64::from(r.h)).sum::<f64>() / n as f64;
    let large: Vec<usize> = (0..n)
        .filter(|&i| {
            let r = &plan.floors[i];
            f64::from(r.w) > params.main_threshold * mean_w
                && f64::from(r.h) > params.main_threshold * mean_h
        })
        .collect();
    if large.is_empty() {
        assert_eq!(
            plan.main.len(),
            1,
            "seed {seed}: the largest room stands in"
        );
    } else {
        assert_eq!(plan.main, large, "seed {seed}: main rooms");
    }

    // The links: a minimum spanning tree of the triangulation, plus
    // round(fraction x candidates) of the other triangulation edges, the
    // candidates being those no longer than the tree's longest edge.
    let m = plan.main.len();
    let t = plan.triangulation.len();
    assert_eq!(plan.tree.len(), m - 1, "seed {seed}: tree edges");
    assert_eq!(
        components(&plan.main, &plan.tree),
        1,
        "seed {seed}: the tree spans the main rooms"
    );
    assert_eq!(
        plan.tree
            .iter()
            .map(|&e| squared_length(&plan, e))
            .sum::<i64>(),
        mst_weight(&plan, &plan.triangulation),
        "seed {seed}: the tree is minimal"
    );
    let longest = plan
        .tree
        .iter()
        .map(|&e| squared_length(&plan, e))
        .max()
        .unwrap_or(0);
    let short = |e: &(usize, usize)| squared_length(&plan, *e) <= longest;
    let candidates = plan
        .triangulation
        .iter()
        .filter(|e| !plan.tree.contains(e) && short(e))
        .count();
    let expected_extra = (params.extra_edges * candidates as f64).round() as usize;
    assert_eq!(plan.extra.len(), expected_extra, "seed {seed}: extra edges");
    for e in plan.tree.iter().chain(&plan.extra) {
        assert!(
            plan.triangulation.contains(e),
            "seed {seed}: {e:?} is not a triangulation edge"
        );
    }
    assert!(
        plan.extra
            .iter()
            .all(|e| !plan.tree.contains(e) && short(e))
    );
    if m >= 3 {
        // A triangulation of m points: at least m - 1, at most 3m - 6 edges.
        assert!(t < 3 * m - 5, "seed {seed}: {t} edges for {m} points");
    }

    // The level: valid, as `generate` makes it, realising exactly the links.
    let level = plan.level(&flow.name.value, seed);
    level.check().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    if seed.is_multiple_of(8) {
        let generated = generate(flow, &Default::default(), seed, &Default::default())
            .expect("generates")
            .level;
        assert_eq!(
            level, generated,
            "seed {seed}: the plan is the generated level"
        );
    }
    let mains = level
        .rooms
        .iter()
        .filter(|r| r.template == MAIN_TEMPLATE)
        .count();
    assert_eq!(mains, m, "seed {seed}: every main room is in the level");
    assert_eq!(
        level.rooms.len(),
        m + plan.kept.len(),
        "seed {seed}: main and kept rooms only"
    );
    assert_eq!(level.rooms[0].category, "entrance");
    let bosses = level.rooms.iter().filter(|r| r.category == "boss").count();
    assert_eq!(bosses, usize::from(m > 1), "seed {seed}: one boss room");
    // Plan rooms map to level rooms by their footprint, shifted by one offset.
    let entrance = plan.roles.order[0];
    let (dx, dy) = (
        level.rooms[0].x - prints[entrance].x,
        level.rooms[0].y - prints[entrance].y,
    );
    let id_of: BTreeMap<(i32, i32), &str> = level
        .rooms
        .iter()
        .map(|r| ((r.x - dx, r.y - dy), r.id.as_str()))
        .collect();
    let id = |room: usize| id_of[&(prints[room].x, prints[room].y)].to_owned();
    let planned: BTreeSet<(String, String)> = plan
        .tree
        .iter()
        .chain(&plan.extra)
        .map(|&(a, b)| (id(a).min(id(b)), id(a).max(id(b))))
        .collect();
    assert_eq!(
        contracted_links(&level),
        planned,
        "seed {seed}: the level's links"
    );
    // Kept filler rooms all lie on corridors: each is joined to something.
    for &f in &plan.kept {
        let fid = id(f);
        assert!(
            level
                .connections
                .iter()
                .filter(|c| c.from == fid || c.to == fid)
                .count()
                >= 2
        );
    }

    // A straight corridor has no turn, an L one turn.
    for r in &plan.routes {
        let step = |a: &Pos, b: &Pos| (b.x - a.x, b.y - a.y);
        let turns = r
            .path
            .windows(3)
            .filter(|w| step(&w[0], &w[1]) != step(&w[1], &w[2]))
            .count();
        match r.shape {
            Shape::Straight => assert_eq!(turns, 0, "seed {seed}"),
            Shape::Bent => assert_eq!(turns, 1, "seed {seed}"),
            Shape::Searched => {}
        }
        *tally.shapes.entry(format!("{:?}", r.shape)).or_default() += 1;
    }

    tally.levels += 1;
    tally.main += m;
    tally.kept += plan.kept.len();
    tally.extra += plan.extra.len();
}

fn check_seeds(flow: &Flow, params: &ScatterParams, seeds: std::ops::Range<u64>) -> Tally {
    let mut tally = Tally::default();
    for seed in seeds {
        check_seed(flow, params, seed, &mut tally);
    }
    tally
}

/// A flow running `params`, for `generate`.
fn flow_of(params: &ScatterParams) -> Flow {
    let (project, _) = bundled();
    let mut flow = project.flow("scatter").expect("bundled").clone();
    flow.generator = Generator::Scatter(params.clone());
    flow
}

#[test]
fn bundled_flow_over_2000_seeds() {
    let (project, params) = bundled();
    let flow = project.flow("scatter").expect("bundled");
    let t = check_seeds(flow, &params, 0..suite::seeds(2000));
    let per = |x: usize| x as f64 / t.levels as f64;
    let links: usize = t.shapes.values().sum();
    let searched = t.shapes.get("Searched").copied().unwrap_or(0);
    eprintln!(
        "scatter over {} seeds: main rooms {:.1}, filler rooms kept {:.1}, extra edges {:.2}; corridors {:?}",
        t.levels,
        per(t.main),
        per(t.kept),
        per(t.extra),
        t.shapes
    );
    // A TinyKeep level: a dozen or more main rooms, small rooms on the
    // corridors, a loop or two; corridors straight or L-shaped, A* rare.
    assert!((8.0..30.0).contains(&per(t.main)), "{}", per(t.main));
    assert!(per(t.kept) > 5.0, "{}", per(t.kept));
    assert!(per(t.extra) >= 1.0, "{}", per(t.extra));
    assert!(
        searched * 10 < links,
        "{searched} of {links} corridors searched"
    );
}

#[test]
fn other_shapes_and_widths() {
    let (_, base) = bundled();
    let variants = [
        ScatterParams {
            corridor_width: 2,
            ..base.clone()
        },
        ScatterParams {
            corridor_width: 3,
            extra_edges: 1.0,
            ..base.clone()
        },
        ScatterParams {
            region: Region::Ellipse(70.0, 20.0),
            rooms: 120,
            ..base.clone()
        },
        ScatterParams {
            sizes: SizeDistribution::SkewNormal {
                mean: 6.0,
                sd: 3.0,
                skew: 4.0,
            },
            max_aspect: 1.5,
            extra_edges: 0.0,
            ..base.clone()
        },
        // Every room a main room: no filler, corridors around main rooms.
        ScatterParams {
            rooms: 40,
            main_threshold: 0.1,
            corridor_width: 3,
            ..base.clone()
        },
    ];
    for params in variants {
        let n = suite::seeds(150);
        let t = check_seeds(&flow_of(&params), &params, 0..n);
        assert_eq!(t.levels, n as usize);
    }
}

#[test]
fn few_rooms_zero_one_or_two_main_rooms() {
    let (_, base) = bundled();
    for rooms in 1..=4 {
        for (threshold, side) in [(1.25, (3, 16)), (0.1, (3, 16)), (1.25, (5, 5))] {
            let params = ScatterParams {
                rooms,
                main_threshold: threshold,
                min_side: side.0,
                max_side: side.1,
                ..base.clone()
            };
            let n = suite::seeds(100);
            let t = check_seeds(&flow_of(&params), &params, 0..n);
            assert_eq!(t.levels, n as usize);
        }
    }
}

#[test]
fn same_seed_same_level_and_seeds_differ() {
    let (project, _) = bundled();
    let flow = project.flow("scatter").expect("bundled");
    let level = |seed| {
        generate(flow, &project.library, seed, &Default::default())
            .expect("generates")
            .level
    };
    let mut distinct = BTreeSet::new();
    for seed in 0..40 {
        let a = level(seed);
        assert_eq!(a, level(seed), "seed {seed}");
        distinct.insert(a.snapshot());
    }
    assert_eq!(distinct.len(), 40);
}

#[test]
fn a_configuration_that_cannot_separate_ends_with_a_diagnostic() {
    // 300 rooms of 40 x 40 on one point, one step to push them apart.
    let project = project_with(
        "name: jammed\ngenerator: scatter\nparams:\n  rooms: 300\n  region: { circle: 1 }\n  sizes: { side: 40..40 }\n  max_steps: 1\n",
    );
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    let flow = project.flow("jammed").expect("flow");
    let d = generate(flow, &project.library, 7, &Default::default()).expect_err("cannot separate");
    assert_eq!(d.code, "scatter::not-separated");
    assert!(d.labels.first().is_some_and(|l| l.text == "this flow"));
    insta::assert_snapshot!("not_separated", d.render(false));
}

#[test]
fn hand_built_nonsense_never_panics() {
    let nonsense = [
        ScatterParams {
            rooms: 0,
            region: Region::Circle(f64::NAN),
            sizes: SizeDistribution::Geometric(0.0),
            min_side: 0,
            max_side: 0,
            max_aspect: f64::INFINITY,
            main_threshold: f64::NAN,
            extra_edges: -3.0,
            corridor_width: 9,
            max_steps: 0,
        },
        ScatterParams {
            rooms: u32::MAX,
            region: Region::Ellipse(-1.0, 1e300),
            sizes: SizeDistribution::SkewNormal {
                mean: -1e9,
                sd: f64::NAN,
                skew: 1e300,
            },
            min_side: 99,
            max_side: 2,
            max_aspect: -1.0,
            main_threshold: 0.0,
            extra_edges: f64::NAN,
            corridor_width: 0,
            max_steps: 20,
        },
    ];
    for params in nonsense {
        let flow = flow_of(&params);
        for seed in 0..3 {
            // Either a level that passes its checks or a diagnostic.
            if let Ok(g) = generate(&flow, &Default::default(), seed, &Default::default()) {
                g.level.check().expect("a valid level");
            }
        }
    }
}
