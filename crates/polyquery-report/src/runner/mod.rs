//! The pair-query part of the report (`rows = sources × sizes × queries × methods`): every
//! source's hull and maps, its pose pairs and directions, every query family answered, checked
//! and timed with every method.
//!
//! * [`inputs`]: the prepared hull, the pose pairs and directions, one answer.
//! * [`methods`]: the table of methods per family and how each answers.
//! * [`sources`]: the run over the sources, one measured cell per family × method.

pub mod inputs;
pub mod methods;
pub mod sources;

pub use methods::methods_of;
pub use sources::{RunPlan, run_sources};
