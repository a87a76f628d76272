//! Room templates: tile art with exits, loaded from YAML, and the library
//! that holds them.

mod art;
mod library;
mod load;
mod model;
mod transform;

pub use art::{LegendEntry, MAX_SIDE};
pub use library::RoomLibrary;
pub use load::load_room_file;
pub use model::{
    Exit, ExitCounts, ExitKind, RoomTemplate, TemplateMarker, Tile, Transform, Variant,
};
pub use transform::{transformed, with_variants};

// Accepted values of the decoder, which the JSON Schema is built from, and
// known fields, which its tests compare with the schema's objects.
pub(crate) use load::{DIRECTIONS, TILE_NAMES};
#[cfg(test)]
pub(crate) use load::{EXIT_FIELDS, LEGEND_ENTRY_FIELDS, ROOM_FIELDS, ROOM_LIST_FIELDS};
