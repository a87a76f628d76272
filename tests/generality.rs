//! Layout generality on graphs the engine was not tuned on (the families of
//! `tests/support/families.rs`, drawn from fresh generator seeds): trees lay
//! out on every seed, every level laid out keeps the invariants, and a graph
//! that cannot be drawn without crossings is refused before any layout
//! attempt, naming its rooms. `cargo bench --bench families` reports the
//! success rate of every family.

use std::collections::BTreeMap;

use dungeonflow::internals::generate::generate_with;
use dungeonflow::internals::layout::ShapeTable;
use dungeonflow::internals::project::Project;
use dungeonflow::internals::stats::Measures;
use dungeonflow::level::ConnectionKind;

// The bench draws every family; these tests draw some.
#[allow(dead_code)]
#[path = "support/families.rs"]
mod families;
#[path = "support/project.rs"]
mod project;
#[path = "support/suite.rs"]
mod suite;

use families::Family;
use project::project_with;

/// Generates `seeds` seeds of graph `graph` of `family`; checks every level
/// laid out (invariants, one connection per edge, repeatable) and returns
/// how many were laid out and the codes of the others.
fn lay_out(family: Family, graph: u64, seeds: u64) -> (u64, BTreeMap<String, u32>) {
    lay_out_flow(family, graph, &family.flow(graph), seeds)
}

/// [`lay_out`] of the flow text `flow` (graph `graph` of `family`, edited).
fn lay_out_flow(
    family: Family,
    graph: u64,
    flow: &str,
    seeds: u64,
) -> (u64, BTreeMap<String, u32>) {
    let project = project_with(flow);
    let name = format!("family_{graph}");
    let flow = project.flow(&name).expect("the family's flow");
    let table = ShapeTable::new(&project.library);
    let mut failures = BTreeMap::new();
    let mut laid = 0;
    for seed in 0..seeds {
        let what = format!("{} graph {graph} seed {seed}", family.label());
        let generated =
            match generate_with(flow, &project.library, &table, seed, &Default::default()) {
                Ok(g) => g,
                Err(d) => {
                    *failures.entry(d.code.to_owned()).or_insert(0) += 1;
                    continue;
                }
            };
        laid += 1;
        let level = &generated.level;
        level.check().unwrap_or_else(|e| panic!("{what}: {e}"));
        let graph = generated.graph.as_ref().expect("a flow level has a graph");
        assert_eq!(level.rooms.len(), graph.graph.node_count(), "{what}");
        assert_eq!(level.connections.len(), graph.graph.edge_count(), "{what}");
        assert!(
            level
                .connections
                .iter()
                .all(|c| c.kind != ConnectionKind::Warp),
            "{what}: a passage became a warp"
        );
        assert!(level.unreachable_rooms().is_empty(), "{what}");
        if seed == 0 {
            let again = generate_with(flow, &project.library, &table, seed, &Default::default())
                .expect("the same seed lays out again");
            assert_eq!(&again.level, level, "{what}: not repeatable");
        }
    }
    (laid, failures)
}

#[test]
fn random_trees_lay_out_on_every_seed() {
    // Graphs of each size the layout was not tuned on (one in the default
    // run, five in the full run).
    let graphs = if suite::full() { 5 } else { 1 };
    for rooms in [45, 100, 300] {
        for graph in 0..graphs {
            let (laid, failures) = lay_out(Family::Tree { rooms }, 9_000 + graph, 4);
            eprintln!("tree({rooms}) graph {graph}: {failures:?}");
            assert_eq!(laid, 4, "tree({rooms}) graph {graph}: {failures:?}");
        }
    }
}

#[test]
fn trees_with_room_to_spare_join_most_rooms_door_to_door() {
    // Rooms attached to any earlier room crowd the entrance: such trees lay
    // out on a plan, whose rings have room to spare, so a room takes a door
    // that lands near its target rather than a corridor to it (with the
    // plan's usual reach, about 0.6 of the links were doors).
    let family = Family::UniformTree { rooms: 100 };
    let shares: Vec<f64> = (9_100..9_103)
        .flat_map(|graph| direct_doors(family, graph, 2))
        .collect();
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    assert!(mean >= 0.7, "direct doors {mean:.2} ({shares:.2?})");
}

/// The share of links made door to door in each of `seeds` seeds of graph
/// `graph` of `family`, every one of which must lay out.
fn direct_doors(family: Family, graph: u64, seeds: u64) -> Vec<f64> {
    let project = project_with(&family.flow(graph));
    let flow = project
        .flow(&format!("family_{graph}"))
        .expect("the family's flow");
    let table = ShapeTable::new(&project.library);
    (0..seeds)
        .map(|seed| {
            let generated =
                generate_with(flow, &project.library, &table, seed, &Default::default())
                    .unwrap_or_else(|d| panic!("graph {graph} seed {seed}: {}", d.message));
            Measures::of(&generated).direct_doors
        })
        .collect()
}

