//! Document synchronisation under many edits, and stale solve results.
