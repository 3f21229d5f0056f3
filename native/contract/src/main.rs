//! `cargo run -p tributary-contract` (`npm run contract`): writes every generated file of the
//! engine's seam, and says which changed.

use std::fs;

fn main() -> std::io::Result<()> {
    let root = tributary_contract::repo_root();
    for file in tributary_contract::files() {
        let path = root.join(file.path);
        let before = fs::read_to_string(&path).unwrap_or_default();
        if before == file.text {
            println!("unchanged {}", file.path);
            continue;
        }
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir)?;
        }
        fs::write(&path, &file.text)?;
        println!("wrote     {}", file.path);
    }
    Ok(())
}