#[test]
fn bushy_trees_lay_out() {
    // Rooms with up to three children each, attached anywhere: the rings
    // of the plan fill up fast. A room of a ring used to land against the
    // exits its neighbours' children needed, and a child whose target lay
    // beyond a corridor's reach fell back on a door of its parent, in its
    // neighbours' sectors: on fresh 300-room graphs about a third of the
    // seeds laid out.
    let (rooms, graphs, seeds, least) = if suite::full() {
        (300, 3, 2, 5)
    } else {
        (100, 1, 4, 4)
    };
    let mut laid = 0;
    for graph in 0..graphs {
        let family = Family::BushyTree { rooms };
        let (n, failures) = lay_out(family, 9_200 + graph, seeds);
        eprintln!(
            "{} graph {graph}: {n} of {seeds}, {failures:?}",
            family.label()
        );
        laid += n;
    }
    assert!(
        laid >= least,
        "bushy-tree({rooms}): {laid} of {} laid out",
        graphs * seeds
    );
}

#[test]
fn a_tree_of_two_thousand_rooms_lays_out() {
    // A first attempt composite by composite once spent the whole level's
    // work on such a tree (graph 12,000 laid out on 6 of 10 seeds, seed 0
    // among the failures), leaving nothing to the planned attempts.
    if !suite::full() {
        eprintln!("note: the 2,000-room tree runs when CI is set");
        return;
    }
    let (laid, failures) = lay_out(Family::Tree { rooms: 2000 }, 12_000, 3);
    assert_eq!(laid, 3, "tree(2000): {failures:?}");
}

#[test]
fn binary_trees_lay_out_on_every_seed() {
    // A complete binary tree doubles its rooms at every depth: laid out
    // room by room against the nearest free exit it walls in its inner
    // rooms; the planned layout gives each subtree its own sector, and a
    // room its parent walled in gets its parent placed again.
    let depths: &[u32] = if suite::full() { &[7, 8, 9] } else { &[7] };
    for &depth in depths {
        let family = Family::BinaryTree { depth };
        let (laid, failures) = lay_out(family, 1, 4);
        assert_eq!(laid, 4, "{}: {failures:?}", family.label());
    }
}

#[test]
fn a_binary_tree_joins_most_of_its_rooms_door_to_door() {
    // Its rooms aim as far as a corridor reaches and its small subtrees
    // take their parent's doors first: a complete binary tree of 127 rooms
    // went from 0.29 to 0.74 direct doors when they came in.
    let shares = direct_doors(Family::BinaryTree { depth: 7 }, 2, 3);
    let mean = shares.iter().sum::<f64>() / shares.len() as f64;
    assert!(mean >= 0.55, "direct doors {mean:.2} ({shares:.2?})");
}

#[test]
fn trees_of_a_thousand_rooms_attached_anywhere_lay_out() {
    // A random tree whose rooms attach to any room before them has some
    // 150 rooms at each of its middle depths. Aiming at their rings, its
    // rooms fell inward and walled each other in: no level laid out.
    if !suite::full() {
        eprintln!("note: the 1,000-room trees attached anywhere run when CI is set");
        return;
    }
    // Four fresh graphs, one seed each: all four lay out (one did while
    // twigs aimed at their parent instead of beyond their ring).
    let family = Family::UniformTree { rooms: 1000 };
    let mut laid = 0;
    for graph in 9_300..9_304 {
        let (n, failures) = lay_out(family, graph, 1);
        eprintln!("{} graph {graph}: {n} of 1, {failures:?}", family.label());
        laid += n;
    }
    assert!(laid >= 1, "{}: {laid} of 4 laid out", family.label());
}

#[test]
fn a_bushy_tree_lays_out_with_longer_corridors_too() {
    // Longer corridors loosen a flow: a binary tree of 511 rooms that lays
    // out with corridors of `4..30` must lay out with `4..90`. Its plan's
    // rings once spread a corridor of the flow's longest apart, which left
    // the middle rings crowded and failed on every seed.
    if !suite::full() {
        eprintln!("note: the 511-room tree with long corridors runs when CI is set");
        return;
    }
    let family = Family::BinaryTree { depth: 9 };
    let flow = family.flow(1).replace(
        "layout: { reuse_templates: true }",
        "layout: { reuse_templates: true, corridor: 4..90 }",
    );
    assert!(flow.contains("4..90"), "the flow sets its corridors");
    let (laid, failures) = lay_out_flow(family, 1, &flow, 2);
    assert_eq!(laid, 2, "{}: {failures:?}", family.label());
}

#[test]
fn levels_of_every_family_keep_the_invariants() {
    use Family::*;
    let families = [
        TreeLoops {
            rooms: 20,
            loops: 3,
        },
        TreeLoops {
            rooms: 45,
            loops: 5,
        },
        TreeLoops {
            rooms: 100,
            loops: 10,
        },
        Theta {
            paths: 3,
            length: 4,
        },
        LoopGrid {
            width: 3,
            height: 2,
        },
    ];
    // A failure costs its 50 layout attempts: few seeds by default.
    let seeds = if suite::full() { 10 } else { 2 };
    for family in families {
        let (laid, failures) = lay_out(family, 9_100, seeds);
        // Whatever fails says so with a layout diagnostic, never a panic or
        // another error.
        assert!(
            failures.keys().all(|c| c.starts_with("layout::")),
            "{}: {failures:?}",
            family.label()
        );
        eprintln!("{}: {laid} of {seeds} laid out", family.label());
    }
}

