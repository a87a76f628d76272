//! Bad input never panics the loaders: arbitrary bytes, and valid files
//! mutated line by line and byte by byte, through decoding and validation.

use dungeonflow::SourceFile;
use dungeonflow::flow::{load_flow_file, validate_flow};
use dungeonflow::project::{Project, bundled_sources};
use dungeonflow::rooms::load_room_file;
use proptest::prelude::*;

#[path = "support/suite.rs"]
mod suite;

fn load_everything(text: &str, library: &dungeonflow::rooms::RoomLibrary) {
    let file = SourceFile::new("fuzz.yaml", text);
    let (flow, _) = load_flow_file(&file);
    if let Some(flow) = flow {
        let _ = validate_flow(&flow, library);
    }
    let _ = load_room_file(&file);
}

fn corpus() -> Vec<String> {
    bundled_sources()
        .into_iter()
        .map(|s| s.file.text.clone())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if suite::full() { 512 } else { 64 }, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        let project = Project::bundled();
        load_everything(&text, &project.library);
    }

    #[test]
    fn yamlish_text_never_panics(text in "([a-z_]{1,8}: ?(\\[|\\{|-|~|&a|\\*a|[0-9.]{1,4}|[a-z >|-]{0,12})\n {0,4}){0,30}") {
        let project = Project::bundled();
        load_everything(&text, &project.library);
    }

    #[test]
    fn mutated_valid_files_never_panic(file in 0usize..1000, cut in 0usize..10_000, len in 0usize..64, junk in "[\\[\\]{}:#~A-Z.+ \n-]{0,8}") {
        let files = corpus();
        let text = &files[file % files.len()];
        let mut bytes = text.as_bytes().to_vec();
        let at = cut % (bytes.len() + 1);
        let end = (at + len).min(bytes.len());
        bytes.splice(at..end, junk.bytes());
        if let Ok(mutated) = String::from_utf8(bytes) {
            let project = Project::bundled();
            load_everything(&mutated, &project.library);
        }
    }
}

#[test]
fn alias_bomb_fails_fast_with_a_limit_diagnostic() {
    let mut text = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (i, name) in ["b", "c", "d", "e", "f", "g", "h", "i"].iter().enumerate() {
        let prev = ["a", "b", "c", "d", "e", "f", "g", "h"][i];
        text += &format!(
            "{name}: &{name} [{}]\n",
            vec![format!("*{prev}"); 10].join(", ")
        );
    }
    let (flow, diags) = load_flow_file(&SourceFile::new("bomb.yaml", text));
    assert!(flow.is_none());
    assert_eq!(diags[0].code, "yaml::limit");
}
