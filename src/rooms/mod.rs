//! Room templates: tile art with exits, loaded from YAML, and the library
//! that holds them.

mod art;
mod library;
mod load;
mod model;

pub use library::RoomLibrary;
pub use load::load_room_file;
pub use model::{Exit, ExitKind, RoomTemplate, Tile};
