//! Small flows drawn at random (a tree of rooms of any category, chains,
//! optional rooms, locks and keys, two-way and one-way loops) through the
//! whole pipeline: a flow `validate` accepts either lays out into a level
//! that keeps every invariant, the same on a second run, or ends in a
//! diagnostic; never a panic. Each layout is bounded by its work budget.

use dungeonflow::SourceFile;
use dungeonflow::internals::generate::generate_with;
use dungeonflow::internals::layout::ShapeTable;
use dungeonflow::internals::project::{FileKind, Project, Source, bundled_sources};
use proptest::prelude::*;

#[path = "support/suite.rs"]
mod suite;

const CATEGORIES: [&str; 7] = [
    "normal", "hub", "reward", "shop", "secret", "normal", "boss",
];

/// One room of a drawn flow: its parent (an earlier room), category,
/// whether it is a chain or optional, and a lock or a key of colour 0..3.
#[derive(Clone, Debug)]
struct Room {
    parent: usize,
    category: usize,
    chain: bool,
    optional: bool,
    lock: Option<usize>,
    key: Option<usize>,
}

fn room() -> impl Strategy<Value = Room> {
    (
        any::<usize>(),
        0..CATEGORIES.len(),
        proptest::bool::weighted(0.2),
        proptest::bool::weighted(0.15),
        proptest::option::weighted(0.2, 0usize..3),
        proptest::option::weighted(0.2, 0usize..3),
    )
        .prop_map(|(parent, category, chain, optional, lock, key)| Room {
            parent,
            category,
            chain,
            optional,
            lock,
            key,
        })
}

/// The flow file of `rooms` (room 0 the entrance) with `loops` between
/// rooms (`true`: one-way).
fn flow_text(rooms: &[Room], loops: &[(usize, usize, bool)]) -> String {
    let colours = ["red", "blue", "green"];
    let mut text = String::from("name: drawn\nnodes:\n  r0: entrance\n");
    for (i, r) in rooms.iter().enumerate() {
        let mut fields = vec![format!("category: {}", CATEGORIES[r.category])];
        if r.chain {
            fields.push("chain: 1..3".to_owned());
        }
        if r.optional {
            fields.push("chance: 0.5".to_owned());
        }
        if let Some(c) = r.lock {
            fields.push(format!("lock: {}", colours[c]));
        }
        if let Some(c) = r.key {
            fields.push(format!("keys: [{}]", colours[c]));
        }
        text += &format!("  r{}: {{ {} }}\n", i + 1, fields.join(", "));
    }
    text += "edges:\n";
    for (i, r) in rooms.iter().enumerate() {
        text += &format!("  - r{} -> r{}\n", r.parent % (i + 1), i + 1);
    }
    if !loops.is_empty() {
        text += "loops:\n";
        for &(a, b, one_way) in loops {
            let n = rooms.len() + 1;
            let (a, b) = (a % n, b % n);
            text += &format!("  - r{a} {} r{b}\n", if one_way { "->" } else { "<->" });
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if suite::full() { 128 } else { 12 }, ..ProptestConfig::default() })]

    #[test]
    fn a_drawn_flow_is_refused_or_lays_out_keeping_the_invariants(
        rooms in proptest::collection::vec(room(), 1..10),
        loops in proptest::collection::vec((any::<usize>(), any::<usize>(), any::<bool>()), 0..3),
        seed in 0u64..1000,
    ) {
        let text = flow_text(&rooms, &loops);
        let bundled: Vec<Source> = bundled_sources()
            .into_iter()
            .filter(|s| s.kind == FileKind::Room)
            .collect();
        let user = vec![Source {
            file: SourceFile::new("drawn.yaml", text.as_str()),
            kind: FileKind::Flow,
            bundled: false,
        }];
        let project = Project::from_layers(vec![bundled, user]);
        // A flow validate refuses is not generated (the CLI stops there).
        let Some(flow) = project.flow("drawn") else {
            return Ok(());
        };
        let table = ShapeTable::new(&project.library);
        let Ok(generated) = generate_with(flow, &project.library, &table, seed, &Default::default()) else {
            return Ok(());
        };
        let level = &generated.level;
        prop_assert!(level.check().is_ok(), "{text}\nseed {seed}: {:?}", level.check());
        let again = generate_with(flow, &project.library, &table, seed, &Default::default())
            .expect("the same seed lays out again");
        prop_assert_eq!(&again.level, level, "{}", text);
    }
}
