//! Writes a level as a Tiled map a game engine's importer reads: the TMX
//! map, its TSX tileset and the tileset image, side by side, each written
//! atomically (a game's build never sees half a file).
//!
//! `cargo run --example tiled_map -- [FLOW] [SEED] [FOLDER]` (default:
//! `keys_and_locks`, 1, `target/tiled_map`).

use std::path::PathBuf;

use dungeonflow::Project;
use dungeonflow::render::{render_tmx, write_atomic};

fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    let flow = args.next().unwrap_or_else(|| "keys_and_locks".to_owned());
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let folder = PathBuf::from(args.next().unwrap_or_else(|| "target/tiled_map".to_owned()));
    let level = match Project::bundled().generate(&flow, seed) {
        Ok(level) => level,
        Err(error) => {
            eprint!("{}", error.render(false));
            return std::process::ExitCode::FAILURE;
        }
    };
    let stem = format!("{flow}-{seed}");
    let export = render_tmx(
        &level,
        &format!("{stem}.tsx"),
        &format!("{stem}.tileset.png"),
    );
    let files = [
        (format!("{stem}.tmx"), export.map_xml.into_bytes()),
        (export.tileset_file, export.tileset_xml.into_bytes()),
        (export.image_file, export.image_png),
    ];
    if let Err(e) = std::fs::create_dir_all(&folder) {
        eprintln!("cannot create {}: {e}", folder.display());
        return std::process::ExitCode::FAILURE;
    }
    for (name, bytes) in &files {
        let path = folder.join(name);
        if let Err(d) = write_atomic(&path, bytes) {
            eprint!("{}", d.render(false));
            return std::process::ExitCode::FAILURE;
        }
        println!("wrote {} ({} bytes)", path.display(), bytes.len());
    }
    std::process::ExitCode::SUCCESS
}
