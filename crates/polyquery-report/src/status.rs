//! A measured cell's status (`Status::Ok.name() = "ok"`): the one place its names are written.
//!
//! Where it sits: a leaf, shared by the pair-query rows, the robot rows and every writer
//! (the CSV and JSON keep the names).

use crate::named::named_enum;

named_enum! {
    /// What happened to a measured cell: `status.name()` is its text in tables, CSV and JSON.
    ///
    /// ```
    /// use polyquery_report::status::Status;
    ///
    /// assert_eq!(Status::Disagrees.name(), "disagrees");
    /// assert_eq!(Status::NotApplicable.to_string(), "n/a");
    /// assert!(Status::Failed.is_unusable() && !Status::Disagrees.is_unusable());
    /// ```
    Status {
        /// Measured, and its answers agree with the others': `name() = "ok"`.
        Ok = "ok",
        /// Measured, but its answers differ beyond the tolerance: `name() = "disagrees"`.
        Disagrees = "disagrees",
        /// It failed on some input (its note says why): `name() = "failed"`.
        Failed = "failed",
        /// Not measured, on purpose (a predicted time over its budget): `name() = "skipped"`.
        Skipped = "skipped",
        /// Nothing to measure (no input of its kind was drawn): `name() = "n/a"`.
        NotApplicable = "n/a",
    }
}

impl Status {
    /// Whether the cell has no usable time: `is_unusable() = (self ∈ {Failed, Skipped})`.
    pub const fn is_unusable(self) -> bool {
        matches!(self, Status::Failed | Status::Skipped)
    }

    /// Whether the cell is a problem to report: `is_problem() = (self ∈ {Disagrees, Failed})`.
    pub const fn is_problem(self) -> bool {
        matches!(self, Status::Disagrees | Status::Failed)
    }
}
