//! Layout: a flow that cannot be laid out ends with a diagnostic naming the
//! stage and the node, within its budget.

use dungeonflow::Project;
use dungeonflow::SourceFile;
use dungeonflow::internals::generate::generate;
use dungeonflow::internals::project::{FileKind, Source};

#[path = "support/suite.rs"]
mod suite;
// The bench writes both families of scaling graphs; these tests use one.
#[allow(dead_code)]
#[path = "support/scaling.rs"]
mod scaling;

#[test]
fn an_impossible_layout_ends_with_a_diagnostic() {
    // Both rooms open only to the north: the child cannot face its parent,
    // and no corridor of at most 3 tiles turns from one north door to the other.
    let rooms = "rooms:\n  - name: up_entrance\n    category: entrance\n    art: |\n      ##A##\n      #...#\n      #####\n  - name: up_room\n    category: normal\n    art: |\n      ##A##\n      #...#\n      #####\n";
    let flow = "name: stuck\nlayout: { corridor: 2..3 }\nnodes:\n  start: entrance\n  next: normal\nedges:\n  - start -> next\n";
    let project = Project::from_layers(vec![vec![
        Source {
            file: SourceFile::new("rooms.yaml", rooms),
            kind: FileKind::Room,
            bundled: false,
        },
        Source {
            file: SourceFile::new("stuck.yaml", flow),
            kind: FileKind::Flow,
            bundled: false,
        },
    ]]);
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    let d = generate(
        project.flow("stuck").expect("flow"),
        &project.library,
        0,
        &Default::default(),
    )
    .expect_err("impossible");
    assert_eq!(d.code, "layout::failed");
    assert!(d.message.contains("stage"), "{}", d.message);
    // Either room may be the one that gives up (the last attempt lays the
    // tree out from its middle), but the label names one of them.
    assert!(
        d.labels
            .first()
            .is_some_and(|l| l.text.contains("`next`") || l.text.contains("`start`")),
        "{d:?}"
    );
}

/// A flow with three paths from `a` to `b` (through `x`, `y` and `z`, two
/// of them closed by loop edges), a chain of `branch` rooms hanging from
/// each of `x`, `y` and `z`: whichever way the loop block is drawn, one of
/// them is inside a loop with its chain.
fn theta_flow(branch: usize) -> String {
    let mut nodes = String::from("  start: entrance\n  a: normal\n  b: normal\n");
    let mut edges = String::from("  - start -> a\n  - x -> b\n");
    for p in ["x", "y", "z"] {
        nodes += &format!("  {p}: normal\n");
        edges += &format!("  - a -> {p}\n");
        let mut prev = p.to_string();
        for i in 1..=branch {
            nodes += &format!("  {p}{i}: normal\n");
            edges += &format!("  - {prev} -> {p}{i}\n");
            prev = format!("{p}{i}");
        }
    }
    format!("name: theta\nnodes:\n{nodes}edges:\n{edges}loops:\n  - y <-> b\n  - z <-> b\n")
}

/// [`theta_flow`] with chains of `branch` rooms, expanded with seed 0.
fn expanded_theta(branch: usize) -> dungeonflow::internals::graph::LevelGraph {
    let project = bundled_rooms_and("theta.yaml", &theta_flow(branch));
    let flow = project.flow("theta").expect("flow");
    dungeonflow::internals::expand::expand(flow, &project.library, 0, &Default::default())
        .expect("expands")
}

/// A project of the bundled room templates and one flow, `flow`, read from
/// a file called `file`.
fn bundled_rooms_and(file: &str, flow: &str) -> Project {
    let mut layer = dungeonflow::internals::project::bundled_sources();
    layer.retain(|s| s.kind == FileKind::Room);
    let project = Project::from_layers(vec![
        layer,
        vec![Source {
            file: SourceFile::new(file, flow),
            kind: FileKind::Flow,
            bundled: false,
        }],
    ]);
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    project
}

