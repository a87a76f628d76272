//! Every bundled flow pinned at fixed seeds through the public snapshot API,
//! exactly as the guide's "Snapshot-test your flows" section shows users.

use dungeonflow::Project;

#[test]
fn bundled_flows_at_fixed_seeds() {
    // The crate's own folders, loaded the way a user's crate loads its own.
    let project = Project::load(&["flows".into(), "rooms".into()]);
    assert!(!project.has_errors(), "{:?}", project.diagnostics);
    for name in project.flows.keys() {
        for seed in [1, 2] {
            let level = project.generate(name, seed).expect("lays out");
            level.check().expect("a valid level");
            insta::assert_snapshot!(format!("{name}_seed{seed}"), level.snapshot());
        }
    }
}
