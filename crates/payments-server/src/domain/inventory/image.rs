//! Product images: JPEG, PNG or WebP, kept as base64 data URLs.
//!
//! The type is decided by the file's magic bytes, never by what the client declared, so a text file named
//! `.png` or sent as `image/png` is refused.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use thiserror::Error;

/// Largest accepted image, before base64.
pub(crate) const MAX_IMAGE_BYTES: usize = 2 * 1024 * 1024;
/// Images per product.
pub(crate) const MAX_IMAGES: usize = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ImageKind {
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

    fn mime(self) -> &'static str {
        match self {
            ImageKind::Jpeg => "image/jpeg",
            ImageKind::Png => "image/png",
            ImageKind::Webp => "image/webp",
        }
    }
}

/// Why an image was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub(crate) enum ImageError {
    #[error("must be a JPEG, PNG or WebP image")]
    NotAnImage,
    #[error("must be at most {limit} bytes")]
    TooLarge { limit: usize },
    #[error("must be a data URL of the form data:image/png;base64,...")]
    NotADataUrl,
    #[error("declares {declared} but its content is {actual}")]
    TypeMismatch { declared: String, actual: &'static str },
}

/// `data:image/<jpeg|png|webp>;base64,<payload>` whose payload really is such an image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ImageDataUrl(String);

impl ImageDataUrl {
    /// From uploaded file bytes.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Self, ImageError> {
        if bytes.len() > MAX_IMAGE_BYTES {
            return Err(ImageError::TooLarge {
                limit: MAX_IMAGE_BYTES,
            });
        }
        let kind = ImageKind::detect(bytes).ok_or(ImageError::NotAnImage)?;
        Ok(ImageDataUrl(format!(
            "data:{};base64,{}",
            kind.mime(),
            STANDARD.encode(bytes)
        )))
    }

    /// From a data URL sent in JSON.
    pub(crate) fn parse(text: &str) -> Result<Self, ImageError> {
        let rest = text.strip_prefix("data:").ok_or(ImageError::NotADataUrl)?;
        let (declared, payload) = rest.split_once(";base64,").ok_or(ImageError::NotADataUrl)?;
        // base64 is 4/3 of the bytes; refuse oversized payloads before decoding them.
        if payload.len() > MAX_IMAGE_BYTES.div_ceil(3) * 4 {
            return Err(ImageError::TooLarge {
                limit: MAX_IMAGE_BYTES,
            });
        }
        let bytes = STANDARD.decode(payload).map_err(|_| ImageError::NotADataUrl)?;
        let decoded = ImageDataUrl::from_bytes(&bytes)?;
        if !decoded.0.starts_with(&format!("data:{declared};")) {
            let actual = ImageKind::detect(&bytes).map_or("unknown", ImageKind::mime);
            return Err(ImageError::TypeMismatch {
                declared: declared.chars().take(40).collect(),
                actual,
            });
        }
        Ok(decoded)
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn into_string(self) -> String {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_BYTES: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn the_type_comes_from_magic_bytes() {
        assert_eq!(
            ImageDataUrl::from_bytes(PNG_BYTES).unwrap().as_str(),
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUg=="
        );
        assert_eq!(
            ImageDataUrl::from_bytes(b"\xff\xd8\xff\xe0").unwrap().as_str(),
            "data:image/jpeg;base64,/9j/4A=="
        );
        assert_eq!(
            ImageDataUrl::from_bytes(b"RIFF\x10\0\0\0WEBPVP8 ")
                .unwrap()
                .as_str(),
            "data:image/webp;base64,UklGRhAAAABXRUJQVlA4IA=="
        );
        assert_eq!(ImageDataUrl::from_bytes(b"hello"), Err(ImageError::NotAnImage));
    }

    #[test]
    fn data_urls_must_declare_their_real_type() {
        assert!(ImageDataUrl::parse("data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==").is_ok());
        assert_eq!(
            ImageDataUrl::parse("data:image/jpeg;base64,iVBORw0KGgoAAAANSUhEUg=="),
            Err(ImageError::TypeMismatch {
                declared: "image/jpeg".to_owned(),
                actual: "image/png"
            })
        );
        assert_eq!(
            ImageDataUrl::parse("https://example.com/a.png"),
            Err(ImageError::NotADataUrl)
        );
    }
}
