//! The payment URI as a QR code, inline SVG (no image request, no script).

use qrcode::QrCode;
use qrcode::render::svg;

/// Inline `<svg>` of `data` (one unit per module, quiet zone included; CSS sizes it), or `None` when the
/// data is too long for a QR code.
pub(crate) fn qr_svg(data: &str, label: &str) -> Option<String> {
    let code = QrCode::new(data.as_bytes()).ok()?;
    let document = code
        .render::<svg::Color<'_>>()
        .module_dimensions(1, 1)
        .quiet_zone(true)
        .dark_color(svg::Color("#000"))
        .light_color(svg::Color("#fff"))
        .build();
    // The renderer writes a standalone document; inline SVG in HTML takes no XML prolog.
    let (_, element) = document.split_once("<svg")?;
    Some(format!(
        r#"<svg role="img" aria-label="{}" focusable="false"{element}"#,
        super::escape::Html(label)
    ))
}

#[cfg(test)]
mod tests {
    use super::qr_svg;

    #[test]
    fn the_code_is_an_inline_svg_without_prolog() {
        let svg = qr_svg("ethereum:0xabc@8453/transfer", "QR code").unwrap();
        assert!(
            svg.starts_with(r#"<svg role="img" aria-label="QR code""#),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>"));
        assert!(!svg.contains("<?xml"));
        assert!(svg.contains("<path fill=\"#000\" d=\"M"));
    }

    #[test]
    fn data_beyond_qr_capacity_gives_none() {
        assert!(qr_svg(&"x".repeat(5000), "QR code").is_none());
    }
}
