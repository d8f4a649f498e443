//! [`ExtId`]: the small, copyable name tables use for one loaded extension,
//! so the registry and the panel table hold no reference to the extension
//! itself and stay plain data.

use std::fmt;

/// One extension of one load (unique per host; a reload gives new ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct ExtId(pub u32);

impl fmt::Display for ExtId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}
