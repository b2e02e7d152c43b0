//! Product images: JPEG, PNG or WebP, received as uploaded files or as base64 data URLs.
//!
//! The type is decided by the file's magic bytes, never by what the client declared, so a text file named
//! `.png` or sent as `image/png` is refused.

use crate::digest::sha256_hex;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use thiserror::Error;

use crate::inventory::stored_image::ContentHash;

/// Largest accepted image, before base64.
pub const MAX_IMAGE_BYTES: usize = 2 * 1024 * 1024;
/// Images per product.
pub const MAX_IMAGES: usize = 3;

/// The accepted image formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ImageKind {
    Jpeg,
    Png,
    Webp,
}

impl ImageKind {
    fn detect(bytes: &[u8]) -> Option<ImageKind> {
        const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
        const JPEG: &[u8] = b"\xff\xd8\xff";
        if bytes.starts_with(PNG) {
            Some(ImageKind::Png)
        } else if bytes.starts_with(JPEG) {
            Some(ImageKind::Jpeg)
        } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
            Some(ImageKind::Webp)
        } else {
            None
        }
    }

    pub(super) fn mime(self) -> &'static str {
        match self {
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Png => "image/png",
            ImageKind::Webp => "image/webp",
        }
    }
}

/// Why an image was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ImageError {
    #[error("must be a JPEG, PNG or WebP image")]
    NotAnImage,
    #[error("must be at most {limit} bytes")]
    TooLarge { limit: usize },
    #[error(
        "must be a data URL of the form data:image/png;base64,... or the URL of one of this product's \
         images (/api/inventory/{{id}}/images/{{n}})"
    )]
    NotADataUrl,
    #[error("declares {declared} but its content is {actual}")]
    TypeMismatch { declared: String, actual: &'static str },
}

/// An image about to be stored: bytes that really are a JPEG, PNG or WebP of at most [`MAX_IMAGE_BYTES`],
/// with their content hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewImage {
    kind: ImageKind,
    bytes: Bytes,
    hash: ContentHash,
}

impl NewImage {
    /// From uploaded file bytes.
    pub fn from_bytes(bytes: Bytes) -> Result<Self, ImageError> {
        if bytes.len() > MAX_IMAGE_BYTES {
            return Err(ImageError::TooLarge {
                limit: MAX_IMAGE_BYTES,
            });
        }
        let kind = ImageKind::detect(&bytes).ok_or(ImageError::NotAnImage)?;
        let hash = ContentHash::of(&bytes);
        Ok(NewImage { kind, bytes, hash })
    }

    /// From a data URL sent in JSON.
    pub fn parse_data_url(text: &str) -> Result<Self, ImageError> {
        let rest = text.strip_prefix("data:").ok_or(ImageError::NotADataUrl)?;
        let (declared, payload) = rest.split_once(";base64,").ok_or(ImageError::NotADataUrl)?;
        // base64 is 4/3 of the bytes; refuse oversized payloads before decoding them.
        if payload.len() > MAX_IMAGE_BYTES.div_ceil(3) * 4 {
            return Err(ImageError::TooLarge {
                limit: MAX_IMAGE_BYTES,
            });
        }
        let bytes = STANDARD.decode(payload).map_err(|_| ImageError::NotADataUrl)?;
        let image = NewImage::from_bytes(Bytes::from(bytes))?;
        if declared != image.kind.mime() {
            return Err(ImageError::TypeMismatch {
                declared: declared.chars().take(40).collect(),
                actual: image.kind.mime(),
            });
        }
        Ok(image)
    }

    pub fn content_type(&self) -> &'static str {
        self.kind.mime()
    }

    pub fn bytes(&self) -> &Bytes {
        &self.bytes
    }

    pub fn hash(&self) -> &ContentHash {
        &self.hash
    }

    pub fn data_url(&self) -> ImageDataUrl {
        ImageDataUrl::encode(self.content_type(), &self.bytes)
    }
}

impl ContentHash {
    /// Lower-case hex SHA-256 of `bytes`.
    pub fn of(bytes: &[u8]) -> Self {
        ContentHash::from_stored(sha256_hex(bytes))
    }
}

/// `data:<content type>;base64,<payload>`: the spec's form of an image in JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageDataUrl(String);

impl ImageDataUrl {
    pub fn encode(content_type: &str, bytes: &[u8]) -> Self {
        let mut url = String::with_capacity(data_url_len(content_type, bytes.len()));
        url.push_str("data:");
        url.push_str(content_type);
        url.push_str(";base64,");
        STANDARD.encode_string(bytes, &mut url);
        ImageDataUrl(url)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Length of the data URL of `byte_size` bytes of `content_type`, without building it.
pub(super) fn data_url_len(content_type: &str, byte_size: usize) -> usize {
    "data:;base64,".len() + content_type.len() + byte_size.div_ceil(3).saturating_mul(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_BYTES: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    fn data_url(bytes: &'static [u8]) -> Result<String, ImageError> {
        NewImage::from_bytes(Bytes::from_static(bytes)).map(|image| image.data_url().as_str().to_owned())
    }

    #[test]
    fn the_type_comes_from_magic_bytes() {
        assert_eq!(
            data_url(PNG_BYTES).unwrap(),
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="
        );
        assert_eq!(
            data_url(b"\xff\xd8\xff\xe0").unwrap(),
            "data:image/jpeg;base64,/9j/4A=="
        );
        assert_eq!(
            data_url(b"RIFF\x10\0\0\0WEBPVP8 ").unwrap(),
            "data:image/webp;base64,UklGRhAAAABXRUJQVlA4IA=="
        );
        assert_eq!(data_url(b"hello"), Err(ImageError::NotAnImage));
    }

    #[test]
    fn data_urls_must_declare_their_real_type() {
        assert!(NewImage::parse_data_url("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==").is_ok());
        assert_eq!(
            NewImage::parse_data_url("data:image/jpeg;base64,iVBORw0KGgoAAAANSUhEUg=="),
            Err(ImageError::TypeMismatch {
                declared: "image/jpeg".to_owned(),
                actual: "image/png"
            })
        );
        assert_eq!(
            NewImage::parse_data_url("https://example.com/a.png"),
            Err(ImageError::NotADataUrl)
        );
    }

    #[test]
    fn the_content_hash_is_the_hex_sha256_of_the_bytes() {
        let image = NewImage::from_bytes(Bytes::from_static(PNG_BYTES)).unwrap();

        assert_eq!(
            image.hash().as_str(),
            "02a3e298f1533f62558c58e4c70edcab9af5a50d62d925fd5390942020fb0fb8"
        );
    }

    #[test]
    fn the_data_url_length_is_known_before_encoding() {
        for bytes in [&b""[..], b"a", b"ab", b"abc", b"abcd", PNG_BYTES] {
            assert_eq!(
                data_url_len("image/png", bytes.len()),
                ImageDataUrl::encode("image/png", bytes).as_str().len()
            );
        }
    }
}