#[test]
fn a_theta_with_branches_on_every_path_encloses_one_of_them() {
    use dungeonflow::internals::graph::{decompose, enclosures};
    let graph = expanded_theta(2);
    let found = enclosures(&graph, &decompose(&graph));
    assert_eq!(found.len(), 1, "{found:?}");
    let id = |v: petgraph::graph::NodeIndex| graph.graph[v].id.as_str();
    let e = &found[0];
    let mut ends = [id(e.path[0]), id(e.path[e.path.len() - 1])];
    ends.sort();
    assert_eq!(ends, ["a", "b"]);
    // One way encloses one of the other two paths' middle rooms, the other
    // way the other.
    let mut enclosed: Vec<Vec<&str>> = e
        .enclosed
        .iter()
        .map(|side| side.iter().map(|&v| id(v)).collect())
        .collect();
    enclosed.sort();
    let middle = id(e.path[1]);
    let others: Vec<Vec<&str>> = ["x", "y", "z"]
        .into_iter()
        .filter(|&p| p != middle)
        .map(|p| vec![p])
        .collect();
    assert_eq!(enclosed, others);

    // Without the chains nothing links out of the block: nothing to enclose.
    let graph = expanded_theta(0);
    assert!(enclosures(&graph, &decompose(&graph)).is_empty());
}

#[test]
fn a_theta_with_a_chain_of_six_rooms_inside_its_loop_lays_out() {
    // One of the three paths between `a` and `b` goes inside the loop the
    // other two make, with the chain of six rooms hanging from it: a
    // tight fit, which most seeds make (31 of seeds 1 to 40).
    let project = bundled_rooms_and("theta.yaml", &theta_flow(6));
    let flow = project.flow("theta").expect("flow");
    let mut laid_out = 0;
    for seed in 0..8 {
        if let Ok(generated) = generate(flow, &project.library, seed, &Default::default()) {
            generated.level.check().expect("a valid level");
            assert_eq!(generated.level.rooms.len(), 3 + 3 * 7);
            laid_out += 1;
        }
    }
    assert!(laid_out >= 5, "{laid_out} of 8 seeds laid out");
}

#[test]
fn a_failed_layout_names_the_rooms_a_theta_encloses() {
    let project = bundled_rooms_and("theta.yaml", &theta_flow(8));
    let d = generate(
        project.flow("theta").expect("flow"),
        &project.library,
        0,
        &Default::default(),
    )
    .expect_err("chains of eight rooms do not fit inside a loop");
    assert_eq!(d.code, "layout::failed");
    insta::assert_snapshot!(d.render(false));
}

#[test]
fn rollback_clears_the_exit_flags_set_since_the_mark() {
    use dungeonflow::internals::geom::Pos;
    use dungeonflow::internals::layout::{Canvas, ShapeTable};
    use petgraph::graph::NodeIndex;

    let project = Project::bundled();
    let table = ShapeTable::new(&project.library);
    let shape = table
        .shapes
        .iter()
        .position(|s| s.exits.len() >= 2)
        .expect("a template with two exits");
    let far = Pos::new(100, 100);
    let mut canvas = Canvas::default();
    let first = canvas.add_room(&table.shapes, NodeIndex::new(0), shape, Pos::new(0, 0));
    canvas.use_exit(first, 0);
    let mark = canvas.mark();
    canvas.use_exit(first, 1);
    canvas.use_exit(first, 0);
    let second = canvas.add_room(&table.shapes, NodeIndex::new(1), shape, far);
    canvas.use_exit(second, 0);
    canvas.rollback(&table.shapes, mark);
    assert_eq!(canvas.rooms.len(), 1);
    assert!(canvas.rooms[first].used[0], "set before the mark: kept");
    assert!(!canvas.rooms[first].used[1], "set after the mark: cleared");
    assert!(canvas.index_of(NodeIndex::new(1)).is_none());
}