#[test]
fn cacti_and_rings_with_chords_lay_out_on_every_seed() {
    use Family::*;
    let mut families = vec![
        Cactus { cycles: 6 },
        RingChords {
            rooms: 16,
            chords: 3,
        },
    ];
    let (graphs, seeds) = if suite::full() {
        families.extend([
            Cactus { cycles: 12 },
            RingChords {
                rooms: 24,
                chords: 5,
            },
        ]);
        (4, 5)
    } else {
        (1, 4)
    };
    for family in families {
        for graph in 9_300..9_300 + graphs {
            let (laid, failures) = lay_out(family, graph, seeds);
            assert_eq!(
                laid,
                seeds,
                "{} graph {graph}: {failures:?}",
                family.label()
            );
        }
    }
}

#[test]
fn loops_the_composites_cannot_draw_lay_out_on_a_drawing_of_the_graph() {
    // Graph 14,004 of 60 rooms and 5 loops: its loops share rooms and
    // enclose branches. Laid out composite by composite it succeeded on 2
    // of 10 seeds; the attempts on a drawing of the whole graph make it 10
    // of 10. Every level keeps the invariants (checked by `lay_out`).
    let seeds = if suite::full() { 10 } else { 4 };
    let family = Family::TreeLoops {
        rooms: 60,
        loops: 5,
    };
    let (laid, failures) = lay_out(family, 14_004, seeds);
    assert!(
        laid + laid / 5 >= seeds,
        "{} graph 14004: {laid} of {seeds} laid out, {failures:?}",
        family.label()
    );
}

#[test]
fn a_branch_that_must_lie_inside_a_loop_lays_out_on_a_drawing_without_crossings() {
    // Graph 16,004 of 20 rooms and 3 loops: whichever way it is drawn, a
    // branch of three rooms lies inside a loop. The stress drawing put it
    // outside, across the loop, and 0 of 10 seeds laid out; drawn from
    // Tutte's drawing of its block (the loop round the branch stretched),
    // seeds 0 to 3, 8 and 9 do.
    let seeds = if suite::full() { 10 } else { 3 };
    let wanted = if suite::full() { 6 } else { 3 };
    let family = Family::TreeLoops {
        rooms: 20,
        loops: 3,
    };
    let (laid, failures) = lay_out(family, 16_004, seeds);
    assert!(
        laid >= wanted,
        "{} graph 16004: {laid} of {seeds} laid out, {failures:?}",
        family.label()
    );
}

/// Five halls each joined to the four others, one of them (`e`) there on
/// half the seeds: `validate` cannot refuse it (some levels lack `e`), so
/// `generate` must, on the seeds that keep it.
const MAYBE_K5: &str = "name: maybe_k5
nodes:
  start: entrance
  a: hub
  b: hub
  c: hub
  d: hub
  e: { category: hub, chance: 0.5 }
  boss: boss
edges:
  - start -> a -> b -> c -> d -> boss
  - d -> e
loops:
  - a <-> c
  - a <-> d
  - a <-> e
  - b <-> d
  - b <-> e
  - c <-> e
";

#[test]
fn a_graph_that_cannot_be_drawn_is_refused_before_any_layout() {
    let project = project_with(MAYBE_K5); // validate accepts it
    let flow = project.flow("maybe_k5").expect("flow");
    let table = ShapeTable::new(&project.library);
    let mut refused = Vec::new();
    for seed in 0..12 {
        let expanded = dungeonflow::internals::expand::expand(
            flow,
            &project.library,
            seed,
            &Default::default(),
        )
        .expect("expands");
        if expanded.find("e").is_none() {
            continue; // K4 and its paths: drawable
        }
        let d = generate_with(flow, &project.library, &table, seed, &Default::default())
            .expect_err("a K5 has no level");
        assert_eq!(d.code, "layout::non-planar", "seed {seed}: {}", d.message);
        refused.push(d);
    }
    assert!(refused.len() >= 3, "{} of 12 seeds keep `e`", refused.len());
    insta::assert_snapshot!(refused[0].render(false));
}

#[test]
fn validate_refuses_a_k5_every_level_keeps() {
    let always = MAYBE_K5.replace("e: { category: hub, chance: 0.5 }", "e: hub");
    let project = Project::from_layers(vec![
        dungeonflow::internals::project::bundled_sources()
            .into_iter()
            .filter(|s| s.kind == dungeonflow::internals::project::FileKind::Room)
            .collect(),
        vec![dungeonflow::internals::project::Source {
            file: dungeonflow::SourceFile::new("k5.yaml", always),
            kind: dungeonflow::internals::project::FileKind::Flow,
            bundled: false,
        }],
    ]);
    let codes: Vec<&str> = project
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code)
        .collect();
    assert_eq!(codes, ["flow::non-planar"]);
}
