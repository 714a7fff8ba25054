//! Exact, slow oracles for tests (DESIGN §6).
