//! The bundled content is real and clean: enough templates and flows, every
//! file validates without a single diagnostic, and every flow expands to a
//! level of 15 to 30 rooms.

use dungeonflow::Project;
use dungeonflow::internals::expand::expand;

#[test]
fn bundled_content_validates_without_diagnostics() {
    let project = Project::bundled();
    let rendered: Vec<String> = project
        .diagnostics
        .iter()
        .map(|d| d.render(false))
        .collect();
    assert!(project.diagnostics.is_empty(), "{}", rendered.join("\n"));
}

#[test]
fn bundled_content_is_large_enough() {
    let project = Project::bundled();
    assert!(project.library.templates().len() >= 60);
    assert!(project.flows.len() >= 8);
    for &category in dungeonflow::internals::category::BUILTIN {
        assert!(
            project.library.candidates(category, &[]).count() >= 3,
            "few `{category}` templates"
        );
    }
    let hubs_with_four_exits = project
        .library
        .candidates("hub", &[])
        .filter(|t| t.usable_exits() >= 4)
        .count();
    assert!(hubs_with_four_exits >= 3);
    let shaped = project
        .library
        .templates()
        .iter()
        .filter(|t| t.tiles.contains(&dungeonflow::internals::rooms::Tile::Void))
        .count();
    assert!(shaped >= 10, "only {shaped} non-rectangular templates");
}

#[test]
fn bundled_flows_expand_to_15_to_30_rooms() {
    let project = Project::bundled();
    for (name, flow) in project.flows.iter().filter(|(_, f)| f.graph().is_some()) {
        for seed in 0..200 {
            let g = expand(flow, &project.library, seed, &Default::default())
                .unwrap_or_else(|d| panic!("{name} {seed}: {d}"));
            assert!(
                (15..=30).contains(&g.len()),
                "{name} seed {seed}: {} rooms",
                g.len()
            );
        }
    }
}
