// tests/levels.rs
use dungeonflow::Project;

#[test]
fn crypt_levels_are_stable() {
    // Relative paths: during `cargo test` the current folder is your crate's
    // root (the folder holding its Cargo.toml). `false`: your rooms and flows
    // only, none of the bundled demo rooms.
    let project = Project::load_with(&["flows".into(), "rooms".into()], false);
    if let Err(error) = project.check() {
        // Every error, with file, line, column and the YAML excerpt.
        panic!("{}", error.render(false));
    }
    for seed in [1, 2, 3] {
        let level = project
            .generate("crypt", seed)
            .unwrap_or_else(|error| panic!("{}", error.render(false)));
        level.check().expect("valid level"); // no overlap, every room reachable, ...
        insta::assert_snapshot!(format!("crypt_seed{seed}"), level.snapshot());
    }
    let level = project.generate("crypt", 1).expect("lays out");
    insta::assert_json_snapshot!("crypt_seed1_json", level);
}
