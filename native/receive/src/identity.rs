//! The receiver's `config_id`: a UUID made once and kept in a file, so the router knows the
//! receiver again after a restart, a new address or a new host name (the product's
//! "unique persistent id"). One id per port: two receivers on one machine are two sinks.
//!
//! The file is `$XDG_STATE_HOME/tributary/receiver-id` (`~/.local/state/...` without
//! `XDG_STATE_HOME`), `receiver-id-PORT` for a port other than 4010. A file that holds no UUID is
//! replaced (and said so); a file that cannot be written leaves an id for this run only (said
//! so too): neither stops the receiver.

use crate::options::DEFAULT_PORT;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Where the id of a receiver on `port` is kept (None: neither XDG_STATE_HOME nor HOME is set).
pub fn id_file(port: u16) -> Option<PathBuf> {
    let non_empty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    let state = non_empty("XDG_STATE_HOME")
        .map(PathBuf::from)
        .or_else(|| non_empty("HOME").map(|h| PathBuf::from(h).join(".local/state")))?;
    let name = if port == DEFAULT_PORT {
        "receiver-id".to_owned()
    } else {
        format!("receiver-id-{port}")
    };
    Some(state.join("tributary").join(name))
}

/// Whether `s` is a UUID in its text form (8-4-4-4-12 hex digits), as the router checks it.
pub fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// A random (version 4) UUID from the kernel's generator.
pub fn new_uuid() -> io::Result<String> {
    let mut b = [0u8; 16];
    fs::File::open("/dev/urandom")?.read_exact(&mut b)?;
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    Ok(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

/// The id kept in `file`, or a new one written there; `notes` are what the user should hear
/// (a corrupt file replaced, a file that could not be written).
pub fn load_or_create(file: Option<&Path>) -> io::Result<(String, Vec<String>)> {
    let mut notes = Vec::new();
    let Some(file) = file else {
        notes.push(
            "neither XDG_STATE_HOME nor HOME is set: the config_id is for this run only".into(),
        );
        return Ok((new_uuid()?, notes));
    };
    match fs::read(file).map(|b| String::from_utf8_lossy(&b).into_owned()) {
        Ok(text) if is_uuid(text.trim()) => return Ok((text.trim().to_ascii_lowercase(), notes)),
        Ok(text) => notes.push(format!(
            "{} held no config_id ({} bytes, not a UUID): replaced with a new one",
            file.display(),
            text.len()
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => notes.push(format!(
            "cannot read {}: {e}: replaced with a new one",
            file.display()
        )),
    }
    let id = new_uuid()?;
    if let Err(e) = write_atomically(file, &id) {
        notes.push(format!(
            "cannot keep the config_id in {}: {e}: it is for this run only",
            file.display()
        ));
    }
    Ok((id, notes))
}

/// Writes `id` beside `file` and renames it over `file` (never a half-written id).
fn write_atomically(file: &Path, id: &str) -> io::Result<()> {
    if let Some(dir) = file.parent() {
        fs::create_dir_all(dir)?;
    }
    let tmp = file.with_extension(format!("tmp{}", std::process::id()));
    let written = fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(format!("{id}\n").as_bytes())?;
        f.sync_all()
    });
    if let Err(e) = written.and_then(|()| fs::rename(&tmp, file)) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tributary-id-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn an_id_is_made_once_and_kept() {
        let d = dir("kept");
        let file = d.join("tributary/receiver-id");
        let (first, notes) = load_or_create(Some(&file)).unwrap();
        assert!(is_uuid(&first) && notes.is_empty(), "{first} {notes:?}");
        assert_eq!(first.as_bytes()[14], b'4', "version 4: {first}");
        let (again, notes) = load_or_create(Some(&file)).unwrap();
        assert_eq!((again.as_str(), notes.len()), (first.as_str(), 0));
        assert_eq!(fs::read_to_string(&file).unwrap(), format!("{first}\n"));
        assert_ne!(new_uuid().unwrap(), new_uuid().unwrap());
        fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_corrupt_file_is_replaced_and_said_so_and_an_unwritable_one_is_not_fatal() {
        let d = dir("corrupt");
        let file = d.join("receiver-id");
        fs::create_dir_all(&d).unwrap();
        fs::write(&file, b"\x00\xffnot-a-uuid").unwrap();
        let (id, notes) = load_or_create(Some(&file)).unwrap();
        assert!(is_uuid(&id));
        assert_eq!(notes.len(), 1);
        assert!(notes[0].contains("held no config_id"), "{notes:?}");
        assert_eq!(fs::read_to_string(&file).unwrap().trim(), id);
        // A directory where the file should be: it can be neither read nor replaced.
        let blocked = d.join("blocked");
        fs::create_dir_all(blocked.join("x")).unwrap();
        let (id, notes) = load_or_create(Some(&blocked)).unwrap();
        assert!(is_uuid(&id));
        assert!(
            notes.last().unwrap().contains("for this run only"),
            "{notes:?}"
        );
        fs::remove_dir_all(d).unwrap();
        assert!(
            !is_uuid("3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5") && !is_uuid("g".repeat(36).as_str())
        );
    }
}
