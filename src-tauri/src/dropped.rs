//! What files dropped on the window mean: one folder opens as the project,
//! images attach to the prompt being written. The window's native drop
//! gives paths (a page drop gives no paths, so no folder), and this reads
//! them with the prompt's own image rules (`zot_ext_protocol::prompt_images`)
//! so a refusal uses the same words as a paste. No Tauri here: the command
//! in `desktop/drop.rs` only forwards.

use std::io::Read;
use std::path::Path;

use base64::Engine;
use serde::Serialize;
use zot_ext_protocol::prompt_images::{prompt_image_problem, PROMPT_IMAGE_MAX_BYTES};

/// An image read from a dropped file, ready to go with a prompt.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DroppedImage {
    /// The file name, for the chip.
    pub name: String,
    /// One of the prompt's image types.
    pub mime_type: String,
    /// Base64 of the file.
    pub data: String,
    /// The file's size.
    pub bytes: u64,
}

/// What a drop asks for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Dropped {
    /// Open this folder as the project (checked again by the switch).
    Folder {
        /// As dropped.
        path: String,
    },
    /// Attach these images; `refused` says why each other file was not.
    Images {
        /// Readable images of an accepted type and size.
        images: Vec<DroppedImage>,
        /// One sentence per file left out, naming it and the rule.
        refused: Vec<String>,
    },
}

/// Classifies a drop. A lone folder opens; files are read as images; a
/// folder among other things is refused whole, because opening a project
/// would drop the attachments and attaching would ignore the folder.
pub fn classify(paths: &[String]) -> Result<Dropped, String> {
    if paths.is_empty() {
        return Err("nothing was dropped".into());
    }
    let folders: Vec<&String> = paths.iter().filter(|p| Path::new(p).is_dir()).collect();
    match (folders.len(), paths.len()) {
        (1, 1) => {
            return Ok(Dropped::Folder {
                path: paths[0].clone(),
            })
        }
        (0, _) => {}
        _ => return Err(
            "drop one folder to open it as the project, or image files to attach them, not both"
                .into(),
        ),
    }
    let mut images = Vec::new();
    let mut refused = Vec::new();
    for p in paths {
        match read_image(Path::new(p)) {
            Ok(image) => images.push(image),
            Err(why) => refused.push(why),
        }
    }
    Ok(Dropped::Images { images, refused })
}

/// The MIME type the prompt's rules know a file by, from its extension.
fn mime_for(path: &Path) -> &'static str {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        _ => "",
    }
}

/// Reads one dropped file as an image, or says why it cannot go with a
/// prompt ("<name>: <the rule>", as the editor words a refused paste).
fn read_image(path: &Path) -> Result<DroppedImage, String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    let refuse = |why: String| format!("{name}: {why}");
    let mime = mime_for(path);
    let file = std::fs::File::open(path).map_err(|e| refuse(format!("cannot read it ({e})")))?;
    let len = file
        .metadata()
        .map_err(|e| refuse(format!("cannot read it ({e})")))?
        .len();
    if let Some(why) = prompt_image_problem(mime, len) {
        return Err(refuse(why));
    }
    let mut bytes = Vec::new();
    // The file may grow between the size check and the read.
    file.take(PROMPT_IMAGE_MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| refuse(format!("cannot read it ({e})")))?;
    let read = bytes.len() as u64;
    if let Some(why) = prompt_image_problem(mime, read) {
        return Err(refuse(why));
    }
    Ok(DroppedImage {
        name,
        mime_type: mime.into(),
        data: base64::engine::general_purpose::STANDARD.encode(&bytes),
        bytes: read,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(p: &Path) -> String {
        p.display().to_string()
    }

    #[test]
    fn a_lone_folder_opens() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            classify(&[s(dir.path())]).unwrap(),
            Dropped::Folder {
                path: s(dir.path())
            }
        );
    }

    #[test]
    fn images_are_read_and_other_files_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("shot.PNG");
        std::fs::write(&png, b"\x89PNG\r\n\x1a\nfake").unwrap();
        let txt = dir.path().join("notes.txt");
        std::fs::write(&txt, "hi").unwrap();
        let Dropped::Images { images, refused } = classify(&[s(&png), s(&txt)]).unwrap() else {
            panic!("expected images");
        };
        assert_eq!(images.len(), 1);
        assert_eq!(images[0].name, "shot.PNG");
        assert_eq!(images[0].mime_type, "image/png");
        assert_eq!(images[0].bytes, 12);
        assert_eq!(
            base64::engine::general_purpose::STANDARD
                .decode(&images[0].data)
                .unwrap(),
            b"\x89PNG\r\n\x1a\nfake"
        );
        assert_eq!(
            refused,
            vec![
                "notes.txt: images must be PNG, JPEG, GIF or WebP; this one is of an unknown type"
            ]
        );
    }

    #[test]
    fn an_image_over_the_limit_is_refused_with_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.jpg");
        let f = std::fs::File::create(&big).unwrap();
        f.set_len(PROMPT_IMAGE_MAX_BYTES + 1).unwrap();
        let Dropped::Images { images, refused } = classify(&[s(&big)]).unwrap() else {
            panic!("expected images");
        };
        assert!(images.is_empty());
        assert_eq!(
            refused,
            vec!["big.jpg: the image is 5.0 MiB, over the limit of 5 MiB"]
        );
    }

    #[test]
    fn a_missing_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone.png");
        let Dropped::Images { refused, .. } = classify(&[s(&gone)]).unwrap() else {
            panic!("expected images");
        };
        assert!(
            refused[0].starts_with("gone.png: cannot read it ("),
            "{refused:?}"
        );
    }

    #[test]
    fn a_folder_with_other_things_or_nothing_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("a.png");
        std::fs::write(&png, b"x").unwrap();
        let err = classify(&[s(dir.path()), s(&png)]).unwrap_err();
        assert!(err.contains("not both"), "{err}");
        let other = tempfile::tempdir().unwrap();
        assert!(classify(&[s(dir.path()), s(other.path())]).is_err());
        assert_eq!(classify(&[]).unwrap_err(), "nothing was dropped");
    }
}
