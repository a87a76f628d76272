//! The minimap of an Isaac floor: one character per grid cell, special rooms
//! marked, as the game's map shows it.

use std::collections::BTreeMap;

use crate::diag::Diagnostic;
use crate::isaac::{CELL_HEIGHT, CELL_WIDTH};
use crate::level::Level;

/// The mark of a room on the minimap, by category (and shape for narrow
/// normal rooms), with its legend name.
fn mark(category: &str, width: i32, height: i32) -> (char, &'static str) {
    match category {
        "entrance" => ('S', "start"),
        "boss" => ('B', "boss"),
        "shop" => ('$', "shop"),
        "treasure" => ('T', "treasure"),
        "secret" => ('?', "secret"),
        "super_secret" => ('!', "super secret"),
        "sacrifice" => ('X', "sacrifice"),
        "library" => ('L', "library"),
        "curse" => ('C', "curse"),
        "challenge" => ('H', "challenge"),
        "arcade" => ('A', "arcade"),
        "miniboss" => ('M', "miniboss"),
        "dice" => ('D', "dice"),
        "bedroom" => ('Z', "bedroom"),
        "vault" => ('V', "vault"),
        _ if height < CELL_HEIGHT => ('-', "narrow room"),
        _ if width < CELL_WIDTH => ('|', "narrow room"),
        _ => ('#', "room"),
    }
}

/// The minimap of an Isaac level: a title, the grid (cells separated by a
/// space, `.` empty) and a legend of the marks used.
pub fn render_minimap(level: &Level) -> Result<String, Diagnostic> {
    if level.generator != "isaac" {
        return Err(Diagnostic::error(
            "render::minimap-isaac-only",
            format!(
                "a minimap draws the cell grid of an Isaac floor; this level comes from the `{}` generator",
                level.generator
            ),
        )
        .help("use --format ascii, png or svg for this level"));
    }
    let columns = (level.width / CELL_WIDTH).max(0) as usize;
    let rows = (level.height / CELL_HEIGHT).max(0) as usize;
    let mut grid = vec![vec!['.'; columns]; rows];
    let mut legend: BTreeMap<char, &str> = BTreeMap::new();
    for room in &level.rooms {
        let (glyph, name) = mark(&room.category, room.width, room.height);
        legend.insert(glyph, name);
        for &[x, y] in &room.cells {
            let (cx, cy) = ((x / CELL_WIDTH) as usize, (y / CELL_HEIGHT) as usize);
            if cy < rows && cx < columns {
                grid[cy][cx] = glyph;
            }
        }
    }
    let mut out = format!(
        "{} (seed {}): {} rooms on {columns}x{rows} cells\n",
        level.flow,
        level.seed,
        level.rooms.len()
    );
    for row in grid {
        let line: Vec<String> = row.iter().map(char::to_string).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    let legend: Vec<String> = legend.iter().map(|(g, n)| format!("{g} {n}")).collect();
    out.push_str(&legend.join(", "));
    out.push('\n');
    Ok(out)
}
