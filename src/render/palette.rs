//! Colours shared by the picture renderers (PNG and SVG), public so tests
//! and users can find things in a picture.

/// Outside the level.
pub const VOID: [u8; 3] = [0x1e, 0x1e, 0x24];
/// Walls.
pub const WALL: [u8; 3] = [0x45, 0x45, 0x50];
/// Corridor floor.
pub const CORRIDOR: [u8; 3] = [0xb8, 0x9f, 0x74];
/// Open doors.
pub const DOOR: [u8; 3] = [0x8b, 0x5a, 0x2b];
/// Locked doors.
pub const LOCKED_DOOR: [u8; 3] = [0xc6, 0x28, 0x28];
/// One-way doors.
pub const ONE_WAY_DOOR: [u8; 3] = [0xe0, 0x8a, 0x1e];
/// Pits.
pub const PIT: [u8; 3] = [0x10, 0x10, 0x18];
/// Pillars.
pub const PILLAR: [u8; 3] = [0x6b, 0x6b, 0x73];
/// Keys.
pub const KEY: [u8; 3] = [0xff, 0xd7, 0x00];
/// Marks drawn on doors and keys, and label text.
pub const INK: [u8; 3] = [0x10, 0x10, 0x10];
/// Arrow on one-way doors and label halo.
pub const PAPER: [u8; 3] = [0xff, 0xff, 0xff];

/// A colour as `#rrggbb`, for SVG.
pub fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}
