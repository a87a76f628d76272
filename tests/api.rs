//! The public API a game uses, through the crate root only: loading from
//! strings, `check`, `generate` and `generate_with`, and the two kinds of
//! `Error`.

use dungeonflow::{Error, Options, Project, Source};

/// Two rooms whose only exits face up: neither can sit below the other,
/// and corridors of 2 to 3 tiles cannot turn round, so `stuck` validates
/// but never lays out.
const UP_ROOMS: &str = "rooms:\n  - name: up_entrance\n    category: entrance\n    art: |\n      ##A##\n      #...#\n      #####\n  - name: up_room\n    category: normal\n    art: |\n      ##A##\n      #...#\n      #####\n";
const STUCK: &str = "name: stuck\nlayout: { corridor: 2..3 }\nnodes:\n  start: entrance\n  next: normal\nedges:\n  - start -> next\n";

fn stuck_project() -> Project {
    Project::from_layers(vec![vec![
        Source::room("game/rooms.yaml", UP_ROOMS),
        Source::flow("game/stuck.yaml", STUCK),
    ]])
}

#[test]
fn a_seed_that_gives_no_level_is_a_generation_error_naming_flow_and_seed() {
    let project = stuck_project();
    project.check().expect("the files are valid");
    assert_eq!(project.flow_names().collect::<Vec<_>>(), ["stuck"]);
    assert_eq!(
        project.template_names().collect::<Vec<_>>(),
        ["up_entrance", "up_room"]
    );
    let error = project.generate("stuck", 4).expect_err("cannot lay out");
    let Error::Generation {
        flow,
        seed,
        diagnostic,
    } = &error
    else {
        panic!("not a generation error: {error:?}");
    };
    assert_eq!((flow.as_str(), *seed), ("stuck", 4));
    assert_eq!(diagnostic.code, "layout::failed");
    assert_eq!(error.diagnostics().len(), 1);
    assert!(
        error
            .to_string()
            .starts_with("flow `stuck` gave no level with seed 4: "),
        "{error}"
    );
    // The rendering is the command-line tool's: code, message, excerpt.
    let shown = error.render(false);
    assert!(
        shown.contains("layout::failed") && shown.contains("game/stuck.yaml:"),
        "{shown}"
    );
}

#[test]
fn max_attempts_caps_the_layout_attempts() {
    let project = stuck_project();
    let attempts_in = |options: &Options| match project.generate_with("stuck", 1, options) {
        Err(Error::Generation { diagnostic, .. }) => diagnostic.message.clone(),
        other => panic!("expected a generation error, got {other:?}"),
    };
    let default = attempts_in(&Options::default());
    assert!(default.contains("in 50 attempts"), "{default}");
    let capped = attempts_in(&Options::default().max_attempts(3));
    assert!(capped.contains("in 3 attempts"), "{capped}");
    // A cap above the flow's own attempts changes nothing.
    let loose = attempts_in(&Options::default().max_attempts(500));
    assert_eq!(loose, default);
}

#[test]
fn flags_reach_the_injection_rules() {
    let rooms = "rooms:\n  - name: gate\n    category: entrance\n    art: |\n      ##A##\n      #...#\n      B...C\n      #...#\n      ##D##\n  - name: cell\n    category: normal\n    art: |\n      ##A##\n      #...#\n      B...C\n      #...#\n      ##D##\n  - name: stash\n    category: secret\n    art: |\n      ##A##\n      #...#\n      B...C\n      #...#\n      ##D##\n";
    let flow = "name: flagged\nlayout: { reuse_templates: true }\nnodes:\n  start: entrance\n  hall: normal\nedges:\n  - start -> hall\ninjections:\n  - { room: secret, where: [end_of_chain], requires: [found_map] }\n";
    let project = Project::from_layers(vec![vec![
        Source::room("game/rooms.yaml", rooms),
        Source::flow("game/flagged.yaml", flow),
    ]]);
    if let Err(error) = project.check() {
        panic!("{}", error.render(false));
    }
    let secrets = |options: &Options| {
        let level = project
            .generate_with("flagged", 1, options)
            .unwrap_or_else(|e| panic!("{}", e.render(false)));
        level
            .rooms
            .iter()
            .filter(|r| r.category == "secret")
            .count()
    };
    assert_eq!(secrets(&Options::default()), 0);
    assert_eq!(secrets(&Options::default().flag("found_map")), 1);
}

#[test]
fn a_mistake_in_the_files_is_an_invalid_error_with_its_place() {
    let project = Project::from_layers(vec![vec![
        Source::room("game/rooms.yaml", UP_ROOMS),
        Source::flow("game/stuck.yaml", STUCK),
        Source::flow(
            "game/broken.yaml",
            "name: broken\nnodes:\n  start: entrance\nedges:\n  - start -> nowhere\n",
        ),
    ]]);
    // `check` reports the broken file although `stuck` is fine...
    let Err(Error::Invalid(all)) = project.check() else {
        panic!("check must refuse the broken file");
    };
    assert!(all.iter().any(|d| d.code == "flow::undefined-node"));
    // ... which still generates.
    assert!(matches!(
        project.generate("stuck", 1),
        Err(Error::Generation { .. })
    ));
    let Err(Error::Invalid(own)) = project.generate("broken", 1) else {
        panic!("the broken flow cannot generate");
    };
    let place = own[0].location().expect("a place in the file");
    assert_eq!(place, ("game/broken.yaml".to_owned(), 5, 14));
    let Err(error @ Error::Invalid(_)) = project.generate("missing", 1) else {
        panic!("an unknown flow is invalid input");
    };
    assert_eq!(error.diagnostics()[0].code, "project::unknown-flow");
    assert!(
        error
            .to_string()
            .starts_with("invalid input: no flow named `missing`"),
        "{error}"
    );
}
