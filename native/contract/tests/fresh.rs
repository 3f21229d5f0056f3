//! The generated files of the engine's seam are what the engine's declarations generate now:
//! a report changed without `npm run contract` fails here (and so `npm test`).

use std::fs;

#[test]
fn every_generated_file_is_fresh() {
    let root = tributary_contract::repo_root();
    let mut stale = Vec::new();
    for file in tributary_contract::files() {
        let on_disk = fs::read_to_string(root.join(file.path)).unwrap_or_default();
        if on_disk != file.text {
            stale.push(file.path);
        }
    }
    assert!(
        stale.is_empty(),
        "stale generated files (run `npm run contract` and commit them): {stale:?}"
    );
}
