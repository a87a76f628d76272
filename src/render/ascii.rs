//! ASCII: the tile grid, keys, optional room labels, and a legend.

use crate::level::{Level, TileKind};

/// The level as text: a header, the grid (keys as `k`), and a legend.
/// With `labels`, each room's id is written on its floor.
pub fn render_ascii(level: &Level, labels: bool) -> String {
    let mut grid: Vec<Vec<char>> = level
        .rows()
        .into_iter()
        .map(|r| r.chars().collect())
        .collect();
    for item in &level.items {
        grid[item.y as usize][item.x as usize] = 'k';
    }
    if labels {
        for room in &level.rooms {
            write_label(level, &mut grid, room);
        }
    }
    let mut out = format!(
        "{} `{}` seed {} ({}x{} tiles, {} rooms)\n",
        level.generator,
        level.flow,
        level.seed,
        level.width,
        level.height,
        level.rooms.len()
    );
    for row in grid {
        let line: String = row.into_iter().collect();
        out += line.trim_end();
        out.push('\n');
    }
    let legend: Vec<String> = TileKind::ALL
        .iter()
        .filter(|k| **k != TileKind::Void)
        .map(|k| format!("{} {}", k.glyph(), k.name().replace('_', " ")))
        .chain(std::iter::once("k key".to_owned()))
        .collect();
    out += &format!("legend: {}\n", legend.join("  "));
    out
}

/// Writes as much of the room's id as fits on its widest floor row.
fn write_label(level: &Level, grid: &mut [Vec<char>], room: &crate::level::Room) {
    let centre_y = room.y + room.height / 2;
    let mut rows: Vec<i32> = (room.y..room.y + room.height).collect();
    rows.sort_by_key(|y| (y - centre_y).abs());
    for y in rows {
        let xs: Vec<i32> = (room.x + 1..room.x + room.width - 1)
            .filter(|&x| level.tile(x, y) == TileKind::Floor && grid[y as usize][x as usize] == '.')
            .collect();
        let Some(&start) = xs.first() else { continue };
        let run = xs
            .iter()
            .enumerate()
            .take_while(|(i, x)| **x == start + *i as i32)
            .count();
        if run < 3 {
            continue;
        }
        let text: Vec<char> = room.id.chars().take(run - 2).collect();
        let left = start + ((run - text.len()) / 2) as i32;
        for (i, c) in text.into_iter().enumerate() {
            grid[y as usize][(left + i as i32) as usize] = c;
        }
        return;
    }
}
