//! The `polyquery` command line: parses arguments and prints; the work is in the library.

fn main() {
    todo!("cli")
}
