//! Images as the suites store them, and the `images_json` data URLs migration 8 moved into their own table
//! (both backends' migration tests start from these).

/// Nine bytes each: a PNG signature then `A` or `B`; four: a JPEG signature then `C`.
pub const PNG_A: &[u8] = b"\x89PNG\r\n\x1a\nA";
pub const PNG_B: &[u8] = b"\x89PNG\r\n\x1a\nB";
pub const JPEG_C: &[u8] = b"\xff\xd8\xffC";
/// `sha256sum` of the three.
pub const HASH_A: &str = "7133ad08284317968ef1cba3f0914e04eae6eeafc11156c01b55aef10ba07380";
pub const HASH_B: &str = "3996d7fa4185531cc1a6b6a3d2bd4f19cf0be4fbedb480767df5d62a346fadb0";
pub const HASH_C: &str = "0c074ca3896ab6732f82ec88fc1494885a77bf3d68ba6c95bb14c01a2c8b40b5";

/// A version-7 `images_json` value: `PNG_A` and `JPEG_C` as base64 data URLs.
pub const DATA_URL_IMAGES: &str =
    r#"["data:image/png;base64,iVBORw0KGgpB","data:image/jpeg;base64,/9j/Qw=="]"#;

/// An image row as migration 8 writes it: content type, size, hash, bytes.
pub type MovedImage = (String, i64, String, Vec<u8>);

/// What migration 8 makes of [`DATA_URL_IMAGES`], in position order.
pub fn images_moved_from_data_urls() -> Vec<MovedImage> {
    vec![
        ("image/png".to_owned(), 9, HASH_A.to_owned(), PNG_A.to_vec()),
        ("image/jpeg".to_owned(), 4, HASH_C.to_owned(), JPEG_C.to_vec()),
    ]
}