#[test]
fn the_tile_bitmaps_agree_with_rooms_corridors_and_hall_rings_through_adds_and_rollbacks() {
    use dungeonflow::internals::geom::Pos;
    use dungeonflow::internals::layout::{Canvas, ShapeTable};
    use dungeonflow::internals::rng::Rng;
    use petgraph::graph::NodeIndex;

    let project = Project::bundled();
    let table = ShapeTable::new(&project.library);
    let shapes = &table.shapes;
    let mut rng = Rng::new(7);
    let mut canvas = Canvas::default();
    let mut marks = Vec::new();
    // Corridor strips and hall rings added, each with the index of the mark
    // taken just before it (what a rollback to that mark removes).
    let mut corridors: Vec<(usize, Vec<Pos>)> = Vec::new();
    let mut rings: Vec<(usize, Vec<Pos>)> = Vec::new();
    let is_corridor = |corridors: &[(usize, Vec<Pos>)], p: Pos| {
        corridors.iter().any(|(_, tiles)| tiles.contains(&p))
    };
    for step in 0..600 {
        if step % 10 == 9 && !marks.is_empty() {
            // Back to a random earlier state; later marks are gone with it.
            let i = marks.len() - 1 - rng.index(marks.len().min(3));
            canvas.rollback(shapes, marks[i]);
            marks.truncate(i);
            corridors.retain(|(m, _)| *m < i);
            rings.retain(|(m, _)| *m < i);
            continue;
        }
        // Negative and positive coordinates, across block borders.
        let pos = Pos::new(rng.index(160) as i32 - 80, rng.index(160) as i32 - 80);
        if step % 4 == 3 {
            // A corridor strip on free tiles, with a ring around its end.
            let strip: Vec<Pos> = (0..rng.index(40) as i32)
                .map(|k| Pos::new(pos.x + k, pos.y))
                .take_while(|&p| canvas.corridor_may_run(p))
                .collect();
            let Some(&end) = strip.last() else { continue };
            let ring: Vec<Pos> = (-1..=1).map(|dy| Pos::new(end.x + 1, end.y + dy)).collect();
            marks.push(canvas.mark());
            canvas.add_corridor(&strip);
            canvas.ring_hall(&ring);
            corridors.push((marks.len() - 1, strip));
            rings.push((marks.len() - 1, ring));
            continue;
        }
        let s = rng.index(shapes.len());
        let fits = canvas.fits(&shapes[s], pos);
        let overlaps = shapes[s].footprint.iter().any(|c| {
            let p = Pos::new(pos.x + c.x, pos.y + c.y);
            is_corridor(&corridors, p)
                || canvas.rooms.iter().any(|r| {
                    shapes[r.shape]
                        .footprint
                        .contains(&Pos::new(p.x - r.pos.x, p.y - r.pos.y))
                })
        });
        assert_eq!(
            fits, !overlaps,
            "step {step}: fits disagrees with the footprints and corridors"
        );
        if fits {
            marks.push(canvas.mark());
            canvas.add_room(shapes, NodeIndex::new(step), s, pos);
        }
    }
    for y in -100..100 {
        for x in -100..100 {
            let p = Pos::new(x, y);
            let room = canvas.rooms.iter().any(|r| {
                shapes[r.shape]
                    .footprint
                    .contains(&Pos::new(x - r.pos.x, y - r.pos.y))
            });
            let corridor = is_corridor(&corridors, p);
            let ring = rings.iter().any(|(_, tiles)| tiles.contains(&p));
            assert_eq!(canvas.is_room_tile(p), room, "room tile ({x}, {y})");
            assert_eq!(canvas.is_corridor(p), corridor, "corridor tile ({x}, {y})");
            assert_eq!(canvas.beside_hall(p), ring, "ring tile ({x}, {y})");
            assert_eq!(
                canvas.corridor_may_run(p),
                !room && !corridor && !ring,
                "tile ({x}, {y})"
            );
        }
    }
    // Rectangles, some wider than a block: clear exactly when every tile is.
    let (mut clear, mut blocked) = (0, 0);
    for _ in 0..2000 {
        let lo = Pos::new(rng.index(180) as i32 - 90, rng.index(180) as i32 - 90);
        let hi = Pos::new(lo.x + rng.index(70) as i32, lo.y + rng.index(8) as i32);
        let tiles = (lo.y..=hi.y).all(|y| (lo.x..=hi.x).all(|x| canvas.is_clear(Pos::new(x, y))));
        assert_eq!(canvas.area_clear(lo, hi), tiles, "area {lo:?}..{hi:?}");
        if tiles {
            clear += 1;
        } else {
            blocked += 1;
        }
    }
    assert!(
        clear >= 50 && blocked >= 50,
        "{clear} clear, {blocked} blocked areas"
    );
    assert!(canvas.rooms.len() >= 5, "only {} rooms", canvas.rooms.len());
    assert!(corridors.len() >= 5, "only {} corridors", corridors.len());
}

