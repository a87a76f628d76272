//! YAML with spans: parsing into a [`Node`] tree (serde-saphyr, with limits
//! against hostile input) and schema-directed decoding that reports every
//! problem of a file, not only the first.

mod decode;
mod node;

pub use decode::{Decoder, Fields, Sp};
pub use node::{MAX_FILE_BYTES, Node, Value, parse};
