//! Rotated and mirrored templates (`transforms:`): made at load time, laid
//! out like any template, recorded in the level, and counted as one
//! template when a level uses each template once.

use std::collections::BTreeSet;

use dungeonflow::Project;
use dungeonflow::internals::project::Source;

#[path = "support/suite.rs"]
mod suite;

const ROOMS: &str = "\
rooms:
  - name: gate
    category: entrance
    art: |
      ###A###
      #.....#
      B.....C
      #.....#
      ###D###
  - name: bend
    category: normal
    transforms: all
    legend:
      e: { marker: enemy }
    art: |
      ##A##~~
      #e..#~~
      #...###
      #.o...B
      #######
  - name: lair
    category: boss
    art: |
      ###A###
      #.....#
      D.....B
      #.....#
      ###C###
";

fn project(flow: &str) -> Project {
    Project::from_layers(vec![vec![
        Source::room("rooms.yaml", ROOMS),
        Source::flow("flow.yaml", flow),
    ]])
}

const CHAIN: &str = "\
name: bends
layout: { reuse_templates: true }
nodes:
  start: entrance
  line: { chain: 4, category: normal }
  boss: boss
edges:
  - start -> line -> boss
";

#[test]
fn variants_lay_out_and_the_level_names_template_and_transform() {
    let project = project(CHAIN);
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    let names: Vec<&str> = project
        .library
        .names()
        .filter(|n| n.starts_with("bend"))
        .collect();
    assert_eq!(
        names,
        [
            "bend",
            "bend@mirror_x",
            "bend@mirror_y",
            "bend@rotate180",
            "bend@rotate270",
            "bend@rotate90"
        ]
    );
    let mut transforms = BTreeSet::new();
    for seed in 0..suite::seeds(200) {
        let level = project.generate("bends", seed).expect("lays out");
        level.check().expect("a valid level");
        for room in level.rooms.iter().filter(|r| r.category == "normal") {
            assert_eq!(room.template, "bend", "the template as drawn");
            transforms.insert(room.transform.clone());
            // The room's size and its marker follow the transform.
            let name = match &room.transform {
                Some(t) => format!("bend@{t}"),
                None => "bend".to_owned(),
            };
            let variant = project.library.get(&name).expect("variant");
            assert_eq!((room.width, room.height), (variant.width, variant.height));
            let enemy = level
                .markers
                .iter()
                .find(|m| m.room == room.id)
                .expect("its enemy");
            assert_eq!(
                (enemy.x - room.x, enemy.y - room.y),
                (variant.markers[0].at.x, variant.markers[0].at.y)
            );
        }
        assert!(
            level
                .rooms
                .iter()
                .all(|r| r.category == "normal" || r.transform.is_none())
        );
    }
    assert_eq!(
        transforms.len(),
        6,
        "every version is drawn: {transforms:?}"
    );
}

#[test]
fn a_turned_template_is_still_the_same_template_for_using_each_once() {
    let once = CHAIN.replace("reuse_templates: true", "reuse_templates: false");
    let project = project(&once);
    let err = project
        .generate("bends", 1)
        .expect_err("one normal template for four rooms");
    assert!(
        err.diagnostics()
            .iter()
            .any(|d| d.code == "expand::category-dry"),
        "{err:?}"
    );
    let one = once.replace("chain: 4", "chain: 1");
    let level = project_level(&one);
    assert_eq!(
        level.rooms.iter().filter(|r| r.template == "bend").count(),
        1
    );
}

fn project_level(flow: &str) -> dungeonflow::level::Level {
    project(flow).generate("bends", 2).expect("lays out")
}