#[test]
fn a_hub_with_five_children_lays_out_for_every_seed() {
    use dungeonflow::internals::generate::generate_with;
    use dungeonflow::internals::layout::ShapeTable;

    // Bundled hub templates have few more exits than the hub's six links,
    // some on one wall: not every child fits against the hub door to door.
    // A tree's last rebuild may place such a child a corridor away.
    let flow = "name: hub6\nnodes:\n  start: entrance\n  h: hub\n  a: normal\n  b: normal\n  c: normal\n  d: normal\n  e: normal\nedges:\n  - start -> h\n  - h -> a\n  - h -> b\n  - h -> c\n  - h -> d\n  - h -> e\n";
    let project = bundled_rooms_and("hub6.yaml", flow);
    let flow = project.flow("hub6").expect("flow");
    let table = ShapeTable::new(&project.library);
    let mut corridors = 0;
    for seed in 0..300 {
        let generated = generate_with(flow, &project.library, &table, seed, &Default::default())
            .unwrap_or_else(|d| panic!("seed {seed}: {}", d.message));
        let level = &generated.level;
        level
            .check()
            .unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        let hub_links = level
            .connections
            .iter()
            .filter(|c| c.from == "h" || c.to == "h")
            .count();
        assert_eq!(hub_links, 6, "seed {seed}");
        corridors += level
            .connections
            .iter()
            .filter(|c| c.kind == dungeonflow::level::ConnectionKind::Corridor)
            .count();
    }
    // Most children still meet the hub door to door.
    assert!(corridors < 300 * 6 / 2, "{corridors} corridors");
}

#[test]
fn a_shape_covers_a_rectangle_exactly_when_a_footprint_cell_lies_in_it() {
    use dungeonflow::internals::geom::Pos;
    use dungeonflow::internals::layout::ShapeTable;
    use dungeonflow::internals::rng::Rng;

    let project = Project::bundled();
    let table = ShapeTable::new(&project.library);
    let mut rng = Rng::new(11);
    let (mut covered, mut missed) = (0, 0);
    for shape in &table.shapes {
        let pos = Pos::new(rng.index(20) as i32 - 10, rng.index(20) as i32 - 10);
        for _ in 0..50 {
            let lo = Pos::new(rng.index(50) as i32 - 25, rng.index(50) as i32 - 25);
            let hi = Pos::new(lo.x + rng.index(8) as i32, lo.y + rng.index(8) as i32);
            let cells = shape.footprint.iter().any(|c| {
                let p = Pos::new(pos.x + c.x, pos.y + c.y);
                (lo.x..=hi.x).contains(&p.x) && (lo.y..=hi.y).contains(&p.y)
            });
            assert_eq!(
                shape.covers(pos, lo, hi),
                cells,
                "{lo:?}..{hi:?} at {pos:?}"
            );
            if cells {
                covered += 1;
            } else {
                missed += 1;
            }
        }
    }
    assert!(
        covered >= 100 && missed >= 100,
        "{covered} covered, {missed} missed"
    );
}

/// A ribbon of `rings` loops of five rooms (`rI_0` to `rI_4`, closed by
/// `rI_4 <-> rI_0`), each with a chain of two rooms off `rI_2`; ring `i`
/// hangs from ring `i - 1` or `i - 2`. A long graph whose loops share no
/// room, like the scaling bench's room-disjoint family but regular.
fn ribbon_flow(rings: usize) -> String {
    let (mut nodes, mut edges, mut loops) = (
        String::from("  e: entrance\n"),
        String::from("  - e -> r0_0\n"),
        String::new(),
    );
    for i in 0..rings {
        for k in 0..5 {
            nodes += &format!("  r{i}_{k}: normal\n");
        }
        nodes += &format!("  s{i}_0: normal\n  s{i}_1: normal\n");
        for k in 0..4 {
            edges += &format!("  - r{i}_{k} -> r{i}_{}\n", k + 1);
        }
        edges += &format!("  - r{i}_2 -> s{i}_0\n  - s{i}_0 -> s{i}_1\n");
        if i > 0 {
            let parent = (i - 1).saturating_sub(i % 2);
            edges += &format!("  - r{parent}_{} -> r{i}_0\n", 1 + 2 * (i % 2));
        }
        loops += &format!("  - r{i}_4 <-> r{i}_0\n");
    }
    format!(
        "name: ribbon\nlayout: {{ reuse_templates: true }}\nnodes:\n{nodes}edges:\n{edges}loops:\n{loops}"
    )
}

