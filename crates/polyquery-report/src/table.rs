//! The report's table type (`rows[i].len() = header.len()`): built once by the sections and
//! printed as HTML and Markdown by the writers.
//!
//! Where it sits: a leaf, shared by the writers and the robot section.

/// A table with a title, printed as HTML and Markdown: `rows[i].len() = header.len()`.
#[derive(Clone, Debug)]
pub struct Table {
    /// `title` = the heading above the table.
    pub title: String,
    /// `caption` = one sentence saying how to read it.
    pub caption: String,
    /// `header` = the column headings.
    pub header: Vec<String>,
    /// `rows[i][j]` = the cell in row `i`, column `j` (`rows[i].len() = header.len()`).
    pub rows: Vec<Vec<String>>,
    /// `folded = true` ⟹ shown folded (`<details>`) in the HTML.
    pub folded: bool,
}

impl Table {
    /// An unfolded table: `Table::new(title, caption, header, rows).folded = false`.
    pub fn new(
        title: impl Into<String>,
        caption: impl Into<String>,
        header: Vec<String>,
        rows: Vec<Vec<String>>,
    ) -> Table {
        Table {
            title: title.into(),
            caption: caption.into(),
            header,
            rows,
            folded: false,
        }
    }

    /// The same table shown folded: `t.folded().folded = true`.
    pub fn folded(self) -> Table {
        Table {
            folded: true,
            ..self
        }
    }
}

/// Column headings from string literals: `header(&["a", "b"]) = vec!["a", "b"]`.
pub fn header(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}