#[test]
fn a_ribbon_of_fifty_loops_lays_out_within_a_few_attempts() {
    use dungeonflow::internals::generate::generate_with;
    use dungeonflow::internals::layout::ShapeTable;

    // 351 rooms in 50 loops and their chains. The assembly
    // grows the map as a front: before it, 8 seeds took 7.5 layout
    // attempts on average and up to 23 (now 1.5, at most 2).
    let project = bundled_rooms_and("ribbon.yaml", &ribbon_flow(50));
    let flow = project.flow("ribbon").expect("flow");
    let table = ShapeTable::new(&project.library);
    for seed in 1..=suite::seeds(4) {
        let generated = generate_with(flow, &project.library, &table, seed, &Default::default())
            .unwrap_or_else(|d| panic!("seed {seed}: {}", d.message));
        assert_eq!(generated.level.rooms.len(), 351, "seed {seed}");
        generated
            .level
            .check()
            .unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        assert!(
            generated.attempts <= 4,
            "seed {seed}: {} layout attempts",
            generated.attempts
        );
    }
}

#[test]
fn thousand_room_graphs_whose_loops_share_no_room_lay_out() {
    use dungeonflow::internals::generate::generate_with;
    use dungeonflow::internals::layout::ShapeTable;
    use scaling::{Loops, scaling_flow};

    // The five 1,000-room graphs docs/performance.md measures (generator
    // seeds 100,001 to 100,005), two level seeds each. Before the budgets
    // grew with crowding, seeds 0 to 3 of graph 100,002 failed all 50
    // layout attempts; since the level's work was capped, that graph lays
    // out on about 7 seeds in 10 and the five on 38 of 40 levels together
    // (seeds 0 to 7), so 7 of these 10 levels is the floor, not a lucky
    // seed.
    if !suite::full() {
        suite::note("the 1,000-room layout test runs in the full suite (CI or DUNGEONFLOW_FULL=1)");
        return;
    }
    let mut laid_out = 0;
    let mut failures = Vec::new();
    for graph_seed in 100_001..=100_005 {
        let text = scaling_flow(1000, graph_seed, Loops::RoomDisjoint);
        let project = bundled_rooms_and("scale.yaml", &text);
        let flow = project.flow("scale1000").expect("flow");
        let table = ShapeTable::new(&project.library);
        for seed in 0..2 {
            let generated =
                match generate_with(flow, &project.library, &table, seed, &Default::default()) {
                    Ok(generated) => generated,
                    Err(d) => {
                        failures.push(format!("graph {graph_seed} seed {seed}: {}", d.message));
                        continue;
                    }
                };
            let level = &generated.level;
            assert_eq!(level.rooms.len(), 1000);
            level
                .check()
                .unwrap_or_else(|e| panic!("graph {graph_seed} seed {seed}: {e:?}"));
            let graph = generated.graph.as_ref().expect("graph");
            assert_eq!(level.connections.len(), graph.graph.edge_count());
            let doors = level
                .connections
                .iter()
                .filter(|c| c.kind == dungeonflow::level::ConnectionKind::Door)
                .count();
            assert!(
                doors * 100 >= level.connections.len() * 85,
                "graph {graph_seed} seed {seed}: {doors} doors of {}",
                level.connections.len()
            );
            laid_out += 1;
        }
    }
    assert!(laid_out >= 7, "{laid_out} of 10 laid out: {failures:#?}");
}

#[test]
fn dead_end_branches_are_the_composites_joined_by_a_single_link() {
    use dungeonflow::internals::graph::decompose;
    let graph = expanded_theta(2);
    let d = decompose(&graph);
    let node = |id: &str| {
        graph
            .graph
            .node_indices()
            .find(|&v| graph.graph[v].id == id)
            .expect("room")
    };
    // `x` leads to the chain x1 x2 and nothing else: one dead end.
    let branches = d.dead_end_branches(&graph, node("x"));
    assert_eq!(branches.len(), 1, "{branches:?}");
    assert_eq!(branches[0].0, d.composite_of[node("x1").index()]);
    // `b` has no link out of its loop composite.
    assert!(d.dead_end_branches(&graph, node("b")).is_empty());
}
